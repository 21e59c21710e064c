package moria

import "errors"

// errRebuild is a state that does not fit the engine's game.
var errRebuild = errors.New("moria: a state of another game")

// Rebuild returns a new engine at the position s (a state Replay rebuilt
// from a trace) with g's configuration, map and generator
// (game.Def.Rebuild): the unit lists, cell counts, the Abyss cells (a
// rock dug may become one) and the occupancy index are derived again from
// the cells and units.
func Rebuild(g *Game, s *State) (*Game, error) {
	n, err := New(g.cfg, g.seed)
	if err != nil {
		return nil, err
	}
	if len(s.Units) != len(n.Units) {
		return nil, errRebuild
	}
	n.rng = g.rng
	n.State.CopyFrom(s)
	n.State.Cfg = &n.cfg
	n.round.occ = [Rows]uint64{}
	n.abyssCells = n.abyssCells[:0]
	for idx := range n.Cells {
		if id := n.Cells[idx].ID; id >= 0 {
			n.setID(idx, int(id))
		}
		if n.Cells[idx].Type == Abyss {
			n.abyssCells = append(n.abyssCells, idx) // rocks dug into abysses
		}
	}
	n.countCells()
	n.rebuildLists()
	return n, nil
}
