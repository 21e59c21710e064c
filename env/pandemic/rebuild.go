package pandemic

import "errors"

// errRebuild is a state that does not fit the engine's game.
var errRebuild = errors.New("pandemic: a state of another game")

// Rebuild returns a new engine at the position s (a state Replay rebuilt
// from a trace) with g's configuration, map and generator
// (game.Def.Rebuild): the unit lists and the cells holding virus are
// derived again from the state.
func Rebuild(g *Game, s *State) (*Game, error) {
	n, err := New(g.cfg, g.seed)
	if err != nil {
		return nil, err
	}
	if len(s.Virus) != len(n.Virus) || len(s.Units) != len(n.Units) || len(s.Cities) != len(n.Cities) || len(s.Paths) != len(n.Paths) {
		return nil, errRebuild
	}
	for idx, t := range s.Types {
		if t != n.Types[idx] {
			return nil, errRebuild
		}
	}
	static := n.State // the map: the engine's own
	n.rng = g.rng
	n.State.CopyFrom(s)
	n.Cfg = &n.cfg
	n.Types, n.CityOf, n.PathOf, n.Cities, n.Paths = static.Types, static.CityOf, static.PathOf, static.Cities, static.Paths
	n.rebuildUnitLists()
	n.initVirus()
	return n, nil
}
