package toy

import "errors"

// errRebuild is a state that does not fit the engine's game.
var errRebuild = errors.New("toy: a state of another game")

// Rebuild returns a new engine at the position s (a state Replay rebuilt
// from a trace) with g's configuration and generator (game.Def.Rebuild):
// the cell index is derived again from the units.
func Rebuild(g *Game, s *State) (*Game, error) {
	cfg := *g.Cfg
	if len(s.Grid) != cfg.Rows*cfg.Cols || len(s.Units) != cfg.NumUnits() {
		return nil, errRebuild
	}
	n := &Game{rng: g.rng, moved: make([]bool, len(s.Units))}
	n.State.CopyFrom(s)
	n.Cfg = &cfg
	if !n.place() {
		return nil, errRebuild
	}
	return n, nil
}
