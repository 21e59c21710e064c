package moria

// distMap is a distance map of SPEC §8.6 (orcs) or §8.7 (trolls), built
// lazily: cells are numbered by a breadth-first search only where the
// rules' search reaches, and value gives every other cell the value the
// full map would hold. distanceMap (distmap_test.go), the map written out
// in full as the rules word it, is the reference it is tested against.
type distMap struct {
	trolls bool
	b      Pos    // the Balrog
	stamp  uint32 // lab[idx] == stamp: dist[idx] holds idx's distance
	lab    []uint32
	dist   []int32
	queue  []int32
	need   []uint32 // need[idx] == stamp: a cell the orcs will look at
	left   int      // needed cells not numbered yet
}

func (m *distMap) reset(b Pos, trolls bool) {
	if m.lab == nil {
		m.lab, m.need, m.dist = make([]uint32, NumCells), make([]uint32, NumCells), make([]int32, NumCells)
	}
	if m.stamp++; m.stamp == 0 {
		clear(m.lab)
		clear(m.need)
		m.stamp = 1
	}
	m.b, m.trolls, m.left = b, trolls, 0
	m.queue = m.queue[:0]
}

// diamond reports whether cell idx is within Manhattan 4 of the Balrog,
// where orcs and trolls never go.
func (m *distMap) diamond(idx int) bool { return m.near(idx/Cols, idx%Cols) }

// near is diamond for the cell of row i and column j.
func (m *distMap) near(i, j int) bool { return absInt(i-m.b.I)+absInt(j-m.b.J) <= balrogSafeManh }

// open reports whether the search may number cell idx: a Cave or Abyss
// for the orcs, an Outside cell for the trolls, away from the Balrog.
func (m *distMap) open(g *Game, idx int) bool { return m.openAt(g, idx, idx/Cols, idx%Cols) }

// openAt is open for the cell idx of row i and column j.
func (m *distMap) openAt(g *Game, idx, i, j int) bool {
	t := g.Cells[idx].Type
	if m.trolls {
		return t == Outside && !m.near(i, j)
	}
	return (t == Cave || t == Abyss) && !m.near(i, j)
}

// value returns the distance of cell idx: numbered by the search, else 1
// for a troll's cave, 0 for a cell the search may enter but did not reach,
// far for the rest.
func (m *distMap) value(g *Game, idx int) int32 {
	if m.lab[idx] == m.stamp {
		return m.dist[idx]
	}
	if m.diamond(idx) {
		return far
	}
	t := g.Cells[idx].Type
	switch {
	case m.trolls && t == Cave:
		return 1
	case m.open(g, idx):
		return 0
	}
	return far
}

func (m *distMap) label(idx int, d int32) {
	m.lab[idx], m.dist[idx] = m.stamp, d
	m.queue = append(m.queue, int32(idx))
	if m.need[idx] == m.stamp {
		m.left--
	}
}

// search runs the breadth-first search from the queued cells, stopping
// once every needed cell is numbered when some were marked.
func (m *distMap) search(g *Game, needed bool) {
	for h := 0; h < len(m.queue); h++ {
		if needed && m.left == 0 {
			return
		}
		idx := int(m.queue[h])
		i, j := idx/Cols, idx%Cols
		nd := m.dist[idx] + 1
		for d := Bottom; d < None; d++ {
			a, c := i+dirDI[d], j+dirDJ[d]
			if a < 0 || a >= Rows || c < 0 || c >= Cols {
				continue
			}
			if n := a*Cols + c; m.lab[n] != m.stamp && m.openAt(g, n, a, c) {
				m.label(n, nd)
			}
		}
	}
}

// orcMap builds the orcs' map before any orc acts (SPEC §8.6): the
// sources are the caves holding a dwarf or wizard, away from the Balrog.
// Only the distances of the cells next to a living orc are needed.
func (g *Game) orcMap(m *distMap) {
	m.reset(g.Units[g.BalrogID].Pos, false)
	for id := g.cfg.FirstOrc(); id < g.cfg.FirstTroll(); id++ {
		u := &g.Units[id]
		if u.Health <= 0 {
			continue
		}
		for d := Bottom; d < None; d++ {
			if n := u.Pos.Add(d); n.OnBoard() {
				if idx := n.Index(); m.need[idx] != m.stamp && m.open(g, idx) {
					m.need[idx] = m.stamp
					m.left++
				}
			}
		}
	}
	// A cave holds a clan unit's id only where that unit stands, so the
	// sources are found from the units.
	for id := 0; id < g.cfg.FirstOrc(); id++ {
		p := g.Units[id].Pos
		if !p.OnBoard() {
			continue
		}
		if idx := p.Index(); int(g.Cells[idx].ID) == id && g.Cells[idx].Type == Cave && !m.diamond(idx) && m.lab[idx] != m.stamp {
			m.label(idx, 1)
		}
	}
	m.search(g, true)
}

// trollMap builds the map of the trolls standing outside Moria (SPEC
// §8.7): every cave away from the Balrog is a source; the search numbers
// the Outside cells from 2 on.
func (g *Game) trollMap(m *distMap) {
	m.reset(g.Units[g.BalrogID].Pos, true)
	for _, idx := range g.outsideCells {
		if !m.open(g, int(idx)) {
			continue
		}
		i, j := int(idx)/Cols, int(idx)%Cols
		for d := Bottom; d < None; d++ {
			a, c := i+dirDI[d], j+dirDJ[d]
			if a < 0 || a >= Rows || c < 0 || c >= Cols {
				continue
			}
			if n := a*Cols + c; g.Cells[n].Type == Cave && !m.diamond(n) {
				m.label(int(idx), 2)
				break
			}
		}
	}
	m.search(g, false)
}
