package dominator

import "errors"

// errRebuild is a state that does not fit the engine's game.
var errRebuild = errors.New("dominator: a state of another game")

// Rebuild returns a new engine at the position s (a state Replay rebuilt
// from a trace) with g's configuration and generator (game.Def.Rebuild):
// the unit lists and land counts are derived again from the board and
// the units (the rounds units last moved or were killed in matter only
// within a round).
func Rebuild(g *Game, s *State) (*Game, error) {
	n, err := New(g.cfg, g.seed)
	if err != nil {
		return nil, err
	}
	if len(s.Grid) != len(n.Grid) || len(s.Units) != len(n.Units) {
		return nil, errRebuild
	}
	for idx := range s.Grid {
		if (s.Grid[idx].Type == Wall) != (n.Grid[idx].Type == Wall) {
			return nil, errRebuild
		}
	}
	n.rng = g.rng
	n.State.CopyFrom(s)
	n.State.Cfg = &n.cfg
	n.rebuildLists()
	n.countLand()
	return n, nil
}
