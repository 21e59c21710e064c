package moria

import (
	"unsafe"

	"jgym/game"
)

// keptCells is an observer's copy of the cells of the state it last read
// (balinCells, boardCells), brought up to date cell by cell: from the
// state's cell log (cellLog) when it holds every write since, else by
// comparing the cells (game.DiffCells).
type keptCells struct {
	cells [NumCells]Cell
	log   game.CellLogMark[State] // its place in the log of the state last read
}

// update copies into kc the cells of s that differ from kc's, calling f
// for each with its old value, and reports true; or, when more than
// limit 8-byte words differ (the comparison), reports false having
// called f for some or none: the caller then does every cell again from
// kc.cells, which reset makes s's.
func (kc *keptCells) update(s *State, limit int, f func(idx int, old Cell)) bool {
	a, b, logged := kc.log.Advance(&s.log, s)
	if !logged {
		return game.DiffCells(s.Cells[:], kc.cells[:], limit, f)
	}
	// Every write since the last call is in the log (a cell may come
	// more than once).
	for _, run := range [2][]uint16{a, b} {
		for _, i := range run {
			idx := int(i)
			if old, c := &kc.cells[idx], &s.Cells[idx]; cellBytes(old) != cellBytes(c) {
				o := *old
				*old = *c
				f(idx, o)
			}
		}
	}
	return true
}

// cellBytes returns the bytes of a cell (one comparison of six bytes,
// where the cells' == compares field by field).
func cellBytes(c *Cell) [6]byte { return *(*[6]byte)(unsafe.Pointer(c)) }

// A Cell is six bytes, none of them padding.
var _ = [1]int{}[unsafe.Sizeof(Cell{})-6]

// reset makes kc's cells s's.
func (kc *keptCells) reset(s *State) {
	kc.cells = s.Cells
	kc.log.Set(&s.log, s)
}
