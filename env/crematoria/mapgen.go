package crematoria

import "errors"

// Map generation (SPEC §4). Every draw uses the board generator.

const (
	minCaveCells  = 1200
	maxCaveCells  = 1500
	minElevDist   = 10
	maxPathSteps  = 1000
	maxMapRetries = 100000
)

var errBadGrid = errors.New("bad grid")

// errNoGrid reports a configuration for which no acceptable grid was found.
var errNoGrid = errors.New("map generator found no acceptable grid")

type pos2 struct{ i, j int }

func cheb2(a, b pos2) int { return Cheb(Pos{a.i, a.j, 0}, Pos{b.i, b.j, 0}) }

// generateMap returns the level-0 map as cell types (Rock, Cave, Elevator),
// row-major, following SPEC §4.1-4.2.
func generateMap(rng *Rand, nbElevators int) ([]CellType, error) {
	grid := make([]CellType, LevelCells)
	for tries := 0; tries < maxMapRetries; tries++ {
		if err := mapAttempt(rng, nbElevators, grid); err != nil {
			continue
		}
		caves := 0
		for _, t := range grid {
			if t == Cave {
				caves++
			}
		}
		if caves >= minCaveCells && caves <= maxCaveCells {
			return grid, nil
		}
	}
	return nil, errNoGrid
}

func mapAttempt(rng *Rand, n int, m []CellType) error {
	for i := range m {
		m[i] = Rock
	}
	// (a) Elevator sites.
	var cand []pos2
	for i := 2; i <= 37; i++ {
		for j := 0; j < Cols; j++ {
			cand = append(cand, pos2{i, j})
		}
	}
	perm := rng.Perm(len(cand))
	sites := make([]pos2, 0, n)
	for a := 0; a < len(perm) && len(sites) < n; a++ {
		c := cand[perm[a]]
		ok := true
		for _, e := range sites {
			if Manh(Pos{c.i, c.j, 0}, Pos{e.i, e.j, 0}) < minElevDist {
				ok = false
				break
			}
		}
		if ok {
			sites = append(sites, c)
		}
	}
	if len(sites) < n {
		return errBadGrid
	}
	// (b) Maximum spanning tree, digging a path for each joining pair.
	w := make([]int, n*n)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			w[a*n+b] = cheb2(sites[a], sites[b])
		}
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = i
	}
	for comps := n; comps > 1; {
		ba, bb, best := -1, -1, 0
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if x := w[a*n+b]; x > best {
					ba, bb, best = a, b, x
				}
			}
		}
		if ba < 0 {
			return errBadGrid
		}
		w[ba*n+bb] = 0
		if ca, cb := comp[ba], comp[bb]; ca != cb {
			for i := range comp {
				if comp[i] == cb {
					comp[i] = ca
				}
			}
			comps--
			if !digPath(rng, m, sites[ba], sites[bb]) {
				return errBadGrid
			}
		}
	}
	// (d) Elevator blocks.
	for _, e := range sites {
		for d := Bottom; d <= LB; d++ {
			p := Pos{e.i, e.j, 0}.Add(d)
			m[p.I*Cols+p.J] = Cave
		}
		m[e.i*Cols+e.j] = Elevator
	}
	return nil
}

// digPath digs a random path from s to t (SPEC §4.2c).
func digPath(rng *Rand, m []CellType, s, t pos2) bool {
	m[s.i*Cols+s.j] = Cave
	c := s
	var cands [8]pos2
	var weights [8]int
	for steps := 0; ; {
		if c == t {
			return true
		}
		steps++
		if steps == maxPathSteps {
			return false
		}
		mx := 0
		for _, d := range [4]Dir{Bottom, Right, Top, Left} {
			p := Pos{c.i, c.j, 0}.Add(d)
			if p.I >= 1 && p.I <= 38 {
				if x := cheb2(pos2{p.I, p.J}, t); x > mx {
					mx = x
				}
			}
		}
		nc, total := 0, 0
		for d := Bottom; d <= LB; d++ {
			p := Pos{c.i, c.j, 0}.Add(d)
			if p.I < 1 || p.I > 38 {
				continue
			}
			q := pos2{p.I, p.J}
			cands[nc] = q
			weights[nc] = mx - cheb2(q, t) + 1
			total += weights[nc]
			nc++
		}
		if total <= 0 {
			return false
		}
		x := rng.Int(1, total)
		run := 0
		for k := 0; k < nc; k++ {
			run += weights[k]
			if run >= x {
				c = cands[k]
				break
			}
		}
		m[c.i*Cols+c.j] = Cave
	}
}
