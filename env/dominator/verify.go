package dominator

import (
	"bytes"
	"errors"
	"fmt"

	"jgym/course"
	"jgym/game"
)

// Divergence is the first place where a trace departs from what the engine
// does (with commands) or from what the rules allow (without): its Round
// is that of the state block ("round k") or of the movements block leading
// to state k, -1 for the header; Field is e.g. "health", "pos",
// "grid (3, 4)", "land" or "movement".
type Divergence = course.Divergence

// VerifyOptions selects how Verify checks a trace (game.VerifyOptions):
// with Commands (SPEC §15.1) the game is replayed exactly; with Config its
// settings must equal the trace header and its board source is used, else
// the board source is one of candidateConfigs'.
type VerifyOptions = game.VerifyOptions[Config, Dir]

// Verify checks a trace: replayed from log when log is not nil, else
// against the rules. It returns nil, a *Divergence, or another error (a bad
// command log, an engine abort).
func Verify(tr *Trace, log *CommandLog) error {
	return verifier.Verify(tr, &VerifyOptions{Commands: log})
}

// VerifyWith is Verify with options.
func VerifyWith(tr *Trace, o VerifyOptions) error { return verifier.Verify(tr, &o) }

// InferConfig returns a configuration that gives the trace's initial
// state: the header's settings and a board source, as VerifyOptions
// describes.
func InferConfig(tr *Trace) (Config, error) {
	g, err := verifier.Initial(tr, nil)
	if err != nil {
		return Config{}, err
	}
	return g.cfg, nil
}

// verifier is Dominator's side of the core's verifier: its trace's
// comparisons and its rules check.
var verifier = &game.Verifier[Config, *Game, Dir, *Trace]{
	Parse: ParseTrace,
	Shape: func(tr *Trace) error {
		if tr == nil || len(tr.States) != tr.Config.NbRounds+1 || len(tr.Moves) != tr.Config.NbRounds {
			return errors.New("verify: incomplete trace")
		}
		return nil
	},
	Header:       func(tr *Trace) (*Config, int) { return &tr.Config, tr.Seed },
	Settings:     func(c *Config) []string { v := c.Values(); return game.Sprints(v[:]) },
	SettingKeys:  configKeys[:],
	SettingsLine: 6,

	New:    New,
	Step:   (*Game).Step,
	Orders: &orderRules,

	Candidates: candidateConfigs,
	CountDiffs: func(tr *Trace, g *Game) int { return countStateDiffs(&g.State, &tr.States[0]) },
	NoCandidate: func(tr *Trace) *Divergence {
		return &Divergence{Round: 0, Unit: -1, Field: "board", Want: "a board on which the initial units fit",
			Got: "none (GENERATOR1..3 or FIXED)", Line: tr.StateLine(0)}
	},

	DiffState: func(tr *Trace, k int, g *Game) *Divergence { return tr.diffState(k, &g.State) },
	DiffMoves: func(tr *Trace, r int, g *Game) *Divergence { return tr.diffMoves(r, g.Moves) },
	// The engine's errors number the rounds from 1.
	FirstRound: 1,
	Rules:      func(tr *Trace, g *Game, _ *VerifyOptions) error { return checkRules(tr, g) },
}

// candidateConfigs lists the board sources that may have made the trace's
// initial state. GENERATOR1 a b draws q = R(a, b) walls and then the same
// as GENERATOR1 q q: only the number of walls matters.
func candidateConfigs(tr *Trace) []Config {
	base := tr.Config
	base.Board, base.Params, base.Grid = "", nil, nil
	var out []Config
	add := func(board string, params []int, grid []string) {
		c := base
		c.Board, c.Params, c.Grid = board, params, grid
		if c.Validate() == nil {
			out = append(out, c)
		}
	}
	add(Generator2, nil, nil)
	add(Generator3, nil, nil)
	rows, cols := base.Rows, base.Cols
	s0 := &tr.States[0]
	walls := 0
	grid := make([]string, rows)
	for i := 0; i < rows; i++ {
		grid[i] = string(s0.Grid[i*cols : (i+1)*cols])
		for j := 1; j < cols-1; j++ {
			if i > 0 && i < rows-1 && s0.Grid[i*cols+j] == 'X' {
				walls++
			}
		}
	}
	add(Generator1, []int{walls}, nil)
	add(Generator1, []int{walls, walls}, nil)
	add(Fixed, nil, grid)
	return out
}

// countStateDiffs counts the cells and unit records that differ between s
// and the trace state, to report the closest candidate game.
func countStateDiffs(s *State, ts *TraceState) int {
	n := 0
	for idx := range s.Grid {
		if CellChar(&s.Grid[idx]) != ts.Grid[idx] {
			n++
		}
	}
	for id := range s.Units {
		if id >= len(ts.Units) || !sameUnit(&s.Units[id], &ts.Units[id]) {
			n++
		}
	}
	return n
}

func sameUnit(a, b *Unit) bool {
	return a.Type == b.Type && a.Player == b.Player && a.Pos == b.Pos && a.Health == b.Health
}

func moveText(m Move) string { return fmt.Sprintf("%q", fmt.Sprintf("%d %c", m.ID, m.Dir.Char())) }

// diffMoves compares the movements block that leads from state r to
// state r+1 (the movements of round r+1) with want.
func (t *Trace) diffMoves(r int, want []Move) *Divergence {
	return course.DiffMoves(r+1, "movement", t.MovesLine(r)+1, want, t.Moves[r], func(m Move) int { return m.ID }, moveText)
}

// diffState compares state k of the trace with s, field by field in file
// order.
func (t *Trace) diffState(k int, s *State) *Divergence {
	ts := &t.States[k]
	cols := t.Config.Cols
	for idx := range s.Grid {
		want, got := CellChar(&s.Grid[idx]), ts.Grid[idx]
		if want != got {
			p := Pos{idx / cols, idx % cols}
			return &Divergence{Round: k, Unit: -1, Field: "grid " + p.String(), Want: string(want), Got: string(got),
				Line: t.gridLine(k, p.I)}
		}
	}
	if s.Round != ts.Round {
		return &Divergence{Round: k, Unit: -1, Field: "round", Want: fmt.Sprint(s.Round), Got: fmt.Sprint(ts.Round),
			Line: t.stateFieldLine(k, 0)}
	}
	for f, pair := range [2][2][NumPlayers]int{{s.Land, ts.Land}, {s.TotalScore, ts.TotalScore}} {
		if pair[0] != pair[1] {
			return &Divergence{Round: k, Unit: -1, Field: [2]string{"land", "total_score"}[f],
				Want: fmt.Sprint(pair[0]), Got: fmt.Sprint(pair[1]), Line: t.stateFieldLine(k, 1+f)}
		}
	}
	if len(s.Units) != len(ts.Units) {
		return &Divergence{Round: k, Unit: -1, Field: "units", Want: fmt.Sprint(len(s.Units)), Got: fmt.Sprint(len(ts.Units))}
	}
	for id := range s.Units {
		if d := t.diffUnit(k, &s.Units[id], &ts.Units[id]); d != nil {
			return d
		}
	}
	return nil
}

func (t *Trace) diffUnit(k int, w, g *Unit) *Divergence {
	d := &Divergence{Round: k, Unit: w.ID, Line: t.unitLine(k, w.ID)}
	switch {
	case w.Type != g.Type:
		d.Field, d.Want, d.Got = "type", string(w.Type.Char()), string(g.Type.Char())
	case w.Player != g.Player:
		d.Field, d.Want, d.Got = "player", fmt.Sprint(w.Player), fmt.Sprint(g.Player)
	case w.Pos != g.Pos:
		d.Field, d.Want, d.Got = "pos", w.Pos.String(), g.Pos.String()
	case w.Health != g.Health:
		d.Field, d.Want, d.Got = "health", fmt.Sprint(w.Health), fmt.Sprint(g.Health)
	default:
		return nil
	}
	return d
}

// traceRounds steps the rules check one round at a time, for datasets
// (game.Rounds): sim.base holds the state at the start of round r, sim.g
// the state after it.
type traceRounds struct {
	sim *ruleSim
	r   int
	err error
}

// newTraceRounds parses a trace and builds its initial state as Verify
// does (want, if not nil, is the configuration it was played with).
func newTraceRounds(trace []byte, want *Config) (game.Rounds[Config, State, Dir], error) {
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return nil, err
	}
	if len(tr.States) != tr.Config.NbRounds+1 || len(tr.Moves) != tr.Config.NbRounds {
		return nil, errors.New("dominator: incomplete trace")
	}
	g, err := verifier.Initial(tr, want)
	if err != nil {
		return nil, err
	}
	return &traceRounds{sim: newRuleSim(tr, g), r: -1}, nil
}

func (t *traceRounds) Config() *Config                { return &t.sim.base.cfg }
func (t *traceRounds) Seed() int                      { return t.sim.tr.Seed }
func (t *traceRounds) Names() [NumPlayers]string      { return t.sim.tr.Names }
func (t *traceRounds) State() *State                  { return &t.sim.base.State }
func (t *traceRounds) Moves() []Move                  { return t.sim.moves }
func (t *traceRounds) Err() error                     { return t.err }
func (t *traceRounds) Scores() (b, a [NumPlayers]int) { return t.sim.base.Scores(), t.sim.g.Scores() }

func (t *traceRounds) Next() bool {
	s := t.sim
	if t.err != nil || t.r+1 >= s.tr.Config.NbRounds {
		return false
	}
	if t.r >= 0 {
		s.nextRound()
	}
	t.r++
	s.r, s.next, s.moves = t.r, &s.tr.States[t.r+1], s.tr.Moves[t.r]
	if d := s.round(); d != nil {
		t.err = d
		return false
	}
	return true
}
