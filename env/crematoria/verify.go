package crematoria

import (
	"errors"
	"fmt"

	"jgym/course"
	"jgym/game"
)

// Divergence is the first place where a trace departs from what the engine
// does (with commands) or from what the rules allow (without): its Round
// is that of the state or movements block, -1 for the header; Field is e.g.
// "health", "pos", "grid (3, 4, 1)", "nb_cells" or "movement".
type Divergence = course.Divergence

// VerifyOptions selects how Verify checks a trace (game.VerifyOptions):
// with Commands (SPEC §15.4) the game is replayed exactly; with Config its
// eleven settings must equal the trace header and its map (GENERATOR or
// FIXED) is used, else the map is one of candidates'.
type VerifyOptions = game.VerifyOptions[Config, Dir]

// Verify checks a trace: replayed from log when log is not nil, else
// against the rules. It returns nil, a *Divergence, or another error (a bad
// command log, an engine abort).
func Verify(tr *Trace, log *CommandLog) error {
	return verifier.Verify(tr, &VerifyOptions{Commands: log})
}

// VerifyWith is Verify with options.
func VerifyWith(tr *Trace, o VerifyOptions) error { return verifier.Verify(tr, &o) }

// verifier is Crematoria's side of the core's verifier: its trace's
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

	Candidates: candidates,
	CountDiffs: func(tr *Trace, g *Game) int { return countStateDiffs(&g.State, &tr.States[0]) },
	NoCandidate: func(tr *Trace) *Divergence {
		return &Divergence{Round: 0, Unit: -1, Field: "map", Want: "a map on which the initial units fit",
			Got: "none (GENERATOR or FIXED)", Line: tr.StateLine(0)}
	},

	DiffState:  func(tr *Trace, k int, g *Game) *Divergence { return tr.diffState(k, &g.State) },
	DiffMoves:  func(tr *Trace, r int, g *Game) *Divergence { return tr.diffMoves(r, g.Moves) },
	FirstRound: 0,
	Rules:      func(tr *Trace, g *Game, _ *VerifyOptions) error { return checkRules(tr, g) },
}

// candidates are the maps a trace's initial state may come from. The
// trace does not say how its map was made. A GENERATOR game must match
// the regenerated one exactly. A FIXED map uses no draws, so the first
// state's grid (with the initial Pioneers' owners) is a FIXED map giving
// the same initial state, and the units, placed by the board generator,
// must match too: a generated trace with a changed cell cannot pass as
// FIXED, its units come from a different stream.
func candidates(tr *Trace) []Config {
	gen := tr.Config
	gen.Fixed = nil
	fixed := gen
	fixed.Fixed = make([]string, 0, Levels*Rows)
	for r := 0; r < Levels*Rows; r++ {
		fixed.Fixed = append(fixed.Fixed, string(tr.States[0].Grid[r*Cols:(r+1)*Cols]))
	}
	return []Config{gen, fixed}
}

// countStateDiffs counts the cells and unit records that differ between s
// and the trace state, to report the closer of two candidate games.
func countStateDiffs(s *State, ts *TraceState) int {
	n := 0
	for idx := range s.Cells {
		if cellChar(&s.Cells[idx], idx/LevelCells) != ts.Grid[idx] {
			n++
		}
	}
	for id := range s.Units {
		if id >= len(ts.Units) || s.Units[id] != ts.Units[id] {
			n++
		}
	}
	return n
}

func moveText(m Move) string { return fmt.Sprintf("%q", fmt.Sprintf("%d %c", m.ID, m.Dir.Char())) }

// diffMoves compares the movements block of round r with want.
func (t *Trace) diffMoves(r int, want []Move) *Divergence {
	return course.DiffMoves(r, "movement", t.MovesLine(r)+1, want, t.Moves[r], func(m Move) int { return m.ID }, moveText)
}

// diffState compares state k of the trace with s, field by field in file
// order.
func (t *Trace) diffState(k int, s *State) *Divergence {
	ts := &t.States[k]
	for idx := range s.Cells {
		want, got := cellChar(&s.Cells[idx], idx/LevelCells), ts.Grid[idx]
		if want != got {
			p := PosOf(idx)
			return &Divergence{Round: k, Unit: -1, Field: "grid " + p.String(), Want: string(want), Got: string(got),
				Line: t.gridLine(k, p)}
		}
	}
	if s.Round != ts.Round {
		return &Divergence{Round: k, Unit: -1, Field: "round", Want: fmt.Sprint(s.Round), Got: fmt.Sprint(ts.Round),
			Line: t.stateFieldLine(k, 0)}
	}
	for f, pair := range [2][2][NumPlayers]int{{s.NbCells, ts.NbCells}, {s.NbGems, ts.NbGems}} {
		if pair[0] != pair[1] {
			return &Divergence{Round: k, Unit: -1, Field: [2]string{"nb_cells", "nb_gems"}[f],
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
		d.Field, d.Want, d.Got = "group", fmt.Sprint(w.Player), fmt.Sprint(g.Player)
	case w.Health != g.Health:
		d.Field, d.Want, d.Got = "health", fmt.Sprint(w.Health), fmt.Sprint(g.Health)
	case w.Turns != g.Turns:
		d.Field, d.Want, d.Got = "turns", fmt.Sprint(w.Turns), fmt.Sprint(g.Turns)
	case w.Pos != g.Pos:
		d.Field, d.Want, d.Got = "pos", w.Pos.String(), g.Pos.String()
	default:
		return nil
	}
	return d
}
