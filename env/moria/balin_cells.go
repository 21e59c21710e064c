package moria

import (
	"math/bits"
	"unsafe"
)

// balinCells keeps, between rounds, what Balin's costs take from the
// cells alone: each cell's own cost of entering and value as a target
// (its type, treasure, owner and neighbouring caves: balinValues), before
// the danger and the units, with bitboards of the cells of a value, of
// those a unit walks on and of those holding a unit id. A round changes
// a few hundred cells at most (units moving, rocks dug, caves
// conquered), so each call compares the cells with its copy eight bytes
// at a time and redoes only the cells that changed and, where a cave
// appeared or went, their orthogonal neighbours; a new seat or many
// changed cells make it all again.
type balinCells struct {
	ok    bool
	me    int
	cells [NumCells]Cell // the cells the rest was made of
	enter [NumCells]int8 // the cell's own cost of entering, 0 if none enters
	value [NumCells]float32
	// Bit j of row i for cell i*Cols+j: a value (valuable), a cell a unit
	// walks on (walk), a cave (cave), a unit id on the cell (unit), an own
	// cost beyond maxBaseCost (hard).
	valuable, walk, cave, unit, hard [Rows]uint64
	redo                             []int16 // cells to do again
}

// balinCellsRedo is the number of changed 8-byte words past which the
// cells are all done again (a round changes one or two hundred; another
// game's cells, nearly all 2,700).
const balinCellsRedo = 600

// cellWords is the size of the cells in 8-byte words (compare reads them
// four at a time: the index below fails to compile otherwise).
const cellWords = NumCells * int(unsafe.Sizeof(Cell{})) / 8

var _ = [1]int{}[cellWords%4]

// cellMemory returns the memory of the cells as words, or nil when it is
// not aligned to 8 bytes (Cell has no pointer and no padding).
func cellMemory(c *[NumCells]Cell) *[cellWords]uint64 {
	if uintptr(unsafe.Pointer(c))%8 != 0 || unsafe.Sizeof(*c) != uintptr(8*cellWords) {
		return nil
	}
	return (*[cellWords]uint64)(unsafe.Pointer(c))
}

// diffCells calls f for each cell of now that differs from was, with its
// old value, after copying it into was; it compares the cells eight bytes
// at a time. It returns false, having called f for some cells or none,
// when more than limit words differ or the cells are not aligned: the
// caller then does every cell again.
func diffCells(now, was *[NumCells]Cell, limit int, f func(idx int, old Cell)) bool {
	nw, ww := cellMemory(now), cellMemory(was)
	if nw == nil || ww == nil {
		return false
	}
	const cellSize = int(unsafe.Sizeof(Cell{}))
	changed := 0
	// Four words at a time, then the words that differ.
	for w0 := 0; w0 < cellWords; w0 += 4 {
		if (nw[w0]^ww[w0])|(nw[w0+1]^ww[w0+1])|(nw[w0+2]^ww[w0+2])|(nw[w0+3]^ww[w0+3]) == 0 {
			continue
		}
		for w := w0; w < w0+4; w++ {
			if nw[w] == ww[w] {
				continue
			}
			if changed++; changed > limit {
				return false
			}
			for idx := 8 * w / cellSize; idx <= (8*w+7)/cellSize; idx++ {
				if c, old := now[idx], was[idx]; c != old {
					was[idx] = c
					f(idx, old)
				}
			}
		}
	}
	return true
}

// update brings the cache to the cells of s seen by clan me.
func (bc *balinCells) update(s *State, me int) {
	if !bc.ok || bc.me != me {
		bc.all(s, me)
		return
	}
	// First the copy, the caves and the unit ids of the cells that
	// changed, then their costs (a cell's value reads its neighbours'
	// caves).
	redo := bc.redo[:0]
	ok := diffCells(&s.Cells, &bc.cells, balinCellsRedo, func(idx int, old Cell) {
		c := &bc.cells[idx]
		i, j := idx/Cols, idx%Cols
		bc.unit[i] = bc.unit[i]&^(1<<j) | uint64(b2i(c.ID >= 0))<<j
		if c.Type == old.Type && c.Owner == old.Owner && c.Turns == old.Turns && c.Treasure == old.Treasure {
			return // a unit id alone
		}
		redo = append(redo, int16(idx))
		if (c.Type == Cave) != (old.Type == Cave) {
			bc.cave[i] ^= 1 << j
			for d := Bottom; d < None; d += 2 {
				if a, b := i+dirDI[d], j+dirDJ[d]; a >= 0 && a < Rows && b >= 0 && b < Cols {
					redo = append(redo, int16(a*Cols+b))
				}
			}
		}
	})
	bc.redo = redo
	if !ok {
		bc.all(s, me)
		return
	}
	for _, idx := range redo {
		bc.cell(int(idx))
	}
}

// all does every cell again.
func (bc *balinCells) all(s *State, me int) {
	bc.ok, bc.me = true, me
	bc.cells = s.Cells
	for i := range Rows {
		var cave, unit uint64
		for j, c := range (*[Cols]Cell)(s.Cells[i*Cols:]) {
			cave |= uint64(b2i(c.Type == Cave)) << j
			unit |= uint64(b2i(c.ID >= 0)) << j
		}
		bc.cave[i], bc.unit[i] = cave, unit
	}
	for idx := range NumCells {
		bc.cell(idx)
	}
}

// cell does cell idx again from bc.cells and bc.cave.
func (bc *balinCells) cell(idx int) {
	c := &bc.cells[idx]
	i, j := idx/Cols, idx%Cols
	var nearCave uint64
	if i > 0 {
		nearCave |= bc.cave[i-1]
	}
	if i < Rows-1 {
		nearCave |= bc.cave[i+1]
	}
	nearCave |= bc.cave[i]<<1 | bc.cave[i]>>1
	t := c.Type & 7
	cost := balinWalk[t] + b2i(t == Rock)*(int(c.Turns)+1)
	owner := int(c.Owner)
	code := uint8(t) | uint8(b2i(c.Treasure))<<3 | uint8(b2i(owner < 0)<<1|b2i(owner >= 0)&b2i(owner != bc.me))<<4 |
		uint8(nearCave>>j&1)<<6 | uint8(b2i(cost == 0))<<7
	bc.enter[idx] = int8(cost)
	bc.value[idx] = balinValues[code]
	m := uint64(1) << j
	bc.valuable[i] = bc.valuable[i]&^m | m&-uint64(balinValuable[code])
	bc.walk[i] = bc.walk[i]&^m | m&-uint64(balinWalk[t])
	bc.hard[i] = bc.hard[i]&^m | m&-uint64(b2i(cost > maxBaseCost))
}

// hasHard reports whether a cell's own cost exceeds maxBaseCost.
func (bc *balinCells) hasHard() bool {
	var h uint64
	for _, r := range bc.hard {
		h |= r
	}
	return h != 0
}

// units appends to dst the cells holding a unit id, in index order.
func (bc *balinCells) units(dst []int16) []int16 {
	for i, r := range bc.unit {
		for ; r != 0; r &= r - 1 {
			dst = append(dst, int16(i*Cols+bits.TrailingZeros64(r)))
		}
	}
	return dst
}
