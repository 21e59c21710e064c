package pandemic

import (
	"errors"
	"fmt"
)

// Map generation, GENERATOR1 (SPEC §4). Every draw is on the board
// generator, in the order of the specification.

// ErrNoCities is returned when a map attempt placed no city at all and a
// wall try needs one (SPEC §14.18: the reference indexes an empty list).
var ErrNoCities = errors.New("map attempt without cities")

// maxMapAttempts bounds the map attempts; the course program retries
// forever. The reference edge cases need up to 2537.
const maxMapAttempts = 1000000

// Characters of the generator's matrix (SPEC §4).
const (
	chWall  = 'W'
	chGrass = '.'
	chCity  = ';'
	chPath  = ','
	chRuin  = 't'
)

// Fixed constants of the generator (SPEC §2.2).
const (
	minCities       = 8
	wallTries       = 100
	maxWalls        = 7
	rectTries       = 100
	wallMinDist2    = 72
	firstWallPoints = 5
)

// genDI, genDJ are the generator directions 0..3 (SPEC §3.1).
var (
	genDI = [4]int{1, 0, -1, 0}
	genDJ = [4]int{0, 1, 0, -1}
)

// mapGen holds one map generation.
type mapGen struct {
	r          *Rand
	rows, cols int
	m          []byte
	cities     [][]Pos
	paths      []PathInfo
	ruins      []Pos // w: never reset between attempts (SPEC §4.1)
	own        []int32
	visited    []uint32 // curve stamps
	stamp      uint32
	curve      []Pos
	queue      []int32
}

// generatedMap is the result of GENERATOR1.
type generatedMap struct {
	types    []CellType
	cities   [][]Pos
	paths    []PathInfo
	attempts int
	ruins    int // |w| at the end (SPEC §4.9)
}

// generateMap runs attempts until one is valid (SPEC §4.1).
func generateMap(r *Rand, rows, cols int) (*generatedMap, error) {
	g := &mapGen{r: r, rows: rows, cols: cols, m: make([]byte, rows*cols),
		own: make([]int32, rows*cols), visited: make([]uint32, rows*cols)}
	for attempt := 1; attempt <= maxMapAttempts; attempt++ {
		ok, err := g.attempt()
		if err != nil {
			return nil, fmt.Errorf("map attempt %d: %w", attempt, err)
		}
		if ok {
			out := &generatedMap{types: make([]CellType, rows*cols), cities: g.cities, paths: g.paths, attempts: attempt, ruins: len(g.ruins)}
			for idx, ch := range g.m {
				switch ch {
				case chGrass:
					out.types[idx] = Grass
				case chCity:
					out.types[idx] = City
				case chPath:
					out.types[idx] = Path
				default:
					out.types[idx] = Wall
				}
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("no valid map in %d attempts", maxMapAttempts)
}

func (g *mapGen) at(i, j int) byte { return g.m[i*g.cols+j] }

// attempt is one attempt (SPEC §4.2); it reports whether the map is valid.
func (g *mapGen) attempt() (bool, error) {
	rows, cols := g.rows, g.cols
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			ch := byte(chGrass)
			if i == 0 || i == rows-1 || j == 0 || j == cols-1 {
				ch = chWall
			}
			g.m[i*cols+j] = ch
		}
	}
	g.cities, g.paths = nil, nil
	g.placeRects(g.r.Int(8, 22), 2, 6, "W;", chCity)
	g.placeRects(g.r.Int(5, 9), 3, 6, "W;,t", chRuin)
	g.placePaths()
	if err := g.placeWalls(); err != nil {
		return false, err
	}
	for idx, ch := range g.m {
		if ch == chRuin {
			g.m[idx] = chWall
		}
	}
	return len(g.cities) >= minCities && g.connected(), nil
}

// rectFree is the rectangle check of SPEC §4.3: the box from 3 cells
// before to 2 cells after the rectangle holds no character of forbidden.
func (g *mapGen) rectFree(i, j, di, dj int, forbidden string) bool {
	for ii := max(0, i-3); ii < min(g.rows, i+di+2); ii++ {
		for jj := max(0, j-3); jj < min(g.cols, j+dj+2); jj++ {
			ch := g.at(ii, jj)
			for k := 0; k < len(forbidden); k++ {
				if ch == forbidden[k] {
					return false
				}
			}
		}
	}
	return true
}

// placeRects places n cities (mark ';') or ruins (mark 't') with sides
// drawn in [lo, hi] (SPEC §4.3).
func (g *mapGen) placeRects(n, lo, hi int, forbidden string, mark byte) {
	for k := 0; k < n; k++ {
		for try := 0; try < rectTries; try++ {
			i := g.r.Int(0, g.rows-1)
			j := g.r.Int(0, g.cols-1)
			di := g.r.Int(lo, hi)
			dj := g.r.Int(lo, hi)
			if !g.rectFree(i, j, di, dj, forbidden) {
				continue
			}
			cells := make([]Pos, 0, di*dj)
			for ii := i; ii < i+di; ii++ {
				for jj := j; jj < j+dj; jj++ {
					g.m[ii*g.cols+jj] = mark
					cells = append(cells, Pos{ii, jj})
				}
			}
			if mark == chCity {
				g.cities = append(g.cities, cells)
			} else {
				g.ruins = append(g.ruins, cells...)
			}
			break
		}
	}
}

// curveTo builds Curve(s, t) into g.curve (SPEC §4.6).
func (g *mapGen) curveTo(s, t Pos) []Pos {
	g.stamp++
	if g.stamp == 0 {
		clear(g.visited)
		g.stamp = 1
	}
	c := g.curve[:0]
	i, j := s.I, s.J
	k := g.r.Int(0, 3)
	for {
		c = append(c, Pos{i, j})
		g.visited[i*g.cols+j] = g.stamp
		d0 := Dist2(Pos{i, j}, t)
		cands := [4]int{k + g.r.Int(-1, 1), k - 1, k, k + 1}
		found := false
		for _, kk := range cands {
			kk = (kk%4 + 4) % 4
			ii, jj := i+genDI[kk], j+genDJ[kk]
			if ii < 0 || ii >= g.rows || jj < 0 || jj >= g.cols || g.visited[ii*g.cols+jj] == g.stamp {
				continue
			}
			if Dist2(Pos{ii, jj}, t) < d0 {
				i, j, k, found = ii, jj, kk, true
				break
			}
		}
		if !found {
			break
		}
	}
	g.curve = c
	return c
}

// placePaths joins random pairs of cities (SPEC §4.4).
func (g *mapGen) placePaths() {
	nc := len(g.cities)
	for idx := range g.own {
		g.own[idx] = -1
	}
	for id, city := range g.cities {
		for _, p := range city {
			g.own[p.I*g.cols+p.J] = int32(id)
		}
	}
	for rep := 0; rep < 3*nc*nc; rep++ {
		a := g.r.Int(0, nc-1)
		b := g.r.Int(0, nc-1)
		if a == b {
			continue
		}
		s := g.cities[a][g.r.Int(0, len(g.cities[a])-1)]
		t := g.cities[b][g.r.Int(0, len(g.cities[b])-1)]
		c := g.curveTo(s, t)
		if c[len(c)-1] != t || !g.pathFree(c, a, b) {
			continue
		}
		var cells []Pos
		for _, p := range c {
			idx := p.I*g.cols + p.J
			if g.m[idx] != chCity {
				g.m[idx] = chPath
				cells = append(cells, p)
			}
		}
		g.paths = append(g.paths, PathInfo{A: a, B: b, Cells: cells})
	}
}

// pathFree is the validity of a path's curve (SPEC §4.4 step 5).
func (g *mapGen) pathFree(c []Pos, a, b int) bool {
	for _, p := range c {
		for ii := max(0, p.I-2); ii <= min(g.rows-1, p.I+2); ii++ {
			for jj := max(0, p.J-2); jj <= min(g.cols-1, p.J+2); jj++ {
				idx := ii*g.cols + jj
				if ch := g.m[idx]; ch == chPath || ch == chRuin {
					return false
				}
				if o := g.own[idx]; o >= 0 && int(o) != a && int(o) != b {
					return false
				}
			}
		}
	}
	return true
}

// placeWalls draws walls between ruins and cities (SPEC §4.5).
func (g *mapGen) placeWalls() error {
	w := g.ruins
	if len(w) == 0 {
		return nil
	}
	nc := len(g.cities)
	var cells []Pos
	count := 0
	for k := 0; k < wallTries && count < maxWalls; k++ {
		p1 := w[g.r.Int(0, len(w)-1)]
		var p2 Pos
		if k%2 == 0 {
			p2 = w[g.r.Int(0, len(w)-1)]
		} else {
			if nc == 0 {
				return ErrNoCities
			}
			city := g.cities[g.r.Int(0, nc-1)]
			p2 = city[g.r.Int(0, len(city)-1)]
		}
		if Dist2(p1, p2) <= wallMinDist2 {
			continue
		}
		c := g.curveTo(p2, p1)
		p := float64(g.r.Int(55, 75)) / 100.0
		l, up := firstWallPoints, false
		cells = cells[:0]
		for _, x := range c {
			if l == 0 {
				up = bernoulli(g.r, p)
				l = g.r.Int(3, 6)
			}
			if up {
				cells = append(cells, x)
			}
			l--
		}
		if !g.wallFree(cells) {
			continue
		}
		for _, x := range cells {
			if idx := x.I*g.cols + x.J; g.m[idx] == chGrass {
				g.m[idx] = chWall
			}
		}
		count++
	}
	return nil
}

// wallFree is the wall check of SPEC §4.5 step 6.
func (g *mapGen) wallFree(cells []Pos) bool {
	for _, p := range cells {
		for ii := max(0, p.I-2); ii <= min(g.rows-1, p.I+2); ii++ {
			for jj := max(0, p.J-2); jj <= min(g.cols-1, p.J+2); jj++ {
				if ch := g.m[ii*g.cols+jj]; ch == chWall || ch == chPath {
					return false
				}
			}
		}
	}
	return true
}

// connected reports whether every non-wall cell is reachable from the
// centre (SPEC §4.7).
func (g *mapGen) connected() bool {
	rows, cols := g.rows, g.cols
	g.stamp++
	if g.stamp == 0 {
		clear(g.visited)
		g.stamp = 1
	}
	start := (rows/2)*cols + cols/2
	g.visited[start] = g.stamp
	q := append(g.queue[:0], int32(start))
	for h := 0; h < len(q); h++ {
		idx := int(q[h])
		i, j := idx/cols, idx%cols
		for d := 0; d < 4; d++ {
			ii, jj := i+genDI[d], j+genDJ[d]
			if ii < 0 || ii >= rows || jj < 0 || jj >= cols {
				continue
			}
			n := ii*cols + jj
			if g.m[n] == chWall || g.visited[n] == g.stamp {
				continue
			}
			g.visited[n] = g.stamp
			q = append(q, int32(n))
		}
	}
	g.queue = q
	for idx, ch := range g.m {
		if ch != chWall && g.visited[idx] != g.stamp {
			return false
		}
	}
	return true
}
