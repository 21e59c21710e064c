package crematoria

import "errors"

// errRebuild is a state that does not fit the engine's game.
var errRebuild = errors.New("crematoria: a state of another game")

// Rebuild returns a new engine at the position s (a state Replay rebuilt
// from a trace) with g's configuration, map and generator
// (game.Def.Rebuild): the unit lists and cell counts are derived again
// from the cells and units.
func Rebuild(g *Game, s *State) (*Game, error) {
	n, err := New(g.cfg, g.seed)
	if err != nil {
		return nil, err
	}
	if len(s.Units) != len(n.Units) {
		return nil, errRebuild
	}
	for idx := range s.Cells {
		if s.Cells[idx].Type != n.Cells[idx].Type {
			return nil, errRebuild
		}
	}
	n.rng = g.rng
	n.State.CopyFrom(s)
	n.State.Cfg = &n.cfg
	n.rebuildLists()
	return n, nil
}
