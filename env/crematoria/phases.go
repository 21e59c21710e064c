package crematoria

import "math/bits"

const far = 10000000 // D0 of unreachable cells (SPEC §8.7)

// necromongerPhase moves the landed necromongers, then lands the descending
// ones (SPEC §8.6).
func (g *Game) necromongerPhase() {
	// D1 is the Chebyshev distance to the nearest Pioneer or Furyan on
	// level 1, computed once before any necromonger acts.
	g.srcs = g.srcs[:0]
	for id := range g.Units {
		u := &g.Units[id]
		if (u.Type == Pioneer || u.Type == Furyan) && u.Health > 0 && u.Pos.K == 1 {
			g.srcs = append(g.srcs, u.Pos)
		}
	}
	for _, id := range g.startNec {
		u := &g.Units[id]
		if u.Health <= 0 || u.Turns != 0 {
			continue
		}
		g.cands, g.attack = g.cands[:0], g.attack[:0]
		best := far
		for d := Bottom; d <= LB; d++ {
			n := u.Pos.Add(d)
			if n.I < 0 || n.I >= Rows {
				continue
			}
			c := &g.Cells[n.Index()]
			if c.ID < 0 {
				if len(g.srcs) == 0 {
					continue
				}
				v := far
				for _, s := range g.srcs {
					if x := Cheb(n, s); x < v {
						v = x
					}
				}
				if v < best {
					best, g.cands = v, g.cands[:0]
				}
				if v == best {
					g.cands = append(g.cands, d)
				}
				continue
			}
			if t := g.Units[c.ID].Type; t == Pioneer || t == Furyan {
				g.attack = append(g.attack, d)
			}
		}
		dir := None
		switch {
		case len(g.attack) > 0:
			dir = g.attack[g.rng.Int(0, len(g.attack)-1)]
		case len(g.cands) > 0:
			dir = g.cands[g.rng.Int(0, len(g.cands)-1)]
		default:
			for _, d := range [3]Dir{BR, Right, RT} {
				n := u.Pos.Add(d)
				if n.I >= 0 && n.I < Rows && g.Cells[n.Index()].ID < 0 {
					g.cands = append(g.cands, d)
				}
			}
			if len(g.cands) > 0 {
				dir = g.cands[g.rng.Int(0, len(g.cands)-1)]
			}
		}
		g.move(id, dir)
		g.Moves = append(g.Moves, Move{ID: id, Dir: dir})
	}
	for _, id := range g.startNec {
		u := &g.Units[id]
		if u.Turns <= 0 {
			continue
		}
		u.Turns--
		if u.Turns == 0 {
			c := &g.Cells[u.Pos.Index()]
			if c.ID >= 0 {
				g.kill(int(c.ID), -1)
			}
			c.ID = int16(id)
			g.noteCell(u.Pos.Index())
		}
	}
}

// hellhoundPhase moves every hellhound towards the nearest Pioneer or
// Furyan underground (SPEC §8.7).
func (g *Game) hellhoundPhase() {
	g.computeD0()
	for k, id := range g.Hellhounds {
		u := &g.Units[id]
		g.cands = g.cands[:0]
		best := int32(far + 1)
		for d := Bottom; d <= LB; d++ {
			n := u.Pos.Add(d)
			if n.I < 0 || n.I >= Rows || g.Cells[n.Index()].Type == Rock {
				continue
			}
			ok := true
			for _, o := range g.Hellhounds {
				if o != id && Cheb(n, g.Units[o].Pos) < 2 {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			v := g.hd0[k][d]
			if v < best {
				best, g.cands = v, g.cands[:0]
			}
			if v == best {
				g.cands = append(g.cands, d)
			}
		}
		dir := None
		if len(g.cands) > 0 {
			dir = g.cands[g.rng.Int(0, len(g.cands)-1)]
		}
		g.move(id, dir)
		g.Moves = append(g.Moves, Move{ID: id, Dir: dir})
	}
}

// sun burns the two columns that leave the night band (SPEC §8.9).
func (g *Game) sun() {
	t1 := NightStart(g.Round)
	for i := 0; i < Rows; i++ {
		for _, j := range [2]int{t1, t1 + 1} {
			if idx := (Pos{i, j, 1}).Index(); g.Cells[idx].Gem {
				g.Cells[idx].Gem = false
				g.noteCell(idx)
			}
		}
		for _, j := range [2]int{t1, t1 + 1} {
			if id := g.Cells[Pos{i, j, 1}.Index()].ID; id >= 0 {
				g.kill(int(id), -1)
			}
		}
	}
}

// collectDead lists the dead necromonger slots and Pioneers/Furyans.
func (g *Game) collectDead() {
	g.deadNec, g.deadOther = g.deadNec[:0], g.deadOther[:0]
	for id := range g.Units {
		u := &g.Units[id]
		if u.Health != 0 {
			continue
		}
		if u.Type == Necromonger {
			g.deadNec = append(g.deadNec, id)
		} else {
			g.deadOther = append(g.deadOther, id)
		}
	}
}

// newNightCells appends the level-1 Outside cells of the two columns that
// enter the night band, row by row; with noGem, only those without a gem.
func (g *Game) newNightCells(dst []int, noGem bool) []int {
	n1 := (NightStart(g.Round) + 40) % Cols
	for i := 0; i < Rows; i++ {
		for _, j := range [2]int{n1, n1 + 1} {
			idx := Pos{i, j, 1}.Index()
			c := &g.Cells[idx]
			if c.Type == Outside && !(noGem && c.Gem) {
				dst = append(dst, idx)
			}
		}
	}
	return dst
}

// createGem may put a gem in the new-night columns (SPEC §8.11).
func (g *Game) createGem() {
	if g.rng.Int(1, InvProbGem) != 1 {
		return
	}
	g.free = g.newNightCells(g.free[:0], false)
	if len(g.free) > 0 {
		idx := g.free[g.rng.Int(0, len(g.free)-1)]
		g.Cells[idx].Gem = true
		g.noteCell(idx)
	}
}

// necromongerArrival may send a necromonger down (SPEC §8.12).
func (g *Game) necromongerArrival() {
	if len(g.deadNec) == 0 || len(g.startNec) >= g.cfg.MaxNecros {
		return
	}
	if g.rng.Int(1, InvProbNecro) != 1 {
		return
	}
	g.free = g.newNightCells(g.free[:0], true)
	if len(g.free) == 0 {
		return
	}
	u := &g.Units[g.deadNec[g.rng.Int(0, len(g.deadNec)-1)]]
	u.Health, u.Turns = NecromongerHealth, g.cfg.TurnsToLand
	u.Pos = PosOf(g.free[g.rng.Int(0, len(g.free)-1)])
}

// respawn puts dead Pioneers and Furyans back on free caves (SPEC §8.13).
func (g *Game) respawn() error {
	// X and the occupied cells as row bitboards: V's order is row-major.
	var excl, occ, free rowBits
	for id := range g.Units {
		u := &g.Units[id]
		if u.Pos.K != 0 || u.Pos.I < 0 || int(g.Cells[u.Pos.Index()].ID) != id {
			continue // not standing on level 0 (dead, outside, not arrived)
		}
		occ.set(u.Pos.I, u.Pos.J)
		r := 1
		if u.Type == Hellhound {
			r = 3
		}
		excl.square(u.Pos, r)
	}
	// V: empty Caves outside X, with the count of V before each row.
	var before [Rows]int
	m := 0
	for i := range Rows {
		before[i] = m
		for w := range 2 {
			free[i][w] = g.caveRows[i][w] &^ occ[i][w] &^ excl[i][w]
			m += bits.OnesCount64(free[i][w])
		}
	}
	// α = P(m) is drawn in full every round (SPEC §8.13), but only its
	// first entries are read: draw those, skip the rest in O(log m).
	n := len(g.deadOther)
	if n == 0 {
		g.rng.SkipPerm(m)
		return nil
	}
	alpha := &g.alpha
	alpha.Start(&g.rng, m)
	cells := g.perm[:0]
	for i := 0; i < n; i++ {
		idx := -1
		for idx < 0 {
			a, ok := alpha.Next()
			if !ok {
				alpha.Drop()
				return ErrNoRespawnCell
			}
			if c := free.selectRowMajor(a, &before); !excl.has(c) {
				idx = c
			}
		}
		cells = append(cells, idx)
		excl.square(PosOf(idx), 1)
	}
	alpha.Finish()
	g.perm = cells
	if cap(g.perm2) < n {
		g.perm2 = make([]int, n)
	}
	beta := g.rng.PermInto(g.perm2[:n])
	for i, idx := range cells {
		u := &g.Units[g.deadOther[beta[i]]]
		u.Health = u.Type.MaxHealth()
		u.Pos = PosOf(idx)
		c := &g.Cells[idx]
		c.ID = int16(u.ID)
		g.noteCell(idx)
		if u.Type == Pioneer {
			g.setOwner(c, u.Player)
		}
	}
	return nil
}

// setOwner gives cave c to group p and keeps the cell counts up to date.
func (g *Game) setOwner(c *Cell, p int) {
	if c.Owner >= 0 {
		g.NbCells[c.Owner]--
	}
	c.Owner = int8(p)
	g.NbCells[p]++
}

// rowBits is a set of level-0 cells as row bitboards: row i's columns
// 0..63 are the bits of [i][0], columns 64..79 the low bits of [i][1].
type rowBits [Rows][2]uint64

func (x *rowBits) set(i, j int) { x[i][j>>6] |= 1 << (j & 63) }

// has reports whether the level-0 cell of index idx (i*Cols+j) is in x.
func (x *rowBits) has(idx int) bool {
	i, j := idx/Cols, idx%Cols
	return x[i][j>>6]>>(j&63)&1 != 0
}

// square adds every cell within Chebyshev distance r of p (rows clipped,
// columns wrapping).
func (x *rowBits) square(p Pos, r int) {
	a, b := p.J-r, p.J+r
	var lo, hi uint64
	switch {
	case a < 0:
		lo, hi = colSpan(0, b)
		l2, h2 := colSpan(a+Cols, Cols-1)
		lo, hi = lo|l2, hi|h2
	case b >= Cols:
		lo, hi = colSpan(a, Cols-1)
		l2, h2 := colSpan(0, b-Cols)
		lo, hi = lo|l2, hi|h2
	default:
		lo, hi = colSpan(a, b)
	}
	for i := max(p.I-r, 0); i <= min(p.I+r, Rows-1); i++ {
		x[i][0] |= lo
		x[i][1] |= hi
	}
}

// colSpan is the row mask of columns a..b (0 <= a <= b < Cols).
func colSpan(a, b int) (lo, hi uint64) {
	l1, h1 := colsBelow(b + 1)
	l0, h0 := colsBelow(a)
	return l1 &^ l0, h1 &^ h0
}

// colsBelow is the row mask of columns 0..n-1.
func colsBelow(n int) (lo, hi uint64) {
	if n >= 64 {
		return ^uint64(0), 1<<(n-64) - 1
	}
	return 1<<n - 1, 0
}

// selectRowMajor returns the index of the a-th cell of x in row-major
// order (a from 0); before[i] is the number of cells of x in rows < i.
func (x *rowBits) selectRowMajor(a int, before *[Rows]int) int {
	i := Rows - 1
	for i > 0 && before[i] > a {
		i--
	}
	k := a - before[i]
	col := 0
	w := x[i][0]
	if c := bits.OnesCount64(w); k >= c {
		k -= c
		w, col = x[i][1], 64
	}
	for ; k > 0; k-- {
		w &= w - 1
	}
	return i*Cols + col + bits.TrailingZeros64(w)
}

// heal gives every living unit HealthRecovery points (SPEC §8.14).
func (g *Game) heal() {
	for id := range g.Units {
		u := &g.Units[id]
		if u.Health > 0 {
			u.Health += HealthRecovery
			if mx := u.Type.MaxHealth(); u.Health > mx {
				u.Health = mx
			}
		}
	}
}
