package pandemic

import (
	"math"
	"slices"
	"sync"
)

// pasteurMap is what Pasteur computes once per game: walking distances to
// every city and every path (shared, pasteurFieldsOf), and a scratch
// breadth-first search.
type pasteurMap struct {
	rows, cols int
	*pasteurFields
	queue []int32
}

// pasteurFields are the distance fields of one map, read-only once made:
// for each city and each path, the number of steps from every cell to the
// nearest of its cells, walking through non-wall cells; -1 where
// unreachable.
type pasteurFields struct {
	rows     int
	types    []CellType // the map they were made for, rows x len/rows
	cities   [][]Pos
	paths    [][]Pos
	cityDist [][]int16
	pathDist [][]int16
}

// pasteurMaps keeps the fields of the maps Pasteurs played on last, most
// recent first: the four seats of a game, and the fresh Pasteurs the Search
// bot seats in each of its rollouts (a few thousand a game), make the
// fields of one map, which cost some twenty whole searches.
var pasteurMaps struct {
	sync.Mutex
	kept []*pasteurFields
}

// pasteurMapsKept bounds pasteurMaps (about 200 KB a map of the default
// configuration).
const pasteurMapsKept = 16

// newPasteurMap returns the distance fields of a state's map and a
// scratch search.
func newPasteurMap(s *State) *pasteurMap {
	m := &pasteurMap{rows: s.Rows, cols: s.Cols}
	m.pasteurFields = m.fieldsOf(s)
	return m
}

// fieldsOf returns the fields of s's map: kept ones if a Pasteur made them
// for the same map, else new ones, then kept.
func (m *pasteurMap) fieldsOf(s *State) *pasteurFields {
	pasteurMaps.Lock()
	for i, f := range pasteurMaps.kept {
		if f.of(s) {
			copy(pasteurMaps.kept[1:i+1], pasteurMaps.kept[:i])
			pasteurMaps.kept[0] = f
			pasteurMaps.Unlock()
			return f
		}
	}
	pasteurMaps.Unlock()
	f := &pasteurFields{rows: s.Rows, types: slices.Clone(s.Types)}
	for _, c := range s.Cities {
		f.cities = append(f.cities, slices.Clone(c))
		f.cityDist = append(f.cityDist, m.field(s, c, nil))
	}
	for _, p := range s.Paths {
		f.paths = append(f.paths, slices.Clone(p.Cells))
		f.pathDist = append(f.pathDist, m.field(s, p.Cells, nil))
	}
	pasteurMaps.Lock()
	if len(pasteurMaps.kept) < pasteurMapsKept {
		pasteurMaps.kept = append(pasteurMaps.kept, nil)
	}
	copy(pasteurMaps.kept[1:], pasteurMaps.kept)
	pasteurMaps.kept[0] = f
	pasteurMaps.Unlock()
	return f
}

// of reports whether f are the fields of s's map: the same cells (walls
// and the rest, rows and columns with them), cities and paths.
func (f *pasteurFields) of(s *State) bool {
	if f.rows != s.Rows || len(f.cities) != len(s.Cities) || len(f.paths) != len(s.Paths) || !slices.Equal(f.types, s.Types) {
		return false
	}
	for i, c := range s.Cities {
		if !slices.Equal(f.cities[i], c) {
			return false
		}
	}
	for i, p := range s.Paths {
		if !slices.Equal(f.paths[i], p.Cells) {
			return false
		}
	}
	return true
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
	m.search(s, srcs, dst, math.MaxInt16)
	return dst
}

// A pasteurDist is a distance field searched again every round, with the
// cells its last search set when they were few, so that the next search
// clears only those.
type pasteurDist struct {
	d   []int16
	set []int32 // the cells the last search set, if few
	few bool    // set holds every cell of d that is not -1
}

// fieldWithin makes f the field of srcs for the cells within limit steps
// of a source (math.MaxInt16: every cell), the others -1, as if
// unreachable (the search stops there).
func (m *pasteurMap) fieldWithin(s *State, srcs []Pos, f *pasteurDist, limit int16) {
	n := m.rows * m.cols
	switch {
	case len(f.d) != n || !f.few:
		if len(f.d) != n {
			f.d = make([]int16, n)
		}
		for i := range f.d {
			f.d[i] = -1
		}
	default:
		for _, idx := range f.set {
			f.d[idx] = -1
		}
	}
	q := m.search(s, srcs, f.d, limit)
	if f.few = len(q) <= n/8; f.few {
		f.set = append(f.set[:0], q...)
	}
}

// search is the breadth-first search of field and fieldWithin into dst,
// -1 at every cell, up to limit: it returns the cells it set, in order.
func (m *pasteurMap) search(s *State, srcs []Pos, dst []int16, limit int16) []int32 {
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
		if dst[idx] >= limit {
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
	return q
}
