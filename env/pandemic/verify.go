package pandemic

import (
	"errors"
	"fmt"
	"slices"

	"jgym/course"
	"jgym/game"
)

// ErrIncompleteTrace is returned by Verify for a trace that ends before its
// last round where the game cannot have aborted.
var ErrIncompleteTrace = errors.New("incomplete trace")

// Divergence is the first place where a trace departs from what the engine
// does (with commands) or from what the rules allow (without): its Round
// is that of the state or commands block, -1 for the header; Field is e.g.
// "health", "pos", "grid (3, 4)", "total_score" or "command".
type Divergence = course.Divergence

// VerifyOptions selects how Verify checks a trace (game.VerifyOptions):
// with Commands (SPEC §15.4) the game is replayed exactly; with Config its
// eleven settings must print as the trace header does and its map
// (GENERATOR1 or FIXED) is used, else the map is one of candidates'.
// AllowAborted accepts a trace that ends early where the game may have
// aborted (after a state: a player's 1001st command; after a commands
// block: a failure in the virus phase, respawn or mask spawn). Without it
// such a trace fails with ErrIncompleteTrace once its rounds check. With
// commands, a trace that ends exactly where the replayed engine aborts is
// always accepted.
type VerifyOptions = game.VerifyOptions[Config, Dir]

// Verify checks a trace: replayed from log when log is not nil, else
// against the rules. It returns nil, a *Divergence, or another error (a bad
// command log, an incomplete trace). The trace of a game the engine aborts
// verifies with its log when the engine aborts exactly where the trace
// ends; see VerifyOptions.AllowAborted for other incomplete traces.
func Verify(tr *Trace, log *CommandLog) error {
	return verifier.Verify(tr, &VerifyOptions{Commands: log})
}

// VerifyWith is Verify with options.
func VerifyWith(tr *Trace, o VerifyOptions) error { return verifier.Verify(tr, &o) }

// verifier is Pandemic's side of the core's verifier: its trace's
// comparisons, the ends of aborted games and its rules check.
var verifier = &game.Verifier[Config, *Game, Dir, *Trace]{
	Parse: ParseTrace,
	Shape: func(tr *Trace) error {
		if tr == nil || len(tr.States) == 0 {
			return fmt.Errorf("verify: %w: no state", ErrIncompleteTrace)
		}
		return nil
	},
	Header:       func(tr *Trace) (*Config, int) { return &tr.Config, tr.Seed },
	Settings:     func(c *Config) []string { v := c.Values(); return v[:] },
	SettingKeys:  configKeys[:],
	SettingsLine: 6,

	New:    New,
	Step:   (*Game).Step,
	Orders: &orderRules,

	Candidates: candidates,
	CountDiffs: func(tr *Trace, g *Game) int { return countStateDiffs(&g.State, &tr.States[0]) },
	NoCandidate: func(tr *Trace) *Divergence {
		return &Divergence{Round: 0, Unit: -1, Field: "map", Want: "a map on which the initial units fit",
			Got: "none (GENERATOR1 or FIXED)", Line: tr.States[0].line.grid}
	},

	DiffState: func(tr *Trace, k int, g *Game) *Divergence { return tr.diffState(k, &g.State) },
	DiffMoves: func(tr *Trace, r int, g *Game) *Divergence { return tr.diffCommands(r, g.Moves) },
	// The engine's errors number the rounds from 1.
	FirstRound: 1,
	End:        replayEnd,
	Rules: func(tr *Trace, g *Game, o *VerifyOptions) error {
		if err := checkRules(tr, g); err != nil {
			return err
		}
		if !tr.Complete() && !o.AllowAborted {
			return fmt.Errorf("verify: %w: %d of %d states (the rounds it holds follow the rules)",
				ErrIncompleteTrace, len(tr.States), tr.Config.NbRounds+1)
		}
		return nil
	},
}

// candidates are the maps a trace's initial state may come from. The
// trace does not say how its map was made. A GENERATOR1 game must match
// the regenerated one. A FIXED map uses no draws, so the first state's map
// is a FIXED map giving the same initial map, and the units, placed by the
// board generator, must match too.
func candidates(tr *Trace) []Config {
	cfg := tr.Config
	out := []Config{cfg}
	s0 := &tr.States[0]
	fm := &FixedMap{Cities: s0.Cities, Paths: s0.Paths, Masks: s0.Masks}
	for i := 0; i < cfg.Rows; i++ {
		fm.Grid = append(fm.Grid, string(s0.Grid[i*cfg.Cols:(i+1)*cfg.Cols]))
	}
	cfg.Fixed = fm
	if cfg.Validate() == nil {
		out = append(out, cfg)
	}
	return out
}

// replayEnd is where a replayed game may end before its last round
// (game.Verifier.End): the trace of a game aborted in round r+1 ends after
// state r (a player's abort in its turn, SPEC §8.1, which the log cannot
// hold) or, when the engine aborts after the round's commands (the virus
// phase, respawn or mask spawn), after that commands block.
func replayEnd(tr *Trace, r int, g *Game, err error, o *VerifyOptions) (bool, error) {
	if r >= len(tr.Commands) {
		if len(o.Commands.Rounds) > r || !o.AllowAborted {
			return true, fmt.Errorf("verify: %w: it ends after round %d, the command log has %d rounds", ErrIncompleteTrace, r, len(o.Commands.Rounds))
		}
		return true, nil
	}
	if err != nil && !g.MovesDone {
		return false, nil // the driver's engine error
	}
	if err == nil && r+1 < len(tr.States) {
		return false, nil // the driver compares the commands and the state
	}
	if d := tr.diffCommands(r, g.Moves); d != nil {
		return true, d
	}
	if err != nil {
		if len(tr.States) != r+1 {
			return true, fmt.Errorf("verify: the engine aborts in round %d (%w), the trace goes on", r+1, err)
		}
		return true, nil
	}
	return true, fmt.Errorf("verify: %w: it ends after the commands of round %d, where the engine goes on", ErrIncompleteTrace, r+1)
}

// countStateDiffs counts the cells and unit records that differ between s
// and the trace state, to report the closer of two candidate games.
func countStateDiffs(s *State, ts *TraceState) int {
	n := 0
	for idx, ch := range ts.Grid {
		if CellChar(s.Types[idx], int(s.Virus[idx])) != ch {
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

func sameUnit(a, b *Unit) bool { return a.Player == b.Player && a.Pos == b.Pos && a.Health == b.Health }

func moveText(m Move) string { return fmt.Sprintf("%q", fmt.Sprintf("%d %c", m.ID, m.Dir.Char())) }

// commandsLine returns the line of the "commands" keyword of the block of
// round r+1.
func (t *Trace) commandsLine(r int) int {
	if r < len(t.cmdLines) {
		return t.cmdLines[r]
	}
	return 0
}

// diffCommands compares the commands block of round r+1 with want.
func (t *Trace) diffCommands(r int, want []Move) *Divergence {
	return course.DiffMoves(r+1, "command", t.commandsLine(r)+1, want, t.Commands[r], func(m Move) int { return m.ID }, moveText)
}

// mapLines returns the lines of the "cities" and "paths" keywords of state k.
func (t *Trace) mapLines(k int) (cities, paths int) {
	ts := &t.States[k]
	cities = ts.line.grid + t.Config.Rows + 1
	paths = cities + 1
	for _, c := range ts.Cities {
		paths += 2 + len(c)
	}
	return cities, paths + 1
}

// diffState compares state k of the trace with s, field by field in file
// order.
func (t *Trace) diffState(k int, s *State) *Divergence {
	ts := &t.States[k]
	cols := t.Config.Cols
	div := func(field, want, got string, line int) *Divergence {
		return &Divergence{Round: k, Unit: -1, Field: field, Want: want, Got: got, Line: line}
	}
	for idx, got := range ts.Grid {
		if want := CellChar(s.Types[idx], int(s.Virus[idx])); want != got {
			return div(fmt.Sprintf("grid (%d, %d)", idx/cols, idx%cols), fmt.Sprintf("%q", want), fmt.Sprintf("%q", got), ts.line.grid+idx/cols)
		}
	}
	cl, pl := t.mapLines(k)
	if !slices.EqualFunc(s.Cities, ts.Cities, slices.Equal) {
		return div("cities", fmt.Sprint(s.Cities), fmt.Sprint(ts.Cities), cl)
	}
	if !slices.EqualFunc(s.Paths, ts.Paths, equalPath) {
		return div("paths", fmt.Sprint(s.Paths), fmt.Sprint(ts.Paths), pl)
	}
	for i := 0; i < len(s.Masks) || i < len(ts.Masks); i++ {
		switch {
		case i >= len(ts.Masks):
			return div("masks", fmt.Sprintf("%d masks", len(s.Masks)), fmt.Sprintf("%d", len(ts.Masks)), ts.line.masks)
		case i >= len(s.Masks):
			return div("masks", fmt.Sprintf("%d masks", len(s.Masks)), fmt.Sprintf("%d", len(ts.Masks)), ts.line.masks)
		case s.Masks[i] != ts.Masks[i]:
			return div(fmt.Sprintf("mask %d", i), s.Masks[i].String(), ts.Masks[i].String(), ts.line.masks+1+i)
		}
	}
	if s.Round != ts.Round {
		return div("round", fmt.Sprint(s.Round), fmt.Sprint(ts.Round), ts.line.round)
	}
	if s.Scores != ts.Scores {
		return div("total_score", fmt.Sprint(s.Scores), fmt.Sprint(ts.Scores), ts.line.round+1)
	}
	if !slices.Equal(s.CityOwner, ts.CityOwner) {
		return div("city_owners", fmt.Sprint(s.CityOwner), fmt.Sprint(ts.CityOwner), ts.line.cityOwners)
	}
	if !slices.Equal(s.PathOwner, ts.PathOwner) {
		return div("path_owners", fmt.Sprint(s.PathOwner), fmt.Sprint(ts.PathOwner), ts.line.pathOwners)
	}
	for id := range s.Units {
		if d := t.diffUnit(k, &s.Units[id], &ts.Units[id]); d != nil {
			return d
		}
	}
	return nil
}

func (t *Trace) diffUnit(k int, w, g *Unit) *Divergence {
	d := &Divergence{Round: k, Unit: w.ID, Line: t.States[k].line.units + w.ID}
	switch {
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
