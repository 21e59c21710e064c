package moria

// The board tensor as Observer.Board wrote it before it kept the planes
// from the cells between calls (boardCells): the reference that
// TestBalinCellsKept compares it with.

// oldBoard writes the board tensor of clan me, every cell from s.
func oldBoard(s *State, me int, dst []byte) {
	dst = dst[:BoardBytes]
	plane := func(k int) []byte { return dst[k*NumCells : (k+1)*NumCells : (k+1)*NumCells] }
	terrain, owner, treasure, rock := plane(planeTerrain), plane(planeOwner), plane(planeTreasure), plane(planeRock)
	unit, health, flags := plane(planeUnit), plane(planeHealth), plane(planeFlags)
	for idx := range s.Cells {
		c := &s.Cells[idx]
		terrain[idx] = uint8(c.Type)
		owner[idx] = 0
		if c.Owner >= 0 {
			owner[idx] = 1 + rel(int(c.Owner), me)
		}
		treasure[idx] = b2u(c.Treasure)
		rock[idx] = 0
		if c.Type == Rock {
			rock[idx] = uint8(c.Turns)
		}
		unit[idx], health[idx] = 0, 0
		if c.ID >= 0 {
			u := &s.Units[c.ID]
			unit[idx], health[idx] = unitCode(u, me), healthByte(u)
		}
	}
	clear(flags)
	b := s.Units[s.BalrogID].Pos
	for _, d := range [5]Dir{None, Bottom, Right, Top, Left} {
		if c := b.Add(d); s.Inside(c) || d == None {
			stamp(flags, c, 1, flagLethal)
		}
	}
	stamp(flags, b, 1, flagBalrogAdj)
	for i := max(b.I-balrogSafeManh, 0); i <= min(b.I+balrogSafeManh, Rows-1); i++ {
		w := balrogSafeManh - absInt(i-b.I)
		for j := max(b.J-w, 0); j <= min(b.J+w, Cols-1); j++ {
			flags[i*Cols+j] |= flagDiamond
		}
	}
	for _, id := range s.Trolls {
		stamp(flags, s.Units[id].Pos, 1, flagTrollAdj)
	}
	for _, id := range s.Orcs {
		stamp(flags, s.Units[id].Pos, 1, flagOrcAdj)
	}
	for idx := range s.Cells {
		if c := &s.Cells[idx]; c.Type == Abyss && c.ID < 0 && Manh(PosOf(idx), b) > birthSafeManh {
			flags[idx] |= flagBirth
		}
	}
}
