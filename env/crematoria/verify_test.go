package crematoria

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadTrace parses a reference trace and, if it has one, its command log.
func loadRefTrace(t testing.TB, tc traceCase) (*Trace, *CommandLog) {
	t.Helper()
	tr, err := ParseTrace(bytes.NewReader(readGz(t, tc.path)))
	if err != nil {
		t.Fatal(err)
	}
	var log *CommandLog
	if tc.cmdPath != "" {
		if log, err = ParseCommandLog(bytes.NewReader(readGz(t, tc.cmdPath))); err != nil {
			t.Fatal(err)
		}
	}
	return tr, log
}

func TestVerifyAcceptsReferenceTraces(t *testing.T) {
	for _, tc := range traceCases(t) {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			t.Parallel()
			tr, log := loadRefTrace(t, tc)
			if err := Verify(tr, nil); err != nil {
				t.Errorf("rules: got %v, want nil", err)
			}
			if log == nil {
				t.Fatal("no command file")
			}
			if err := Verify(tr, log); err != nil {
				t.Errorf("replay: got %v, want nil", err)
			}
			if filepath.Base(filepath.Dir(tc.path)) == "edge" {
				cfg := tc.cfg
				if err := VerifyWith(tr, VerifyOptions{Config: &cfg}); err != nil {
					t.Errorf("rules with the configuration: got %v, want nil", err)
				}
			}
		})
	}
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
	dup.Rounds[1][2] = []Command{{5, Top}, {5, Left}}
	moved := &CommandLog{Rounds: make([][NumPlayers][]Command, 2)}
	moved.Rounds[0][0] = []Command{{5, Top}, {6, Left}, {7, Right}, {8, Bottom}}
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
			if got := errors.Is(err, ErrCommandFile); got != c.file || (!c.file && !errors.As(err, &d)) {
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
	m, err := NewMatchWithBots(cfg, seed, [4]string{"Brawl", "Brawl", "Brawl", "Brawl"}, bots)
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

// TestVerifyRejects changes one value of a reference trace in ways chosen to
// exercise each rule check, and checks where the divergence is reported.
func TestVerifyRejects(t *testing.T) {
	tc := refTraceNamed(t, "crematoria_s14_Dummy-Demo-Null-Demo.res.gz")
	orig, _ := loadRefTrace(t, tc)
	f := findTraceEvents(orig)
	if f.hitRound < 0 || f.rebornRound < 0 || f.arrivalRound < 0 || f.moveRound < 0 || f.gemRound < 0 {
		t.Fatalf("the trace lacks a situation to test: %+v", f)
	}
	gem := func(i int) Pos { return Pos{i, (NightStart(f.gemRound) + 40) % Cols, 1} }
	for _, c := range []struct {
		name      string
		edit      func(tr *Trace) // changes one value
		wantRound int
		wantUnit  int
		wantField string
	}{
		{"damage below the Furyan range", func(tr *Trace) { tr.States[f.hitRound+1].Units[f.hitUnit].Health += 1 + f.hitSlack },
			f.hitRound + 1, f.hitUnit, "health"},
		{"reborn next to a Pioneer", func(tr *Trace) { tr.States[f.rebornRound+1].Units[f.rebornUnit].Pos = f.rebornBad },
			f.rebornRound + 1, f.rebornUnit, "pos"},
		{"reborn unit with its old group", func(tr *Trace) {
			tr.States[f.rebornRound+1].Units[f.rebornUnit].Player = tr.States[f.rebornRound].Units[f.rebornUnit].Player
		}, f.rebornRound + 1, f.rebornUnit, "group"},
		{"necromonger arrives outside the new-night columns", func(tr *Trace) { tr.States[f.arrivalRound+1].Units[f.arrivalUnit].Pos.J += 5 },
			f.arrivalRound + 1, f.arrivalUnit, "pos"},
		{"hellhound leaves its candidates", func(tr *Trace) {
			m := &tr.Moves[0][len(tr.Moves[0])-1]
			m.Dir = (m.Dir + 4) % 8
		}, 0, 92, "movement"},
		{"player move printed with None", func(tr *Trace) { tr.Moves[f.moveRound][0].Dir = None },
			f.moveRound, firstMoveID(orig, f.moveRound), "movement"},
		{"initial hellhound moved", func(tr *Trace) { tr.States[0].Units[90].Pos.I++ }, 0, 90, "pos"},
		{"initial cave turned to Rock", func(tr *Trace) { tr.States[0].Grid[f.cave.Index()] = 'R' }, 0, -1, "grid " + f.cave.String()},
		{"two new gems", func(tr *Trace) {
			tr.States[f.gemRound+1].Grid[gem(f.gemRow).Index()] = 'G'
			tr.States[f.gemRound+1].Grid[gem(f.gemRow+1).Index()] = 'G'
		}, f.gemRound + 1, -1, "grid " + gem(f.gemRow+1).String()},
		{"round number", func(tr *Trace) { tr.States[7].Round = 8 }, 7, -1, "round"},
		{"nb_gems", func(tr *Trace) { tr.States[9].NbGems[2]++ }, 9, -1, "nb_gems"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := cloneTrace(orig)
			c.edit(tr)
			err := Verify(tr, nil)
			var d *Divergence
			if !errors.As(err, &d) {
				t.Fatalf("got %v, want a *Divergence", err)
			}
			if d.Round != c.wantRound || d.Unit != c.wantUnit || d.Field != c.wantField {
				t.Errorf("got round %d unit %d field %q (%v), want round %d unit %d field %q",
					d.Round, d.Unit, d.Field, d, c.wantRound, c.wantUnit, c.wantField)
			}
		})
	}
}

func firstMoveID(tr *Trace, r int) int { return tr.Moves[r][0].ID }

// traceEvents locates situations of a trace for TestVerifyRejects.
type traceEvents struct {
	hitRound, hitUnit, hitSlack int // a unit hurt by exactly one Furyan attack
	rebornRound, rebornUnit     int // a unit reborn at the end of a round
	rebornBad                   Pos // a cave next to a Pioneer in that state
	arrivalRound, arrivalUnit   int
	moveRound                   int // a round with a player move
	cave                        Pos // an unowned cave of the first state
	gemRound, gemRow            int // a round creating no gem, with rows gemRow and gemRow+1 free in the new-night column
}

func findTraceEvents(tr *Trace) traceEvents {
	var f traceEvents
	f.hitRound, f.rebornRound, f.arrivalRound, f.moveRound, f.gemRound = -1, -1, -1, -1, -1
	cfg := tr.Config
	f.cave = PosOf(bytes.IndexByte(tr.States[0].Grid[:], 'C'))
	N := NumPlayers * (cfg.NbFuryans + cfg.NbPioneers)
	for r := 0; r < cfg.NbRounds; r++ {
		s, n := &tr.States[r], &tr.States[r+1]
		if f.moveRound < 0 && len(tr.Moves[r]) > 0 && tr.Moves[r][0].ID < N {
			f.moveRound = r
		}
		if n1 := (NightStart(r) + 40) % Cols; f.gemRound < 0 && r > 0 {
			var night []byte
			for i := 0; i < Rows; i++ {
				night = append(night, n.Grid[Pos{i, n1, 1}.Index()], n.Grid[Pos{i, n1 + 1, 1}.Index()])
			}
			if !bytes.Contains(night, []byte("G")) {
				if i := bytes.Index(night, []byte("OOOO")); i >= 0 && i%2 == 0 {
					f.gemRound, f.gemRow = r, i/2
				}
			}
		}
		// Attacks of the round by target: only Furyans attack other groups.
		attackers := map[int]int{}
		for _, m := range tr.Moves[r] {
			if m.ID < N && s.Units[m.ID].Type == Furyan {
				t := s.Units[m.ID].Pos.Add(m.Dir)
				for id := 0; id < N; id++ {
					if s.Units[id].Pos == t && s.Units[id].Player != s.Units[m.ID].Player {
						attackers[id]++
					}
				}
			}
		}
		for id := 0; id < len(s.Units); id++ {
			u, v := &s.Units[id], &n.Units[id]
			switch {
			case id < N && u.Player == v.Player && attackers[id] == 1 && f.hitRound < 0 &&
				u.Health-(v.Health-HealthRecovery) >= MinDamageFuryan && u.Health-(v.Health-HealthRecovery) <= MaxDamageFuryan:
				f.hitRound, f.hitUnit = r, id
				f.hitSlack = u.Health - (v.Health - HealthRecovery) - MinDamageFuryan
			case id < N && u.Player != v.Player && f.rebornRound < 0:
				for _, w := range n.Units[:N] {
					if w.Pos.K != 0 || w.Type != Pioneer || s.Units[w.ID].Player != w.Player {
						continue // not a Pioneer that stood there before the respawn
					}
					if p := w.Pos.Add(Right); cellOfChar(n.Grid[p.Index()]).Type == Cave && traceUnitAt(n, p) < 0 {
						f.rebornRound, f.rebornUnit, f.rebornBad = r, id, p
						break
					}
				}
			case u.Type == Necromonger && u.Health == 0 && v.Health > 0 && f.arrivalRound < 0:
				f.arrivalRound, f.arrivalUnit = r, id
			}
		}
	}
	return f
}

func traceUnitAt(s *TraceState, p Pos) int {
	for id := range s.Units {
		if s.Units[id].Pos == p {
			return id
		}
	}
	return -1
}

func cloneTrace(tr *Trace) *Trace {
	c := *tr
	c.States = make([]TraceState, len(tr.States))
	for k := range tr.States {
		c.States[k] = tr.States[k]
		c.States[k].Units = append([]Unit(nil), tr.States[k].Units...)
	}
	c.Moves = make([][]Move, len(tr.Moves))
	for r := range tr.Moves {
		c.Moves[r] = append([]Move(nil), tr.Moves[r]...)
	}
	return &c
}

// mutationsPerTrace is the number of random mutations TestVerifyMutations
// tries per trace; JGYM_MUTATIONS overrides it for longer local runs (the
// checks were run with 4,000 per trace).
func mutationsPerTrace(t *testing.T) int {
	if s := os.Getenv("JGYM_MUTATIONS"); s != "" {
		var n int
		if _, err := fmt.Sscan(s, &n); err == nil {
			return n
		}
	}
	if testing.Short() {
		return 20
	}
	return 40
}

// A mutation changes one value of a trace's text.
type mutation struct {
	kind     string // grid, round, nb_cells, nb_gems, unit, move id, move dir, move del, move add, header
	k        int    // state or movements round; -1 for the header
	line     int    // 1-based line changed, removed or inserted before
	unit     int
	field    string // unit field
	pos      Pos    // grid cell
	old, new string // the line before and after
	oldMove  *Move  // the movement line before and after, if any
	newMove  *Move
}

func (m mutation) String() string {
	return fmt.Sprintf("%s (state/round %d, line %d): %q -> %q", m.kind, m.k, m.line, m.old, m.new)
}

// randomMutation changes one value of the trace text, always to a
// different value written as the engine writes values.
func randomMutation(rng *rand.Rand, tr *Trace, lines []string, header []int) (mutation, []string) {
	cfg := tr.Config
	out := append([]string(nil), lines...)
	delta := func() int {
		if d := rng.IntN(7) - 3; d != 0 {
			return d
		}
		return 4
	}
	set := func(m mutation, text string) (mutation, []string) {
		m.old, m.new = out[m.line-1], text
		out[m.line-1] = text
		return m, out
	}
	k := rng.IntN(cfg.NbRounds + 1)
	switch kind := rng.IntN(20); {
	case kind < 4:
		p := Pos{rng.IntN(Rows), rng.IntN(Cols), rng.IntN(Levels)}
		m := mutation{kind: "grid", k: k, pos: p, line: tr.gridLine(k, p)}
		row := []byte(out[m.line-1])
		chars := strings.ReplaceAll(gridChars[p.K], string(row[p.J]), "")
		row[p.J] = chars[rng.IntN(len(chars))]
		return set(m, string(row))
	case kind < 5:
		m := mutation{kind: "round", k: k, line: tr.stateFieldLine(k, 0)}
		return set(m, fmt.Sprintf("round %d", k+delta()))
	case kind < 6:
		f := 1 + rng.IntN(2)
		m := mutation{kind: [3]string{"", "nb_cells", "nb_gems"}[f], k: k, line: tr.stateFieldLine(k, f)}
		fields := strings.Fields(out[m.line-1])
		i := 1 + rng.IntN(NumPlayers)
		var v int
		fmt.Sscan(fields[i], &v)
		fields[i] = fmt.Sprint(v + delta())
		return set(m, strings.Join(fields, " "))
	case kind < 12:
		id := rng.IntN(cfg.NumUnits())
		f := rng.IntN(7)
		m := mutation{kind: "unit", k: k, unit: id, line: tr.unitLine(k, id), field: append([]string{"type"}, unitFields[:]...)[f]}
		fields := strings.Fields(out[m.line-1])
		if f == 0 {
			chars := strings.ReplaceAll("pfnh", fields[0], "")
			fields[0] = string(chars[rng.IntN(3)])
		} else {
			var v int
			fmt.Sscan(fields[f], &v)
			nv := v + delta()
			if rng.IntN(4) == 0 {
				if nv = rng.IntN(82) - 1; nv == v {
					nv = v + 1
				}
			}
			fields[f] = fmt.Sprint(nv)
		}
		return set(m, strings.Join(fields, " "))
	case kind < 19:
		r := rng.IntN(cfg.NbRounds)
		moves := tr.Moves[r]
		x := rng.IntN(len(moves) + 1)
		m := mutation{k: r, line: tr.MovesLine(r) + 1 + x}
		op := rng.IntN(4)
		if x == len(moves) {
			op = 3 // only an insertion can go before "-1"
		}
		if op < 3 {
			old := moves[x]
			m.oldMove = &old
		}
		nm := Move{ID: rng.IntN(cfg.NumUnits() + 3), Dir: Dir(rng.IntN(int(DirSize)))}
		switch op {
		case 0:
			m.kind = "move id"
			nm.Dir = moves[x].Dir
			if rng.IntN(2) == 0 {
				nm.ID = max(moves[x].ID+delta(), 0)
			}
			if nm.ID == moves[x].ID {
				nm.ID++
			}
		case 1:
			m.kind = "move dir"
			nm.ID = moves[x].ID
			nm.Dir = (moves[x].Dir + 1 + Dir(rng.IntN(int(DirSize)-1))) % DirSize
		case 2:
			m.kind = "move del"
			m.old = out[m.line-1]
			out = append(out[:m.line-1], out[m.line:]...)
			return m, out
		case 3:
			m.kind = "move add"
			m.newMove = &nm
			m.new = fmt.Sprintf("%d %c", nm.ID, nm.Dir.Char())
			out = append(out[:m.line-1], append([]string{m.new}, out[m.line-1:]...)...)
			return m, out
		}
		m.newMove = &nm
		return set(m, fmt.Sprintf("%d %c", nm.ID, nm.Dir.Char()))
	default:
		m := mutation{kind: "header", k: -1, line: header[rng.IntN(len(header))]}
		prefix, v := splitValue(out[m.line-1])
		nv := v + delta()
		if nv < 0 {
			nv = v + 1
		}
		return set(m, fmt.Sprintf("%s%d", prefix, nv))
	}
}

// splitValue splits "key   123" into "key   " and 123.
func splitValue(line string) (string, int) {
	i := strings.LastIndexByte(line, ' ') + 1
	var v int
	fmt.Sscan(line[i:], &v)
	return line[:i], v
}

// died reports whether unit id died during round r, as the trace shows it:
// a Pioneer or Furyan changes group, a landed necromonger disappears.
func traceDied(tr *Trace, r, id int) bool {
	if id < 0 || id >= len(tr.States[r].Units) {
		return false
	}
	u, v := &tr.States[r].Units[id], &tr.States[r+1].Units[id]
	switch u.Type {
	case Pioneer, Furyan:
		return u.Player != v.Player
	case Necromonger:
		return u.Health > 0 && u.Turns == 0 && !(v.Health > 0 && v.Turns == 0)
	}
	return false
}

// damaged reports whether unit id survived round r with less health than
// healing alone gives.
func traceDamaged(tr *Trace, r, id int) bool {
	if id < 0 || id >= len(tr.States[r].Units) || traceDied(tr, r, id) {
		return false
	}
	u, v := &tr.States[r].Units[id], &tr.States[r+1].Units[id]
	if u.Health <= 0 || u.Type == Hellhound || (u.Type == Necromonger && u.Turns != 0) {
		return false
	}
	return v.Health < min(u.Health+HealthRecovery, u.Type.MaxHealth())
}

// undetectable names the documented class of mutations that no check
// without commands can reject, because the mutated trace is itself a
// possible game (see docs/verify.md), or returns "".
func undetectable(tr *Trace, m mutation, fixedMap bool) string {
	last := tr.Config.NbRounds
	k := m.k
	switch m.kind {
	case "unit":
		id := m.unit
		switch {
		case m.field == "health" && k >= 1 && traceDamaged(tr, k-1, id) && (k == last || traceDamaged(tr, k, id) || traceDied(tr, k, id)):
			return "damage split between two rounds"
		case m.field == "group" && k >= 1 && tr.States[k].Units[id].Type == Furyan && traceDied(tr, k-1, id) && (k == last || traceDied(tr, k, id)):
			return "group of a Furyan killed in two rounds"
		case (m.field == "i" || m.field == "j" || m.field == "k") && k == last:
			u, prev := &tr.States[k].Units[id], &tr.States[k-1].Units[id]
			reborn := u.Type != Necromonger && u.Player != prev.Player
			arrived := u.Type == Necromonger && u.Turns == tr.Config.TurnsToLand && prev.Turns != u.Turns+1
			if reborn || arrived {
				return "random cell chosen in the last round"
			}
		}
	case "grid":
		gem := m.pos.K == 1 && m.old[m.pos.J] != 'E' && m.new[m.pos.J] != 'E'
		n1 := (NightStart(k-1) + 40) % Cols
		switch {
		case gem && k == last && (m.pos.J == n1 || m.pos.J == n1+1):
			return "gem of the last round"
		case gem && k == 0 && fixedMap && m.pos.J <= 1:
			return "initial gem of a FIXED map burnt in round 0"
		}
	case "move id", "move dir", "move del", "move add":
		for _, mv := range []*Move{m.oldMove, m.newMove} {
			if mv == nil || mv.ID >= len(tr.States[k].Units) {
				continue
			}
			ids := []int{mv.ID}
			if t := tr.States[k].Units[mv.ID].Pos.Add(mv.Dir); t.OnBoard() {
				ids = append(ids, traceUnitAt(&tr.States[k], t), traceUnitAt(&tr.States[k+1], t))
			}
			for _, id := range ids {
				if traceDied(tr, k, id) || traceDamaged(tr, k, id) {
					return "move whose effect a death or other damage hides"
				}
			}
		}
	}
	return ""
}

// truncateMutated cuts the mutated trace text after the state where the mutation
// must be detected (a game with fewer rounds has the same first states), to
// keep the test fast.
func truncateMutated(tr *Trace, m mutation, lines []string) string {
	if m.kind == "header" || m.k+1 >= tr.Config.NbRounds {
		return strings.Join(lines, "\n") + "\n"
	}
	rounds := m.k + 1
	end := tr.unitLine(rounds, tr.Config.NumUnits()-1) + 1 // the state's last (empty) line
	switch m.kind {
	case "move add":
		end++
	case "move del":
		end--
	}
	out := append([]string(nil), lines[:end]...)
	out[6] = fmt.Sprintf("nb_rounds           %d", rounds)
	return strings.Join(out, "\n") + "\n"
}

// TestVerifyMutations changes one value of reference traces at random and
// checks that verify, without commands, rejects the copy at the round of the
// change or the next one, unless the copy is itself a possible game.
func TestVerifyMutations(t *testing.T) {
	n := mutationsPerTrace(t)
	for i, name := range []string{
		"crematoria_s1_Demo-Demo-Demo-Demo.res.gz",
		"crematoria_s14_Dummy-Demo-Null-Demo.res.gz",
		"crematoria_s9_Demo-Null-Demo-Dummy_fixed.res.gz",
		"crematoria_s3_Demo-Null-Demo-Demo_alt.res.gz",
		"brawl", // far more attacks, deaths and captures
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var raw []byte
			var fixedMap bool
			if name == "brawl" {
				cfg := DefaultConfig()
				cfg.NbRounds, cfg.NbFuryans, cfg.NbPioneers, cfg.TurnsToLand = 60, 10, 4, 1
				var err error
				if raw, _, err = playBrawl(cfg, 3, true); err != nil {
					t.Fatal(err)
				}
			} else {
				tc := refTraceNamed(t, name)
				raw, fixedMap = readGz(t, tc.path), tc.cfg.Fixed != nil
			}
			tr, err := ParseTrace(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			arrivals := false
			for _, s := range tr.States {
				for _, u := range s.Units {
					arrivals = arrivals || u.Turns > 0
				}
			}
			// Header lines: the seed and the settings, except those the
			// trace cannot show (docs/verify.md).
			header := []int{3}
			for i, key := range configKeys {
				if key == "gem_value" || (key == "nb_elevators" && fixedMap) || (key == "turns_to_land" && !arrivals) {
					continue
				}
				header = append(header, 6+i)
			}
			lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
			rng := rand.New(rand.NewPCG(uint64(i+1), 42))
			explained := map[string]int{}
			for range n {
				m, mut := randomMutation(rng, tr, lines, header)
				if strings.Join(mut, "\n") == strings.Join(lines, "\n") {
					t.Fatalf("mutation %v left the trace unchanged", m)
				}
				text := truncateMutated(tr, m, mut)
				mtr, err := ParseTrace(strings.NewReader(text))
				if err == nil {
					err = Verify(mtr, nil)
				}
				var d *Divergence
				var pe *ParseError
				round := -2
				switch {
				case err == nil:
					if class := undetectable(tr, m, fixedMap); class != "" {
						explained[class]++
						continue
					}
					t.Errorf("%v: accepted, want rejected", m)
					continue
				case errors.As(err, &d):
					round = d.Round
				case errors.As(err, &pe):
					round = pe.Round
				default:
					t.Errorf("%v: got %v, want a *Divergence or a *ParseError", m, err)
					continue
				}
				if m.k >= 0 && round != m.k && round != m.k+1 {
					t.Errorf("%v: rejected at round %d, want %d or %d: %v", m, round, m.k, m.k+1, err)
				}
			}
			t.Logf("%d mutations; accepted as possible games: %v", n, explained)
		})
	}
}
