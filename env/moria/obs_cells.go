package moria

// boardCells keeps, between calls, the board planes that come from the
// cells alone (terrain, owner, treasure, rock) for one seat, with
// bitboards of the cells holding a unit id and of the abysses, so that
// Board copies them and does again only the cells that changed
// (keptCells: the state's cell log, or game.DiffCells); a new seat or
// many changed cells make them all again.
type boardCells struct {
	ok     bool
	me     int
	cells  keptCells // the cells the rest was made of
	planes [4 * NumCells]byte
	// Bit j of row i for cell i*Cols+j: a unit id on the cell (unit), an
	// abyss (abyss).
	unit, abyss [Rows]uint64
	treasures   int // the cells with a treasure
}

// boardCellsRedo is the number of changed 8-byte words past which the
// planes are all done again.
const boardCellsRedo = 600

// update brings the planes to the cells of s seen by clan me.
func (bc *boardCells) update(s *State, me int) {
	if bc.ok && bc.me == me && bc.cells.update(s, boardCellsRedo, func(idx int, _ Cell) { bc.cell(idx) }) {
		return
	}
	bc.ok, bc.me = true, me
	bc.cells.reset(s)
	bc.treasures = 0
	clear(bc.planes[planeTreasure*NumCells : (planeTreasure+1)*NumCells])
	for idx := range NumCells {
		bc.cell(idx)
	}
}

// cell does cell idx again from bc.cells.
func (bc *boardCells) cell(idx int) {
	c := &bc.cells.cells[idx]
	terrain, owner := uint8(c.Type), uint8(0)
	if c.Owner >= 0 {
		owner = 1 + rel(int(c.Owner), bc.me)
	}
	rock := uint8(0)
	if c.Type == Rock {
		rock = uint8(c.Turns)
	}
	bc.planes[planeTerrain*NumCells+idx] = terrain
	bc.planes[planeOwner*NumCells+idx] = owner
	t := &bc.planes[planeTreasure*NumCells+idx]
	bc.treasures += int(b2u(c.Treasure)) - int(*t)
	*t = b2u(c.Treasure)
	bc.planes[planeRock*NumCells+idx] = rock
	i, m := idx/Cols, uint64(1)<<(idx%Cols)
	bc.unit[i] = bc.unit[i]&^m | m&-uint64(b2i(c.ID >= 0))
	bc.abyss[i] = bc.abyss[i]&^m | m&-uint64(b2i(c.Type == Abyss))
}
