package crematoria

// The hellhounds' distance field D0 (SPEC §8.7) on column bitboards.
//
// Level 0 is 40 rows by 80 wrapping columns. A column fits in one uint64
// (bit i = row i), so a set of cells is [Cols]uint64, and growing a set by
// one 8-connected step is two shifts inside each column (rows do not wrap:
// bits pushed past row 39 are cleared by the passable mask, bits below row
// 0 fall off) and an OR with the two neighbouring columns (which wrap).
// A breadth-first search from every Pioneer and Furyan at once then costs
// about a thousand word operations per layer, whatever the number of
// sources, and stops as soon as every cell the hellhounds ask about has its
// distance.

// d0Search is the scratch state of computeD0.
type d0Search struct {
	pass    [Cols]uint64 // non-Rock level-0 cells (static)
	ready   bool
	visited [Cols]uint64
	front   [Cols]uint64
	grown   [Cols]uint64
	asked   [Cols]uint64 // cells whose distance is still wanted
}

// computeD0 sets hd0[k][d] to D0 of the neighbour of hellhound k in
// direction d (far when it is Rock, off the board or unreachable). D0 is
// the 8-connected distance through non-Rock level-0 cells to the nearest
// level-0 cell holding a Pioneer or Furyan; each hellhound acts from its
// start position, so only these cells are needed.
func (g *Game) computeD0() {
	s := &g.d0
	if !s.ready {
		for j := 0; j < Cols; j++ {
			var col uint64
			for i := 0; i < Rows; i++ {
				if g.Cells[i*Cols+j].Type != Rock {
					col |= 1 << i
				}
			}
			s.pass[j] = col
		}
		s.ready = true
	}
	nh := len(g.Hellhounds)
	if cap(g.hd0) < nh {
		g.hd0 = make([][8]int32, nh)
	}
	g.hd0 = g.hd0[:nh]

	// Sources: level-0 cells holding a Pioneer or Furyan (a dead unit keeps
	// a stale position, so the cell must still name it).
	s.visited = [Cols]uint64{}
	for id := range g.Units {
		u := &g.Units[id]
		if (u.Type != Pioneer && u.Type != Furyan) || u.Pos.K != 0 || u.Pos.I < 0 ||
			int(g.Cells[u.Pos.Index()].ID) != id {
			continue
		}
		s.visited[u.Pos.J] |= 1 << u.Pos.I
	}

	// The cells asked about; those that are sources get 0 right away.
	s.asked = [Cols]uint64{}
	pending := 0
	for k := range nh {
		p := g.Units[g.Hellhounds[k]].Pos
		for d := Bottom; d <= LB; d++ {
			g.hd0[k][d] = far
			n := p.Add(d)
			if n.I < 0 || n.I >= Rows || s.pass[n.J]&(1<<n.I) == 0 {
				continue
			}
			bit := uint64(1) << n.I
			if s.visited[n.J]&bit != 0 {
				g.hd0[k][d] = 0
				continue
			}
			if s.asked[n.J]&bit == 0 {
				s.asked[n.J] |= bit
				pending++
			}
		}
	}

	s.front = s.visited
	for layer := int32(1); pending > 0; layer++ {
		var any, hit uint64
		for j := 0; j < Cols; j++ {
			f := s.front[j]
			s.grown[j] = f | f<<1 | f>>1
		}
		for j := 0; j < Cols; j++ {
			l, r := j-1, j+1
			if l < 0 {
				l = Cols - 1
			}
			if r == Cols {
				r = 0
			}
			n := (s.grown[l] | s.grown[j] | s.grown[r]) & s.pass[j] &^ s.visited[j]
			s.front[j] = n
			s.visited[j] |= n
			any |= n
			hit |= n & s.asked[j]
		}
		if any == 0 {
			break // the rest is unreachable: far
		}
		if hit == 0 {
			continue
		}
		for k := range nh {
			p := g.Units[g.Hellhounds[k]].Pos
			for d := Bottom; d <= LB; d++ {
				n := p.Add(d)
				if n.I < 0 || n.I >= Rows {
					continue
				}
				bit := uint64(1) << n.I
				if s.front[n.J]&bit == 0 {
					continue
				}
				g.hd0[k][d] = layer
				if s.asked[n.J]&bit != 0 {
					s.asked[n.J] &^= bit
					pending--
				}
			}
		}
	}
}
