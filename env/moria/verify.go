package moria

import (
	"errors"
	"fmt"

	"jgym/course"
	"jgym/game"
)

// ErrTruncated is returned by Verify without commands for a trace that
// ends before its last round after every round present passed: the course
// engine aborted, or the file was cut. Only the commands can tell (SPEC
// §8.8) (game.ErrTruncated).
var ErrTruncated = game.ErrTruncated

// Divergence is the first place where a trace departs from what the engine
// does (with commands) or from what the rules allow (without): its Round
// is that of the state or movements block, -1 for the header; Field is e.g.
// "health", "pos", "grid (3, 4)", "nb_cells" or "movement".
type Divergence = course.Divergence

// VerifyOptions selects how Verify checks a trace.
type VerifyOptions struct {
	// Config is the configuration the game was played with: its ten
	// settings must equal the trace header, and its map (GENERATOR or
	// FIXED) is used. When nil, the settings come from the header and the
	// initial state must be that of the GENERATOR game of the seed, or of
	// the FIXED game whose map is the first state's grid (the units, placed
	// by the board generator, tell the two apart).
	Config *Config
	// Commands are the command lists the players handed to the engine
	// (SPEC §15.1). With them the game is replayed exactly; without them
	// every round is checked against the rules.
	Commands *CommandLog
}

// Verify checks a trace: replayed from log when log is not nil, else
// against the rules. It returns nil, a *Divergence, or another error (a bad
// command log, ErrTruncated).
func Verify(tr *Trace, log *CommandLog) error {
	return VerifyWith(tr, VerifyOptions{Commands: log})
}

// VerifyWith is Verify with options.
func VerifyWith(tr *Trace, o VerifyOptions) error {
	if tr == nil || len(tr.States) == 0 || len(tr.States) > tr.Config.NbRounds+1 || len(tr.Moves) != len(tr.States)-1 {
		return errors.New("verify: incomplete trace")
	}
	g, err := initialGame(tr, o.Config)
	if err != nil {
		return err
	}
	if o.Commands != nil {
		return replayCommands(tr, g, o.Commands)
	}
	if err := checkRules(tr, g); err != nil {
		return err
	}
	if tr.Truncated() {
		return fmt.Errorf("%w: %d of %d rounds are valid; replay it with its commands to check the abort",
			ErrTruncated, len(tr.Moves), tr.Config.NbRounds)
	}
	return nil
}

// initialGame builds the game of the trace and checks its initial state.
func initialGame(tr *Trace, want *Config) (*Game, error) {
	if want != nil {
		got := tr.Config.Values()
		for i, v := range want.Values() {
			if got[i] != v {
				return nil, &Divergence{Round: -1, Unit: -1, Field: configKeys[i], Want: fmt.Sprint(v),
					Got: fmt.Sprint(got[i]), Line: 6 + i}
			}
		}
		g, err := New(*want, tr.Seed)
		if err != nil {
			return nil, fmt.Errorf("verify: build the game: %w", err)
		}
		if d := tr.diffState(0, &g.State); d != nil {
			return nil, d
		}
		return g, nil
	}
	// The trace does not say how its map was made. A GENERATOR game must
	// match the regenerated one exactly. A FIXED map uses no draws, so the
	// first state's grid is a FIXED map giving the same initial state, and
	// the units, placed by the board generator, must match too.
	cfg := tr.Config
	cfg.Fixed = nil
	var best *Divergence
	bestDiffs := -1
	try := func(cfg Config) *Game {
		g, err := New(cfg, tr.Seed)
		if err != nil {
			return nil
		}
		d := tr.diffState(0, &g.State)
		if d == nil {
			return g
		}
		if n := countStateDiffs(&g.State, &tr.States[0]); bestDiffs < 0 || n < bestDiffs {
			best, bestDiffs = d, n
		}
		return nil
	}
	if g := try(cfg); g != nil {
		return g, nil
	}
	cfg.Fixed = make([]string, Rows)
	for i := range cfg.Fixed {
		cfg.Fixed[i] = string(tr.States[0].Grid[i*Cols : (i+1)*Cols])
	}
	if g := try(cfg); g != nil {
		return g, nil
	}
	if best == nil {
		best = &Divergence{Round: 0, Unit: -1, Field: "map", Want: "a map on which the initial units fit",
			Got: "none (GENERATOR or FIXED)", Line: tr.StateLine(0)}
	}
	return nil, best
}

// countStateDiffs counts the cells and unit records that differ between s
// and the trace state, to report the closer of two candidate games.
func countStateDiffs(s *State, ts *TraceState) int {
	n := 0
	for idx := range s.Cells {
		if CellChar(&s.Cells[idx], s.Cfg.RockResistance) != ts.Grid[idx] {
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

// replayCommands plays the game with the recorded commands and compares each
// movements block and state with the trace, in file order, so the first
// divergence is the first differing byte. A truncated trace must end where
// the engine aborts.
func replayCommands(tr *Trace, g *Game, log *CommandLog) error {
	if err := log.Check(tr.Config.NbRounds, &orderRules); err != nil {
		return err
	}
	for r := 1; r <= tr.Config.NbRounds; r++ {
		err := g.Step(log.Round(r - 1)) // the lists of the r-th round played
		if r == len(tr.States) {
			// The trace ended after state r-1: the engine must abort now.
			if errors.Is(err, ErrAbort) {
				return nil
			}
			want := "the movements of round " + fmt.Sprint(r)
			if err != nil {
				return fmt.Errorf("verify: round %d: %w", r, err)
			}
			return &Divergence{Round: r, Unit: -1, Field: "movements", Want: want + " (the engine does not abort)",
				Got: "end of file", Line: tr.MovesLine(r)}
		}
		if errors.Is(err, ErrAbort) {
			return &Divergence{Round: r, Unit: -1, Field: "movements", Line: tr.MovesLine(r),
				Want: "end of file (" + err.Error() + ")", Got: "the movements of round " + fmt.Sprint(r)}
		}
		if err != nil {
			return fmt.Errorf("verify: round %d: %w", r, err)
		}
		if d := tr.diffMoves(r, g.Moves); d != nil {
			return d
		}
		if d := tr.diffState(r, &g.State); d != nil {
			return d
		}
	}
	return nil
}

func moveText(m Move) string { return fmt.Sprintf("%q", fmt.Sprintf("%d %c", m.ID, m.Dir.Char())) }

// diffMoves compares the movements block of round r (from 1) with want.
func (t *Trace) diffMoves(r int, want []Move) *Divergence {
	return course.DiffMoves(r, "movement", t.MovesLine(r)+1, want, t.Moves[r-1], func(m Move) int { return m.ID }, moveText)
}

// diffState compares state k of the trace with s, field by field in file
// order.
func (t *Trace) diffState(k int, s *State) *Divergence {
	ts := &t.States[k]
	res := s.Cfg.RockResistance
	for idx := range s.Cells {
		want, got := CellChar(&s.Cells[idx], res), ts.Grid[idx]
		if want != got {
			p := PosOf(idx)
			return &Divergence{Round: k, Unit: -1, Field: "grid " + p.String(), Want: string(want), Got: string(got),
				Line: t.gridLine(k, p.I)}
		}
	}
	if s.Round != ts.Round {
		return &Divergence{Round: k, Unit: -1, Field: "round", Want: fmt.Sprint(s.Round), Got: fmt.Sprint(ts.Round),
			Line: t.stateFieldLine(k, 0)}
	}
	for f, pair := range [2][2][NumPlayers]int{{s.NbCells, ts.NbCells}, {s.NbTreasures, ts.NbTreasures}} {
		if pair[0] != pair[1] {
			return &Divergence{Round: k, Unit: -1, Field: [2]string{"nb_cells", "nb_treasures"}[f],
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
