package crematoria

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/game"
)

// loadTrace parses a reference trace and, if it has one, its command log.
func loadRefTrace(t testing.TB, tc traceCase) (*Trace, *CommandLog) {
	t.Helper()
	tr, err := ParseTrace(bytes.NewReader(coursetest.ReadGz(t, tc.path)))
	if err != nil {
		t.Fatal(err)
	}
	var log *CommandLog
	if tc.cmdPath != "" {
		if log, err = ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, tc.cmdPath))); err != nil {
			t.Fatal(err)
		}
	}
	return tr, log
}

func TestVerifyConfigMismatch(t *testing.T) {
	tc := refTraceNamed(t, "crematoria_s3_Demo-Null-Demo-Demo_alt.res.gz")
	tr, log := loadRefTrace(t, tc)
	def := DefaultConfig()
	fixed := tc.cfg
	fixed.Fixed = make([]string, 2*Rows)
	for r := range fixed.Fixed {
		fixed.Fixed[r] = strings.Repeat("C", Cols)
		if r >= Rows {
			fixed.Fixed[r] = strings.Repeat("O", Cols)
		}
	}
	gemValue := tc.cfg
	gemValue.GemValue++
	for _, c := range []struct {
		name      string
		cfg       *Config
		log       *CommandLog
		field     string
		wantRound int
	}{
		{"default settings", &def, nil, "nb_rounds", -1},
		{"gem_value (invisible in the trace)", &gemValue, log, "gem_value", -1},
		{"a FIXED map instead of GENERATOR", &fixed, nil, "grid (0, 0, 0)", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := VerifyWith(tr, VerifyOptions{Config: c.cfg, Commands: c.log})
			var d *Divergence
			if !errors.As(err, &d) {
				t.Fatalf("got %v, want a *Divergence", err)
			}
			if d.Field != c.field || d.Round != c.wantRound {
				t.Errorf("got round %d field %q (%v), want round %d field %q", d.Round, d.Field, d, c.wantRound, c.field)
			}
		})
	}
}

func TestVerifyBadCommandLog(t *testing.T) {
	tc := refTraceNamed(t, "crematoria_s2_Null-Null-Null-Null_elev23.res.gz")
	tr, _ := loadRefTrace(t, tc)
	tooLong := &CommandLog{Rounds: make([][NumPlayers][]Command, 3)}
	dup := &CommandLog{Rounds: make([][NumPlayers][]Command, 2)}
	dup.Rounds[1][2] = []Command{{ID: 5, Dir: Top}, {ID: 5, Dir: Left}}
	moved := &CommandLog{Rounds: make([][NumPlayers][]Command, 2)}
	moved.Rounds[0][0] = []Command{{ID: 5, Dir: Top}, {ID: 6, Dir: Left}, {ID: 7, Dir: Right}, {ID: 8, Dir: Bottom}}
	for _, c := range []struct {
		name string
		log  *CommandLog
		file bool // a bad command file rather than a divergence
	}{
		{"more rounds than the game", tooLong, true},
		{"a unit commanded twice", dup, true},
		{"commands the Null players never gave", moved, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Verify(tr, c.log)
			var d *Divergence
			if got := errors.Is(err, game.ErrCommandFile); got != c.file || (!c.file && !errors.As(err, &d)) {
				t.Errorf("got %v, want a bad command file: %v", err, c.file)
			}
		})
	}
}

func TestDivergenceError(t *testing.T) {
	for _, c := range []struct {
		d    Divergence
		want string
	}{
		{Divergence{Round: 12, Unit: 45, Field: "health", Want: "36", Got: "40", Line: 2231},
			"round 12, unit 45, health: want 36, got 40 (line 2231)"},
		{Divergence{Round: -1, Unit: -1, Field: "gem_value", Want: "30", Got: "31"}, "header, gem_value: want 30, got 31"},
	} {
		if got := c.d.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func refTraceNamed(t testing.TB, base string) traceCase {
	t.Helper()
	for _, tc := range traceCases(t) {
		if filepath.Base(tc.path) == base {
			return tc
		}
	}
	t.Fatalf("no reference trace %s", base)
	return traceCase{}
}

// brawler is a test bot that fights: Furyans attack an adjacent enemy or
// walk towards the nearest one, sometimes taking elevators; Pioneers wander.
// With junk it also gives every kind of command the filters must drop.
type brawler struct {
	me   int
	rng  *rand.Rand
	junk bool
}

func newBrawler(me, seed int, junk bool) *brawler {
	return &brawler{me: me, rng: rand.New(rand.NewPCG(uint64(seed), uint64(me))), junk: junk}
}

func (b *brawler) Play(s *State, o *Orders) {
	ids := append(append([]int(nil), s.Furyans[b.me]...), s.Pioneers[b.me]...)
	b.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids {
		if b.junk && b.rng.IntN(8) == 0 {
			o.Command(id, Dir(b.rng.IntN(14)-1)) // maybe a bad direction, then a good one
		}
		o.Command(id, b.choose(s, &s.Units[id]))
	}
	if b.junk {
		n := len(s.Units)
		for _, id := range []int{-1, n, n + 7, -5, b.rng.IntN(n), b.rng.IntN(n)} {
			o.Command(id, Dir(b.rng.IntN(11)))
		}
		if len(ids) > 0 {
			o.Command(ids[0], Top) // a duplicate
		}
	}
}

func (b *brawler) choose(s *State, u *Unit) Dir {
	if u.Type == Pioneer || b.rng.IntN(5) == 0 {
		return Dir(b.rng.IntN(11))
	}
	for _, d := range b.rng.Perm(10) {
		t := u.Pos.Add(Dir(d))
		if !t.OnBoard() {
			continue
		}
		if c := s.Cells[t.Index()]; c.ID >= 0 && s.Units[c.ID].Player != b.me && s.Units[c.ID].Type != Hellhound {
			return Dir(d)
		}
	}
	if s.Cells[u.Pos.Index()].Type == Elevator && b.rng.IntN(2) == 0 {
		return Up + Dir(u.Pos.K)
	}
	best, bd := 1<<30, Dir(b.rng.IntN(8))
	for id := range s.Units {
		v := &s.Units[id]
		if v.Player == b.me || v.Type == Hellhound || v.Health <= 0 || v.Pos.K != u.Pos.K || v.Turns > 0 {
			continue
		}
		if dist := Cheb(u.Pos, v.Pos); dist < best {
			best = dist
			for d := Bottom; d <= LB; d++ {
				if Cheb(u.Pos.Add(d), v.Pos) < dist {
					bd = d
					break
				}
			}
		}
	}
	return bd
}

// playBrawl plays a game of brawlers and returns its trace and command log.
func playBrawl(cfg Config, seed int, junk bool) ([]byte, *CommandLog, error) {
	var bots [NumPlayers]Bot
	for p := range bots {
		bots[p] = newBrawler(p, seed, junk)
	}
	m, err := Def.NewMatch(cfg, seed, [4]string{"Brawl", "Brawl", "Brawl", "Brawl"}, bots)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	log := &CommandLog{}
	for !m.Done() {
		if err := m.PlayRound(); err != nil {
			return nil, nil, err
		}
		var cmds [NumPlayers][]Command
		for p := range cmds {
			cmds[p] = m.Orders(p)
		}
		log.Record(&cmds)
	}
	return buf.Bytes(), log, nil
}

// TestVerifyAcceptsBrawls checks verify on games with far more fighting than
// the reference games: multiple attacks on one unit in a round, kills by
// several groups, necromongers attacked, in several configurations.
func TestVerifyAcceptsBrawls(t *testing.T) {
	small := DefaultConfig()
	small.NbRounds, small.NbFuryans, small.NbPioneers, small.MaxNecros, small.NbHellhounds = 60, 9, 3, 6, 2
	small.TurnsToLand = 1
	slow := DefaultConfig()
	slow.NbRounds, slow.TurnsToLand, slow.NbHellhounds, slow.MaxNecros = 50, 3, 5, 3
	for _, c := range []struct {
		name string
		cfg  Config
		seed int
	}{
		{"default", DefaultConfig(), 7},
		{"default", DefaultConfig(), 1234},
		{"many Furyans, landing in 1 round", small, 5},
		{"landing in 3 rounds, 5 hellhounds", slow, 99},
	} {
		t.Run(fmt.Sprintf("%s seed %d", c.name, c.seed), func(t *testing.T) {
			t.Parallel()
			raw, log, err := playBrawl(c.cfg, c.seed, true)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := ParseTrace(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(tr, nil); err != nil {
				t.Errorf("rules: got %v, want nil", err)
			}
			if err := Verify(tr, log); err != nil {
				t.Errorf("replay: got %v, want nil", err)
			}
		})
	}
}
