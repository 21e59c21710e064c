package pandemic

import "math"

// pasteurMap is what Pasteur computes once per game: walking distances to
// every city and every path, and a scratch breadth-first search.
type pasteurMap struct {
	rows, cols int
	cities     [][]Pos // the map it was computed for
	cityDist   [][]int16
	pathDist   [][]int16
	queue      []int32
}

// newPasteurMap computes the distance fields of a state's map: for each
// city and each path, the number of steps from every cell to the nearest
// of its cells, walking through non-wall cells; -1 where unreachable.
func newPasteurMap(s *State) *pasteurMap {
	m := &pasteurMap{rows: s.Rows, cols: s.Cols, cities: s.Cities}
	for _, c := range s.Cities {
		m.cityDist = append(m.cityDist, m.field(s, c, nil))
	}
	for _, p := range s.Paths {
		m.pathDist = append(m.pathDist, m.field(s, p.Cells, nil))
	}
	return m
}

// field returns the walking distance from every cell to the nearest source
// (multi-source breadth-first search through non-wall cells), into dst if
// it is large enough.
func (m *pasteurMap) field(s *State, srcs []Pos, dst []int16) []int16 {
	n := m.rows * m.cols
	if len(dst) < n {
		dst = make([]int16, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = -1
	}
	q := m.queue[:0]
	for _, p := range srcs {
		idx := int32(s.Idx(p))
		if dst[idx] < 0 {
			dst[idx] = 0
			q = append(q, idx)
		}
	}
	cols := int32(m.cols)
	for h := 0; h < len(q); h++ {
		idx := q[h]
		if dst[idx] == math.MaxInt16 {
			break // farther cells stay unreachable (-1)
		}
		d := dst[idx] + 1
		i, j := idx/cols, idx%cols
		try := func(n int32) {
			if dst[n] < 0 && s.Types[n] != Wall {
				dst[n] = d
				q = append(q, n)
			}
		}
		if i+1 < int32(m.rows) {
			try(idx + cols)
		}
		if i > 0 {
			try(idx - cols)
		}
		if j+1 < cols {
			try(idx + 1)
		}
		if j > 0 {
			try(idx - 1)
		}
	}
	m.queue = q
	return dst
}
