package pandemic

import (
	"errors"
	"fmt"
	"slices"

	"jgym/course"
)

// ErrIncompleteTrace is returned by Verify for a trace that ends before its
// last round where the game cannot have aborted.
var ErrIncompleteTrace = errors.New("incomplete trace")

// Divergence is the first place where a trace departs from what the engine
// does (with commands) or from what the rules allow (without): its Round
// is that of the state or commands block, -1 for the header; Field is e.g.
// "health", "pos", "grid (3, 4)", "total_score" or "command".
type Divergence = course.Divergence

// VerifyOptions selects how Verify checks a trace.
type VerifyOptions struct {
	// Config is the configuration the game was played with: its eleven
	// settings must print as the trace header does, and its map
	// (GENERATOR1 or FIXED) is used. When nil, the settings come from the
	// header and the initial state must be that of the GENERATOR1 game of
	// the seed, or of the FIXED game whose map is the first state's (the
	// units, placed by the board generator, tell the two apart).
	Config *Config
	// Commands are the command lists the players handed to the engine
	// (SPEC §15.4). With them the game is replayed exactly; without them
	// every round is checked against the rules.
	Commands *CommandLog
	// AllowAborted accepts a trace that ends early where the game may have
	// aborted (after a state: a player's 1001st command; after a commands
	// block: a failure in the virus phase, respawn or mask spawn). Without
	// it such a trace fails with ErrIncompleteTrace once its rounds check.
	// With commands, a trace that ends exactly where the replayed engine
	// aborts is always accepted.
	AllowAborted bool
}

// Verify checks a trace: replayed from log when log is not nil, else
// against the rules. It returns nil, a *Divergence, or another error (a bad
// command log, an incomplete trace). The trace of a game the engine aborts
// verifies with its log when the engine aborts exactly where the trace
// ends; see VerifyOptions.AllowAborted for other incomplete traces.
func Verify(tr *Trace, log *CommandLog) error {
	return VerifyWith(tr, VerifyOptions{Commands: log})
}

// VerifyWith is Verify with options.
func VerifyWith(tr *Trace, o VerifyOptions) error {
	if tr == nil || len(tr.States) == 0 {
		return fmt.Errorf("verify: %w: no state", ErrIncompleteTrace)
	}
	g, err := initialGame(tr, o.Config)
	if err != nil {
		return err
	}
	if o.Commands != nil {
		return replayCommands(tr, g, o.Commands, o.AllowAborted)
	}
	if err := checkRules(tr, g); err != nil {
		return err
	}
	if !tr.Complete() && !o.AllowAborted {
		return fmt.Errorf("verify: %w: %d of %d states (the rounds it holds follow the rules)",
			ErrIncompleteTrace, len(tr.States), tr.Config.NbRounds+1)
	}
	return nil
}

// initialGame builds the game of the trace and checks its initial state.
func initialGame(tr *Trace, want *Config) (*Game, error) {
	if want != nil {
		got := tr.Config.Values()
		for i, v := range want.Values() {
			if got[i] != v {
				return nil, &Divergence{Round: -1, Unit: -1, Field: configKeys[i], Want: v, Got: got[i], Line: 6 + i}
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
	// The trace does not say how its map was made. A GENERATOR1 game must
	// match the regenerated one. A FIXED map uses no draws, so the first
	// state's map is a FIXED map giving the same initial map, and the
	// units, placed by the board generator, must match too.
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
	cfg := tr.Config
	if g := try(cfg); g != nil {
		return g, nil
	}
	s0 := &tr.States[0]
	fm := &FixedMap{Cities: s0.Cities, Paths: s0.Paths, Masks: s0.Masks}
	for i := 0; i < cfg.Rows; i++ {
		fm.Grid = append(fm.Grid, string(s0.Grid[i*cfg.Cols:(i+1)*cfg.Cols]))
	}
	cfg.Fixed = fm
	if cfg.Validate() == nil {
		if g := try(cfg); g != nil {
			return g, nil
		}
	}
	if best == nil {
		best = &Divergence{Round: 0, Unit: -1, Field: "map", Want: "a map on which the initial units fit",
			Got: "none (GENERATOR1 or FIXED)", Line: s0.line.grid}
	}
	return nil, best
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

// replayCommands plays the game with the recorded commands and compares each
// commands block and state with the trace, in file order, so the first
// divergence is the first differing byte.
func replayCommands(tr *Trace, g *Game, log *CommandLog, allowAborted bool) error {
	if err := log.Check(tr.Config.NbRounds, &orderRules); err != nil {
		return err
	}
	for r := 0; r < tr.Config.NbRounds; r++ {
		if r >= len(tr.Commands) {
			// The trace ends after state r: only a player's abort in its
			// turn of round r+1 (SPEC §8.1) explains it, and the log cannot
			// hold that turn.
			if len(log.Rounds) > r || !allowAborted {
				return fmt.Errorf("verify: %w: it ends after round %d, the command log has %d rounds", ErrIncompleteTrace, r, len(log.Rounds))
			}
			return nil
		}
		err := g.Step(log.Round(r))
		if err != nil && !g.MovesDone {
			return fmt.Errorf("verify: round %d: %w", r+1, err)
		}
		if d := tr.diffCommands(r, g.Moves); d != nil {
			return d
		}
		if err != nil {
			if len(tr.States) != r+1 {
				return fmt.Errorf("verify: the engine aborts in round %d (%w), the trace goes on", r+1, err)
			}
			return nil
		}
		if r+1 >= len(tr.States) {
			return fmt.Errorf("verify: %w: it ends after the commands of round %d, where the engine goes on", ErrIncompleteTrace, r+1)
		}
		if d := tr.diffState(r+1, &g.State); d != nil {
			return d
		}
	}
	return nil
}

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
