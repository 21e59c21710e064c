package dominator

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/game"
)

// loadRefTrace parses a reference trace and its command log.
func loadRefTrace(t testing.TB, tc traceCase) (*Trace, *CommandLog) {
	t.Helper()
	tr, err := ParseTrace(bytes.NewReader(coursetest.ReadGz(t, tc.path)))
	if err != nil {
		t.Fatal(err)
	}
	var log *CommandLog
	if tc.cmdPath != "" {
		log = loadLog(t, tc.cmdPath)
	}
	return tr, log
}

func refTraceNamed(t testing.TB, name string) traceCase {
	t.Helper()
	for _, tc := range traceCases(t) {
		if tc.name == name {
			return tc
		}
	}
	t.Fatalf("no reference trace %s", name)
	return traceCase{}
}

// TestInferConfig checks that the board source of every shipped
// configuration is recognised from a trace's first state.
func TestInferConfig(t *testing.T) {
	for _, name := range []string{"fixed2_s25_Demo-Dummy-Demo-Chaos.res.gz", "generator1_s21_Demo-Dummy-Demo-Chaos.res.gz",
		"generator3_s23_Demo-Dummy-Demo-Chaos.res.gz", "dominator_s3_Demo-Demo-Demo-Demo.res.gz", "weak_s7_Chaos-Demo-Dummy-Chaos.res.gz"} {
		tc := refTraceNamed(t, name)
		tr, _ := loadRefTrace(t, tc)
		cfg, err := InferConfig(tr)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cfg.Board != tc.cfg.Board {
			t.Errorf("%s: board source %s, want %s", name, cfg.Board, tc.cfg.Board)
		}
	}
}

func TestVerifyConfigMismatch(t *testing.T) {
	tc := refTraceNamed(t, "generator1_s21_Demo-Dummy-Demo-Chaos.res.gz")
	tr, log := loadRefTrace(t, tc)
	def := DefaultConfig()
	regen := tc.cfg
	regen.KnightsRegen++
	g3, _ := ShippedConfig("generator3")
	for _, c := range []struct {
		name      string
		cfg       *Config
		log       *CommandLog
		field     string
		wantRound int
	}{
		{"knights_regen", &regen, log, "knights_regen", -1},
		{"another board source", &g3, nil, "grid (1, 15)", 0},
		{"default configuration", &def, nil, "grid (1, 13)", 0},
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
	tc := refTraceNamed(t, "dominator_s2_Null-Null-Null-Null.res.gz")
	tr, _ := loadRefTrace(t, tc)
	tooLong := &CommandLog{Rounds: make([][NumPlayers][]Command, 201)}
	dup := &CommandLog{Rounds: make([][NumPlayers][]Command, 2)}
	dup.Rounds[1][2] = []Command{{ID: 70, Dir: Top}, {ID: 70, Dir: Left}}
	moved := &CommandLog{Rounds: make([][NumPlayers][]Command, 2)}
	moved.Rounds[0][0] = []Command{{ID: 12, Dir: Top}, {ID: 13, Dir: Left}, {ID: 14, Dir: Right}, {ID: 15, Dir: Bottom}}
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
		{Divergence{Round: -1, Unit: -1, Field: "knights_regen", Want: "30", Got: "31"}, "header, knights_regen: want 30, got 31"},
	} {
		if got := c.d.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// TestVerifyReportsFirstByte checks that a replay reports a changed value
// at the line where the trace first differs.
func TestVerifyReportsFirstByte(t *testing.T) {
	tc := refTraceNamed(t, "dominator_s5_Dummy-Demo-Null-Demo.res.gz")
	raw := coursetest.ReadGz(t, tc.path)
	log := loadLog(t, tc.cmdPath)
	lines := strings.Split(string(raw), "\n")
	tr0, _ := ParseTrace(bytes.NewReader(raw))
	line := tr0.unitLine(37, 40) // unit 40 in state 37
	f := strings.Fields(lines[line-1])
	f[4] = "1"
	lines[line-1] = strings.Join(f, " ")
	tr, err := ParseTrace(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	err = Verify(tr, log)
	var d *Divergence
	if !errors.As(err, &d) || d.Line != line || d.Round != 37 || d.Unit != 40 || d.Field != "health" {
		t.Errorf("got %v, want a health divergence of unit 40 in round 37 at line %d", err, line)
	}
}

// brawler is a test bot that fights: knights attack an adjacent rival or
// walk towards the nearest one, farmers and witches wander (into haunted
// cells too). With junk it also gives every kind of command the engine
// must drop.
type brawler struct {
	rng  *rand.Rand
	junk bool
}

func newBrawler(me, seed int, junk bool) *brawler {
	return &brawler{rng: rand.New(rand.NewPCG(uint64(seed), uint64(me))), junk: junk}
}

func (b *brawler) Play(v *State, o *Orders) {
	ids := append(append(append([]int(nil), v.Knights[0]...), v.Farmers[0]...), v.Witches[0]...)
	b.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids {
		if b.junk && b.rng.IntN(8) == 0 {
			o.Command(id, Dir(b.rng.IntN(14)-2)) // maybe bad, then the first wins
		}
		o.Command(id, b.choose(v, &v.Units[id]))
	}
	if b.junk {
		n := len(v.Units)
		for _, id := range []int{-1, n, n + 7, -5, b.rng.IntN(n), b.rng.IntN(n)} {
			o.Command(id, Dir(b.rng.IntN(10)))
		}
	}
}

func (b *brawler) choose(v *State, u *Unit) Dir {
	if u.Type != Knight || b.rng.IntN(6) == 0 {
		return Dir(2 * b.rng.IntN(5))
	}
	for _, d := range b.rng.Perm(8) {
		if x := v.UnitAt(u.Pos.Add(Dir(d))); x != nil && x.Player != 0 && x.Type != Witch {
			return Dir(d)
		}
	}
	best, bd := 1<<30, Dir(b.rng.IntN(9))
	for id := range v.Units {
		x := &v.Units[id]
		if x.Player == 0 || x.Type == Witch {
			continue
		}
		if dist := max(absInt(x.Pos.I-u.Pos.I), absInt(x.Pos.J-u.Pos.J)); dist < best {
			best = dist
			for d := Bottom; d < None; d++ {
				q := u.Pos.Add(d)
				if max(absInt(x.Pos.I-q.I), absInt(x.Pos.J-q.J)) < dist {
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
			return buf.Bytes(), log, err
		}
		var cmds [NumPlayers][]Command
		for p := range cmds {
			cmds[p] = m.Orders(p)
		}
		log.Record(&cmds)
	}
	return buf.Bytes(), log, nil
}

// TestVerifyAcceptsBrawls checks verify on games with far more fighting
// than the reference games: several attacks on one unit in a round,
// fatal steps, crowded boxes with fallbacks, extras and lost units.
func TestVerifyAcceptsBrawls(t *testing.T) {
	crowd, err := ParseConfig(strings.NewReader(strings.Replace(DefaultConfigText, "37", "25", 2)))
	if err != nil {
		t.Fatal(err)
	}
	crowd.NbRounds, crowd.NbFarmers, crowd.NbKnights, crowd.NbWitches, crowd.Board = 80, 45, 12, 1, Generator3
	weak := DefaultConfig()
	weak.NbRounds, weak.FarmersHealth, weak.KnightsHealth, weak.DamageMin, weak.DamageMax, weak.KnightsRegen = 80, 40, 90, 0, 70, 5
	witches := DefaultConfig()
	witches.NbRounds, witches.NbWitches, witches.NbFarmers = 80, 6, 12
	played, aborted := 0, 0
	for _, c := range []struct {
		name string
		cfg  Config
		seed int
	}{
		{"default", DefaultConfig(), 7},
		{"default", DefaultConfig(), 1234},
		{"crowd", crowd, 3},
		{"crowd", crowd, 8},
		{"crowd", crowd, 11},
		{"weak", weak, 5},
		{"witches", witches, 9},
	} {
		t.Run(fmt.Sprintf("%s seed %d", c.name, c.seed), func(t *testing.T) {
			raw, log, err := playBrawl(c.cfg, c.seed, true)
			if errors.Is(err, ErrAbort) {
				aborted++
				t.Logf("the game aborts: %v", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			played++
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
	if played < 5 {
		t.Errorf("%d brawls played to the end (%d aborted), want at least 5", played, aborted)
	}
}
