package dominator

import "fmt"

// board is the grid a generator works on (SPEC §4).
type board struct {
	rows, cols int
	g          []Cell
	rng        *Rand
	sum        []int32 // prefix sums of walls, (rows+1) x (cols+1)
}

func (b *board) in(i, j int) bool         { return i >= 0 && i < b.rows && j >= 0 && j < b.cols }
func (b *board) wall(i, j int) bool       { return b.g[i*b.cols+j].Type == Wall }
func (b *board) set(i, j int, t CellType) { b.g[i*b.cols+j].Type = t }

// okFree reports whether (i, j) is on the board and not a wall.
func (b *board) okFree(i, j int) bool { return b.in(i, j) && !b.wall(i, j) }

// initial empties the board and walls its border (SPEC §4).
func (b *board) initial() {
	for idx := range b.g {
		b.g[idx] = Cell{Type: Empty, Owner: -1, ID: -1}
	}
	for i := 0; i < b.rows; i++ {
		b.set(i, 0, Wall)
		b.set(i, b.cols-1, Wall)
	}
	for j := 0; j < b.cols; j++ {
		b.set(0, j, Wall)
		b.set(b.rows-1, j, Wall)
	}
}

// generateBoard runs the configuration's generator on the engine's
// generator r and writes the board into grid.
func generateBoard(r *Rand, c *Config, grid []Cell) error {
	b := &board{rows: c.Rows, cols: c.Cols, g: grid, rng: r}
	switch c.Board {
	case Generator1:
		return b.generator1(c.Params)
	case Generator2:
		return b.generator2()
	case Generator3:
		return b.generator3()
	}
	return fmt.Errorf("%w: unknown board source %q", ErrConfig, c.Board)
}

// freeAround reports whether none of the 9 cells around (i, j) is a wall.
func (b *board) freeAround(i, j int) bool {
	for x := -1; x <= 1; x++ {
		for y := -1; y <= 1; y++ {
			if b.wall(i+x, j+y) {
				return false
			}
		}
	}
	return true
}

// generator1 scatters isolated walls (SPEC §4.1).
func (b *board) generator1(params []int) error {
	q := params[0]
	if len(params) == 2 {
		q = b.rng.Int(params[0], params[1])
	}
	b.initial()
	fails := 0
	for q > 0 {
		i := b.rng.Int(2, b.rows-3)
		j := b.rng.Int(2, b.cols-3)
		if b.freeAround(i, j) {
			b.set(i, j, Wall)
			q--
			continue
		}
		// The course program retries forever; stop when no position is
		// left (the check is exact, and rare).
		if fails++; fails%100000 == 0 && !b.anyFreeAround() {
			return fmt.Errorf("%w: GENERATOR1 cannot place %d more walls", ErrNoProgress, q)
		}
	}
	return nil
}

func (b *board) anyFreeAround() bool {
	for i := 2; i <= b.rows-3; i++ {
		for j := 2; j <= b.cols-3; j++ {
			if b.freeAround(i, j) {
				return true
			}
		}
	}
	return false
}

// maxAttempts bounds the GENERATOR2 attempts: the course program retries
// forever; no seed is known to need even a second attempt (SPEC §15.4).
const maxAttempts = 10000

// generator2 draws random wall snakes until the board is connected (SPEC
// §4.2).
func (b *board) generator2() error {
	b.sum = make([]int32, (b.rows+1)*(b.cols+1))
	var cands []Pos
	var snake []Pos
	for attempt := 0; attempt < maxAttempts; attempt++ {
		b.initial()
		for {
			cands = b.candidates(cands[:0])
			if len(cands) == 0 {
				break
			}
			p := cands[b.rng.Int(0, len(cands)-1)]
			snake = append(snake[:0], p)
			b.set(p.I, p.J, Wall)
			d := Dir(2 * b.rng.Int(0, 4))
			for range 15 {
				var v [3]Dir
				n := 0
				for _, e := range [3]Dir{d, left(d), right(d)} {
					if b.room(p, e) {
						v[n] = e
						n++
					}
				}
				if n == 0 {
					break
				}
				d = v[b.rng.Int(0, n-1)]
				p = p.Add(d)
				snake = append(snake, p)
				b.set(p.I, p.J, Wall)
			}
			b.prune(snake)
		}
		b.diagonalFix()
		if b.connected() {
			return nil
		}
	}
	return fmt.Errorf("%w: GENERATOR2 made %d disconnected boards", ErrNoProgress, maxAttempts)
}

// left and right are the quarter turns L(d) and Rt(d) of SPEC §4.2; for
// None they give Right and Left.
func left(d Dir) Dir  { return (d + 2) % 8 }
func right(d Dir) Dir { return (d + 6) % 8 }

// candidates lists, row-major, the snake heads of SPEC §4.2 step 2.1: no
// wall in the 9 x 9 square around them.
func (b *board) candidates(out []Pos) []Pos {
	w := b.cols + 1
	for i := 0; i < b.rows; i++ {
		for j := 0; j < b.cols; j++ {
			v := int32(0)
			if b.wall(i, j) {
				v = 1
			}
			b.sum[(i+1)*w+j+1] = b.sum[i*w+j+1] + b.sum[(i+1)*w+j] - b.sum[i*w+j] + v
		}
	}
	for i := 4; i <= b.rows-5; i++ {
		for j := 4; j <= b.cols-5; j++ {
			i0, i1, j0, j1 := i-4, i+5, j-4, j+5
			if b.sum[i1*w+j1]-b.sum[i0*w+j1]-b.sum[i1*w+j0]+b.sum[i0*w+j0] == 0 {
				out = append(out, Pos{i, j})
			}
		}
	}
	return out
}

// room is the room test of SPEC §4.2 for a snake at p going in direction e.
func (b *board) room(p Pos, e Dir) bool {
	c := p.Add(e)
	for _, f := range [3]Dir{e, left(e), right(e)} {
		q := c
		for range 5 {
			if !b.okFree(q.I, q.J) {
				return false
			}
			q = q.Add(f)
		}
	}
	ce := c.Add(e)
	r, l := ce.Add(right(e)), ce.Add(left(e))
	return b.okFree(r.I, r.J) && b.okFree(l.I, l.J)
}

// prune empties the cells of a snake that come within 3 (Chebyshev) of a
// wall that is not part of it (SPEC §4.2 step 2.6).
func (b *board) prune(snake []Pos) {
	inSnake := func(i, j int) bool {
		for _, s := range snake {
			if s.I == i && s.J == j {
				return true
			}
		}
		return false
	}
	for _, q := range snake {
		clash := false
		for x := -3; x <= 3 && !clash; x++ {
			for y := -3; y <= 3; y++ {
				i, j := q.I+x, q.J+y
				if b.in(i, j) && b.wall(i, j) && !inSnake(i, j) {
					clash = true
					break
				}
			}
		}
		if clash {
			b.set(q.I, q.J, Empty)
		}
	}
}

// diagonalFix closes the diagonal gaps between walls (SPEC §4.2 step 3).
func (b *board) diagonalFix() {
	for i := 1; i <= b.rows-4; i++ {
		for j := 1; j <= b.cols-4; j++ {
			i2, j2 := i+1, j+1
			if b.wall(i, j) && !b.wall(i, j2) && !b.wall(i2, j) && b.wall(i2, j2) {
				if b.rng.Int(0, 1) == 1 {
					b.set(i, j2, Wall)
				} else {
					b.set(i2, j, Wall)
				}
			}
			if !b.wall(i, j) && b.wall(i, j2) && b.wall(i2, j) && !b.wall(i2, j2) {
				if b.rng.Int(0, 1) == 1 {
					b.set(i, j, Wall)
				} else {
					b.set(i2, j2, Wall)
				}
			}
		}
	}
}

// connected reports whether every non-wall cell is reached from (1, 1)
// through orthogonal steps (SPEC §4.2 step 4).
func (b *board) connected() bool {
	seen := make([]bool, len(b.g))
	var stack []int
	if !b.wall(1, 1) {
		seen[b.cols+1] = true
		stack = append(stack, b.cols+1)
	}
	for len(stack) > 0 {
		idx := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i, j := idx/b.cols, idx%b.cols
		for _, d := range [4]Dir{Bottom, Right, Top, Left} {
			q := Pos{i, j}.Add(d)
			if !b.in(q.I, q.J) {
				continue
			}
			k := q.I*b.cols + q.J
			if !seen[k] && b.g[k].Type != Wall {
				seen[k] = true
				stack = append(stack, k)
			}
		}
	}
	for idx := range b.g {
		if !seen[idx] && b.g[idx].Type != Wall {
			return false
		}
	}
	return true
}

// generator3 builds a maze of 5 x 5 rooms (SPEC §4.3).
func (b *board) generator3() error {
	b.initial()
	for i := 6; i < b.rows; i += 6 {
		for j := 1; j <= b.cols-1; j++ {
			b.set(i, j, Wall)
		}
	}
	for j := 6; j < b.cols; j += 6 {
		for i := 1; i <= b.rows-1; i++ {
			b.set(i, j, Wall)
		}
	}
	rr, cc := b.rows/6, b.cols/6
	type door struct {
		i, j     int
		vertical bool
	}
	var doors []door
	for i := 0; i < rr; i++ {
		for j := 0; j < cc-1; j++ {
			doors = append(doors, door{i, j, false})
		}
	}
	for i := 0; i < rr-1; i++ {
		for j := 0; j < cc; j++ {
			doors = append(doors, door{i, j, true})
		}
	}
	parent := make([]int, rr*cc)
	for x := range parent {
		parent[x] = x
	}
	var find func(x int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	open := func(d door) {
		if d.vertical {
			for j := 6*d.j + 1; j <= 6*d.j+5; j++ {
				b.set(6*d.i+6, j, Empty)
			}
		} else {
			for i := 6*d.i + 1; i <= 6*d.i+5; i++ {
				b.set(i, 6*d.j+6, Empty)
			}
		}
	}
	var rest []door
	for _, k := range b.rng.FullPerm(len(doors)) {
		d := doors[k]
		x := d.i*cc + d.j
		y := x + 1
		if d.vertical {
			y = x + cc
		}
		if rx, ry := find(x), find(y); rx != ry {
			parent[rx] = ry
			open(d)
		} else {
			rest = append(rest, d)
		}
	}
	for k := 0; k < rr+cc; k++ {
		if k >= len(rest) {
			return fmt.Errorf("%w: GENERATOR3 has %d extra doors, needs %d", ErrAbort, len(rest), rr+cc)
		}
		d := rest[k]
		w := func(i, j int) bool { return b.wall(i, j) }
		var ok1, ok2 bool
		if d.vertical {
			j1, j2, ii := 6*d.j, 6*d.j+6, 6*d.i+6
			ok1 = (j1 > 0 && w(ii, j1-1)) || w(ii-1, j1) || w(ii+1, j1)
			ok2 = (j2+1 < b.cols && w(ii, j2+1)) || w(ii-1, j2) || w(ii+1, j2)
		} else {
			i1, i2, jj := 6*d.i, 6*d.i+6, 6*d.j+6
			ok1 = (i1 > 0 && w(i1-1, jj)) || w(i1, jj-1) || w(i1, jj+1)
			ok2 = (i2+1 < b.rows && w(i2+1, jj)) || w(i2, jj-1) || w(i2, jj+1)
		}
		if ok1 && ok2 {
			open(d)
		}
	}
	return nil
}
