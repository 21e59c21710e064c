package moria

// balinCells keeps, between rounds, what Balin's costs take from the
// cells alone: each cell's own cost of entering and value as a target
// (its type, treasure, owner and neighbouring caves: balinValues), before
// the danger and the units, with bitboards of the cells of a value, of
// those a unit walks on and of those holding a unit id. A round changes
// a few hundred cells at most (units moving, rocks dug, caves
// conquered), so each call compares the cells with its copy eight bytes
// at a time and redoes only the cells that changed and, where a cave
// appeared or went, their orthogonal neighbours; a new seat or many
// changed cells make it all again. When the state's cell log holds every
// write since the last call, the cells it names are compared alone
// (keptCells).
type balinCells struct {
	ok    bool
	me    int
	cells keptCells      // the cells the rest was made of
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
	ok := bc.cells.update(s, balinCellsRedo, func(idx int, old Cell) {
		c := &bc.cells.cells[idx]
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
	bc.cells.reset(s)
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
	c := &bc.cells.cells[idx]
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
