package crematoria

import (
	"bytes"

	"jgym/game"
)

// cellCache keeps what Encode derived from the cells of the state it last
// encoded: the board's two level planes and the cell bitboards of the
// path searches (scanCells), with the cells, the seat and the unit codes
// they were made of. A round changes a few hundred cells at most (units
// moving, caves conquered, gems), so the next call compares the cells
// eight bytes at a time and redoes only the cells that changed, then the
// cell of each unit whose code changed (a kill changes its owner); a new
// seat or many changed cells make it all again. When the state's cell log
// (State.noteCell) holds every write since the cache's last call on the
// same state, only the logged cells are redone, without the comparison.
type cellCache struct {
	ok    bool
	me    int
	log   game.CellLogMark[State] // its place in the log of the state last seen
	cells [NumCells]Cell
	codes []uint8
	named []int32 // by unit id, the number of cells naming it
	// The board's level planes, as Board writes them.
	planes [2 * LevelCells]uint8
	// scanCells' bitboards.
	pass, elev, cave, free, gem bitboard
	// Versions of pass and elev, and of gem: a new number (from ver)
	// whenever they change.
	terrainVer, gemVer, ver uint64
}

// cellCacheRedo is the number of changed 8-byte words past which the
// cells are all done again (a round changes about 120; another game's
// cells, nearly all 4,800).
const cellCacheRedo = 384

// update brings the cache to state s seen by seat me, with codes the unit
// codes of me (Observer.unitCodes).
func (cc *cellCache) update(s *State, me int, codes []uint8) {
	a, b, logged := cc.log.Advance(&s.log, s)
	if !cc.ok || cc.me != me || len(codes) < len(cc.codes) {
		cc.all(s, me, codes)
		return
	}
	for len(cc.named) < len(codes) {
		cc.named = append(cc.named, 0)
	}
	lut0, lut1 := terrainLUTs(me)
	if logged {
		for _, run := range [2][]uint16{a, b} {
			for _, i := range run {
				idx := int(i)
				old := cc.cells[idx]
				cc.cells[idx] = s.Cells[idx]
				cc.redo(s, idx, old, me, &lut0, &lut1, codes)
			}
		}
		cc.units(s, me, codes)
		return
	}
	cc.compare(s, me, codes, &lut0, &lut1)
}

// compare redoes the cells that differ from the cache's copy
// (game.DiffCells).
func (cc *cellCache) compare(s *State, me int, codes []uint8, lut0 *[4][8]uint8, lut1 *[4][2]uint8) {
	if !game.DiffCells(s.Cells[:], cc.cells[:], cellCacheRedo, func(idx int, old Cell) {
		cc.redo(s, idx, old, me, lut0, lut1, codes)
	}) {
		cc.all(s, me, codes)
		return
	}
	cc.units(s, me, codes)
}

// units redoes the cells of the units whose code changed, once their cells
// are up to date.
func (cc *cellCache) units(s *State, me int, codes []uint8) {
	// The units whose code changed: the cell naming one, if any, is its
	// cell (else all again).
	if bytes.Equal(cc.codes, codes) {
		return
	}
	for id, code := range codes {
		if id < len(cc.codes) && cc.codes[id] == code || cc.named[id] == 0 {
			continue
		}
		p := s.Units[id].Pos
		if cc.named[id] > 1 || !p.OnBoard() || int(s.Cells[p.Index()].ID) != id {
			cc.all(s, me, codes)
			return
		}
		cc.planes[p.Index()] = cc.planes[p.Index()]&7 | code<<3
	}
	cc.codes = append(cc.codes[:0], codes...)
}

// all does the cache again from every cell.
func (cc *cellCache) all(s *State, me int, codes []uint8) {
	cc.ok, cc.me = true, me
	cc.ver += 2
	cc.terrainVer, cc.gemVer = cc.ver-1, cc.ver
	cc.cells = s.Cells
	cc.codes = append(cc.codes[:0], codes...)
	cc.named = append(cc.named[:0], make([]int32, len(codes))...)
	for idx := range s.Cells {
		if id := s.Cells[idx].ID; id >= 0 && int(id) < len(codes) {
			cc.named[id]++
		}
	}
	levelPlanes(s, me, codes, cc.planes[:2*LevelCells])
	scanCells(s, me, &cc.pass, &cc.elev, &cc.cave, &cc.free, &cc.gem)
}

// redo does cell idx again, as all does it, once the cache's copy of the
// cell is s's and was its old value. A cell whose terrain (type, owner,
// gem) is the same changed only its unit: its terrain code and bits stay.
func (cc *cellCache) redo(s *State, idx int, was Cell, me int, lut0 *[4][8]uint8, lut1 *[4][2]uint8, codes []uint8) {
	c := &s.Cells[idx]
	if id := was.ID; id >= 0 && int(id) < len(cc.named) {
		cc.named[id]--
	}
	if c.ID >= 0 && int(c.ID) < len(cc.named) {
		cc.named[c.ID]++
	}
	t := cc.planes[idx] & 7
	if c.Type != was.Type || c.Owner != was.Owner || c.Gem != was.Gem {
		if c.Type != was.Type {
			cc.ver++
			cc.terrainVer = cc.ver
		}
		k, i, j := idx/LevelCells, idx%LevelCells/Cols, idx%Cols
		bit := uint64(1) << i
		setBit := func(b *bitboard, k int, on bool) {
			if on {
				b[k][j] |= bit
			} else {
				b[k][j] &^= bit
			}
		}
		if k == 0 {
			t = lut0[c.Type&3][uint8(c.Owner+1)&7]
			setBit(&cc.pass, 0, c.Type != Rock)
			setBit(&cc.elev, 0, c.Type == Elevator)
			setBit(&cc.cave, 0, c.Type == Cave && int(c.Owner) != me)
			setBit(&cc.free, 0, c.Type == Cave && c.Owner < 0)
		} else {
			t = lut1[c.Type&3][b2u(c.Gem)]
			setBit(&cc.pass, 1, c.Type != Rock)
			setBit(&cc.elev, 1, c.Type == Elevator)
			setBit(&cc.gem, 1, c.Gem)
			if c.Gem != was.Gem {
				cc.ver++
				cc.gemVer = cc.ver
			}
		}
	}
	if c.ID >= 0 {
		t |= codes[c.ID] << 3
	}
	cc.planes[idx] = t
}
