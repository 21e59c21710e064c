package moria

// The GENERATOR map generator (SPEC §4), draw for draw. It works on a
// character matrix: 'R' rock, 'C' cave, 'O' outside, 'G' granite, 'T' cave
// with a treasure.

// Bounds of the generator (SPEC §4: rows = cols = 60).
const (
	gLo    = 2        // first row/column of the inner border
	gHi    = Rows - 3 // last row/column of the inner border (57)
	gFree0 = 3        // free-set bounds (SPEC §4.1 step 5)
	gFree1 = Rows - 4 // 56

	minCaves = 800
	maxCaves = 1100
	// maxPathsTries bounds the attempts of SPEC §4.2 before a side or a
	// tunnel fails.
	maxPathsTries = 11
)

// Sides of a path's starting point (SPEC §4.3).
const (
	sideTop = iota
	sideBottom
	sideLeft
	sideRight
)

// mapGen holds the generator's matrix and working sets.
type mapGen struct {
	rng  *Rand
	m    [NumCells]byte
	free [NumCells]bool // the free set F (SPEC §4.1 step 5), row-major by index
	t    int            // treasures placed

	// Restarts counts the regenerations: failed paths() calls and
	// rejected cave counts (the reference's stderr messages).
	badGrids, recounts int

	seen  []bool
	trail []int
	mark  []bool
	q, nq []int
}

// GenStats reports how the generator reached its map: the number of failed
// paths() calls ("Bad grid. Trying again...") and of rejected cave counts
// ("Wrong number of cave cells. Generating another grid...").
type GenStats struct {
	BadGrids, Regenerations int
}

// generateMap returns the GENERATOR map of the board generator's stream.
func generateMap(rng *Rand) ([NumCells]byte, GenStats) {
	g := &mapGen{rng: rng, seen: make([]bool, NumCells), mark: make([]bool, NumCells)}
	for !g.grid() {
		g.recounts++
	}
	return g.m, GenStats{BadGrids: g.badGrids, Regenerations: g.recounts}
}

func at(i, j int) int { return i*Cols + j }

// grid is one attempt of SPEC §4.1; false means start again.
func (g *mapGen) grid() bool {
	for idx := range g.m {
		i, j := idx/Cols, idx%Cols
		if i < gLo || i > gHi || j < gLo || j > gHi {
			g.m[idx] = 'O'
		} else {
			g.m[idx] = 'R'
		}
	}
	for !g.paths() {
		g.badGrids++
	}
	// Widen: every cave of the snapshot grows down and right.
	snap := g.m
	for i := gLo; i <= gHi; i++ {
		for j := gLo; j <= gHi; j++ {
			if snap[at(i, j)] != 'C' {
				continue
			}
			for a := i; a <= min(i+1, gHi); a++ {
				for b := j; b <= min(j+1, gHi); b++ {
					g.m[at(a, b)] = 'C'
				}
			}
		}
	}
	caves := 0
	for i := gLo; i <= gHi; i++ {
		for j := gLo; j <= gHi; j++ {
			if g.m[at(i, j)] == 'C' {
				caves++
			}
		}
	}
	if caves < minCaves || caves > maxCaves {
		return false
	}
	// The free set: rock cells of 3..56 not equal or adjacent to a cave.
	for idx := range g.free {
		i, j := idx/Cols, idx%Cols
		g.free[idx] = i >= gFree0 && i <= gFree1 && j >= gFree0 && j <= gFree1 && g.m[idx] == 'R'
	}
	for i := gLo; i <= gHi; i++ {
		for j := gLo; j <= gHi; j++ {
			if g.m[at(i, j)] != 'C' {
				continue
			}
			for a := i - 1; a <= i+1; a++ {
				for b := j - 1; b <= j+1; b++ {
					g.free[at(a, b)] = false
				}
			}
		}
	}
	g.t = 0
	if g.maze() {
		g.maze()
	}
	for k := 0; k < 3; k++ {
		if !g.chess() {
			break
		}
	}
	var v []int
	for idx, f := range g.free {
		if f {
			v = append(v, idx)
		}
	}
	for g.t < IniTreasures {
		if len(v) == 0 {
			return false // "No room for treasures."
		}
		k := g.rng.Int(0, len(v)-1)
		g.m[v[k]] = 'T'
		v[k] = v[len(v)-1]
		v = v[:len(v)-1]
		g.t++
	}
	return true
}

// paths carves the first paths from the four sides, then ten tunnels
// (SPEC §4.2). A failure is not undone.
func (g *mapGen) paths() bool {
	var order [4]int
	g.rng.PermInto(order[:])
	for _, s := range order {
		ok := false
		for a := 0; a < maxPathsTries && !ok; a++ {
			c := g.rng.Int(gFree0, gFree1)
			switch s {
			case 0:
				ok = g.path(gLo, c)
			case 1:
				ok = g.path(gHi, c)
			case 2:
				ok = g.path(c, gLo)
			default:
				ok = g.path(c, gHi)
			}
		}
		if !ok {
			return false
		}
	}
	for k := 0; k < 10; k++ {
		ok := false
		for a := 0; a < maxPathsTries && !ok; a++ {
			ok = g.tunnel()
		}
		if !ok {
			return false
		}
	}
	return true
}

// path is the weighted random walk of SPEC §4.3 from (x, y) on the inner
// border to a cave or outside cell.
func (g *mapGen) path(x, y int) bool {
	var side int
	switch {
	case x == gLo:
		side = sideTop
	case x == gHi:
		side = sideBottom
	case y == gLo:
		side = sideLeft
	case y == gHi:
		side = sideRight
	default:
		return false
	}
	if c := g.m[at(x, y)]; c == 'C' || c == 'O' {
		return true
	}
	g.trail = g.trail[:0]
	defer func() {
		for _, idx := range g.trail {
			g.seen[idx] = false
		}
	}()
	// Neighbours in the order Bottom, Right, Top, Left; the weight of a
	// neighbour is its distance from the starting side, doubled for the
	// (direction, side) pairs the reference doubles.
	nb := [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}
	double := [4]int{sideTop, sideBottom, sideLeft, sideRight}
	for {
		cur := at(x, y)
		if !g.seen[cur] {
			g.seen[cur] = true
			g.trail = append(g.trail, cur)
		}
		var cand [4]int
		var w [4]int
		n, total := 0, 0
		for k, d := range nb {
			a, b := x+d[0], y+d[1]
			if (side == sideTop && a == gLo-1) || (side == sideBottom && a == gHi+1) ||
				(side == sideLeft && b == gLo-1) || (side == sideRight && b == gHi+1) {
				continue
			}
			idx := at(a, b)
			if g.seen[idx] {
				continue
			}
			var wt int
			switch side {
			case sideTop:
				wt = a - gLo
			case sideBottom:
				wt = gHi - a
			case sideLeft:
				wt = b - gLo
			default:
				wt = gHi - b
			}
			if double[k] == side {
				wt *= 2
			}
			cand[n], w[n] = idx, wt
			n++
			total += wt
		}
		if total == 0 {
			return false
		}
		r := g.rng.Int(1, total)
		k, sum := 0, w[0]
		for sum < r {
			k++
			sum += w[k]
		}
		x, y = cand[k]/Cols, cand[k]%Cols
		if c := g.m[cand[k]]; c == 'C' || c == 'O' {
			for _, idx := range g.trail {
				g.m[idx] = 'C'
			}
			return true
		}
	}
}

// tunnel connects the stretch of the inner border farthest from every
// non-rock border cell (SPEC §4.4).
func (g *mapGen) tunnel() bool {
	q := g.q[:0]
	clear(g.mark)
	add := func(i, j int) {
		idx := at(i, j)
		g.mark[idx] = true
		q = append(q, idx)
	}
	for i := gLo; i <= gHi; i++ {
		if g.m[at(i, gLo)] != 'R' {
			add(i, gLo)
		}
		if g.m[at(i, gHi)] != 'R' {
			add(i, gHi)
		}
	}
	for j := gLo + 1; j <= gHi-1; j++ {
		if g.m[at(gLo, j)] != 'R' {
			add(gLo, j)
		}
		if g.m[at(gHi, j)] != 'R' {
			add(gHi, j)
		}
	}
	if len(q) == 0 {
		g.q = q
		return false
	}
	var last []int
	nq := g.nq[:0]
	for len(q) > 0 {
		last = append(last[:0], q...)
		nq = nq[:0]
		visit := func(a, b int) {
			if a < gLo || a > gHi || b < gLo || b > gHi {
				return
			}
			if idx := at(a, b); !g.mark[idx] {
				g.mark[idx] = true
				nq = append(nq, idx)
			}
		}
		for _, idx := range q {
			x, y := idx/Cols, idx%Cols
			if x == gLo || x == gHi {
				visit(x, y-1)
				visit(x, y+1)
			}
			if y == gHi || y == gLo {
				visit(x-1, y)
				visit(x+1, y)
			}
		}
		q, nq = nq, q
	}
	g.q, g.nq = q, nq
	pi := g.rng.Perm(len(last))
	for _, k := range pi {
		if g.path(last[k]/Cols, last[k]%Cols) {
			return true
		}
	}
	return false
}

// space finds the largest admissible all-rock rectangle (SPEC §4.5) and
// removes it, with a margin of one cell, from the free set.
func (g *mapGen) space(minside, maxarea, minarea int) (x1, y1, x2, y2 int, ok bool) {
	var h [Cols]int
	best := 0
	for c := gLo; c <= gHi; c++ {
		for j := gLo; j <= gHi; j++ {
			all := true
			for a := c - 1; a <= c+1 && all; a++ {
				for b := j - 1; b <= j+1; b++ {
					if g.m[at(a, b)] != 'R' {
						all = false
						break
					}
				}
			}
			if all {
				h[j]++
			} else {
				h[j] = 0
			}
		}
		rowBest, keep, kl, kr := 0, -1, 0, 0
		for j := gLo; j <= gHi; j++ {
			l := j - 1
			for l >= gLo && h[l] >= h[j] {
				l--
			}
			if l < gLo {
				l = gLo - 1
			}
			r := j + 1
			for r <= gHi && h[r] >= h[j] {
				r++
			}
			w := r - l - 1
			area := w * h[j]
			if min(w, h[j]) > minside && area <= maxarea && area > rowBest {
				rowBest, keep, kl, kr = area, j, l, r
			}
		}
		if keep >= 0 && rowBest > best {
			best = rowBest
			x2, x1 = c, c-h[keep]+1
			y1, y2 = kl+1, kr-1
		}
	}
	if best < minarea {
		return 0, 0, 0, 0, false
	}
	for i := x1 - 1; i <= x2+1; i++ {
		for j := y1 - 1; j <= y2+1; j++ {
			g.free[at(i, j)] = false
		}
	}
	return x1, y1, x2, y2, true
}

// maze draws concentric granite rings with one door each and treasures
// between them (SPEC §4.6).
func (g *mapGen) maze() bool {
	x1, y1, x2, y2, ok := g.space(9, 500, 100)
	if !ok {
		return false
	}
	var inBand [NumCells]bool
	var band []int
	for x1+2 < x2 && y1+2 < y2 {
		for i := x1; i <= x2; i++ {
			g.m[at(i, y1)], g.m[at(i, y2)] = 'G', 'G'
		}
		for j := y1; j <= y2; j++ {
			g.m[at(x1, j)], g.m[at(x2, j)] = 'G', 'G'
		}
		switch g.rng.Int(0, 3) {
		case 0:
			s := g.rng.Int(x1+1, x2-2)
			g.m[at(s, y1)], g.m[at(s+1, y1)] = 'R', 'R'
		case 2:
			s := g.rng.Int(x1+1, x2-2)
			g.m[at(s, y2)], g.m[at(s+1, y2)] = 'R', 'R'
		case 1:
			s := g.rng.Int(y1+1, y2-2)
			g.m[at(x1, s)], g.m[at(x1, s+1)] = 'R', 'R'
		default:
			s := g.rng.Int(y1+1, y2-2)
			g.m[at(x2, s)], g.m[at(x2, s+1)] = 'R', 'R'
		}
		// The band between this ring and the next, row-major.
		for i := x1 + 1; i < x2; i++ {
			for _, j := range [4]int{y1 + 1, y1 + 2, y2 - 1, y2 - 2} {
				inBand[at(i, j)] = true
			}
		}
		for j := y1 + 1; j < y2; j++ {
			for _, i := range [4]int{x1 + 1, x1 + 2, x2 - 1, x2 - 2} {
				inBand[at(i, j)] = true
			}
		}
		band = band[:0]
		for i := x1; i <= x2; i++ {
			for j := y1; j <= y2; j++ {
				if idx := at(i, j); inBand[idx] {
					band = append(band, idx)
					inBand[idx] = false
				}
			}
		}
		n := g.rng.Int(8, 12)
		if g.t <= IniTreasures-1 {
			for placed := 0; len(band) > 0; {
				k := g.rng.Int(0, len(band)-1)
				g.m[band[k]] = 'T'
				band[k] = band[len(band)-1]
				band = band[:len(band)-1]
				g.t++
				placed++
				if g.t >= IniTreasures || placed == n {
					break
				}
			}
		}
		x1, x2, y1, y2 = x1+3, x2-3, y1+3, y2-3
	}
	return true
}

// chess draws a checkerboard of granite with treasures on the other colour
// (SPEC §4.7).
func (g *mapGen) chess() bool {
	x1, y1, x2, y2, ok := g.space(4, 300, 50)
	if !ok {
		return false
	}
	p := g.rng.Int(0, 1)
	for i := x1; i <= x2; i++ {
		for j := y1; j <= y2; j++ {
			if (i+j)%2 == p && g.rng.Int(0, 4) > 0 {
				g.m[at(i, j)] = 'G'
			}
		}
	}
	if g.t > IniTreasures-1 {
		return true
	}
	for i := x1; i <= x2; i++ {
		for j := y1; j <= y2; j++ {
			if (i+j)%2 != p && g.rng.Int(0, 4) == 0 {
				g.m[at(i, j)] = 'T'
				if g.t++; g.t >= IniTreasures {
					return true
				}
			}
		}
	}
	return true
}
