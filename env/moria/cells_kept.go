package moria

import "jgym/game"

// keptCells is an observer's copy of the cells of the state it last read
// (balinCells, boardCells), brought up to date cell by cell: from the
// state's cell log (State.loggedCells) when it holds every write since,
// else by comparing the cells (game.DiffCells).
type keptCells struct {
	cells [NumCells]Cell
	log   *cellLog // the log of the state last read, or nil
	logAt uint64   // its write count then
}

// update copies into kc the cells of s that differ from kc's, calling f
// for each with its old value, and reports true; or, when more than
// limit 8-byte words differ (the comparison), reports false having
// called f for some or none: the caller then does every cell again from
// kc.cells, which reset makes s's.
func (kc *keptCells) update(s *State, limit int, f func(idx int, old Cell)) bool {
	l, at, ok := s.loggedCells(kc.log, kc.logAt, func(idx int) {
		if old := kc.cells[idx]; old != s.Cells[idx] {
			kc.cells[idx] = s.Cells[idx]
			f(idx, old)
		}
	})
	kc.log, kc.logAt = l, at
	return ok || game.DiffCells(s.Cells[:], kc.cells[:], limit, f)
}

// reset makes kc's cells s's.
func (kc *keptCells) reset(s *State) {
	kc.cells = s.Cells
	kc.log, kc.logAt = s.cellLogOf()
}
