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
		g.Moves = append(g.Moves, Move{id, dir})
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
		}
	}
}

// computeD0 computes, for every hellhound and direction, D0 of the
// neighbouring cell (SPEC §8.7): the 8-connected distance through non-Rock
// level-0 cells to the nearest Pioneer or Furyan on level 0, or far. Each
// hellhound acts from its start position, so only these cells matter.
//
// Rather than a search from every unit over the whole map, it runs one
// bit-parallel breadth-first search from the candidate cells (a bit per
// hellhound and direction, 64 at a time) and drops a bit as soon as it
// reaches a unit: the search covers only the balls around the hellhounds.
func (g *Game) computeD0() {
	if g.reached == nil {
		g.reached = make([]uint64, LevelCells)
		g.nextMask = make([]uint64, LevelCells)
		g.nextAdd = make([]uint64, LevelCells)
		g.buildAdjacency()
	}
	nh := len(g.Hellhounds)
	if cap(g.hd0) < nh {
		g.hd0 = make([][8]int32, nh)
	}
	g.hd0 = g.hd0[:nh]
	for k0 := 0; k0 < nh; k0 += 8 {
		g.d0Group(k0, min(nh, k0+8))
	}
}

func (g *Game) isSource(idx int32) bool {
	id := g.Cells[idx].ID
	if id < 0 {
		return false
	}
	t := g.Units[id].Type
	return t == Pioneer || t == Furyan
}

// d0Group fills hd0 for hellhounds k0..k1-1 (at most 8).
func (g *Game) d0Group(k0, k1 int) {
	reached, next := g.reached, g.nextMask
	visited := g.visited[:0]
	var pending uint64
	front := g.front[:0]
	for k := k0; k < k1; k++ {
		p := g.Units[g.Hellhounds[k]].Pos
		for d := Bottom; d <= LB; d++ {
			g.hd0[k][d] = far
			n := p.Add(d)
			if n.I < 0 || n.I >= Rows || g.Cells[n.Index()].Type == Rock {
				continue
			}
			b := uint64(1) << ((k-k0)*8 + int(d))
			idx := int32(n.I*Cols + n.J)
			if g.isSource(idx) {
				g.hd0[k][d] = 0
				continue
			}
			pending |= b
			if reached[idx] == 0 {
				front = append(front, idx)
				visited = append(visited, idx)
			}
			reached[idx] |= b
		}
	}
	// The masks of the frontier cells are the bits that reached them in the
	// last layer; they live in next[] between layers.
	for _, c := range front {
		next[c] = reached[c]
	}
	touched := g.touched[:0]
	for layer := int32(1); pending != 0 && len(front) > 0; layer++ {
		touched = touched[:0]
		for _, v := range front {
			m := next[v] & pending
			next[v] = 0
			if m == 0 {
				continue
			}
			for _, n := range g.adj[g.adjStart[v]:g.adjStart[v+1]] {
				nb := m &^ reached[n]
				if nb == 0 {
					continue
				}
				if reached[n] == 0 {
					visited = append(visited, n)
				}
				reached[n] |= nb
				if g.nextAdd[n] == 0 {
					touched = append(touched, n)
				}
				g.nextAdd[n] |= nb
			}
		}
		front = front[:0]
		for _, n := range touched {
			m := g.nextAdd[n]
			g.nextAdd[n] = 0
			if g.isSource(n) {
				found := m & pending
				pending &^= found
				for found != 0 {
					bit := bits.TrailingZeros64(found)
					found &= found - 1
					g.hd0[k0+bit/8][bit%8] = layer
				}
				continue
			}
			next[n] = m
			front = append(front, n)
		}
	}
	for _, c := range front {
		next[c] = 0
	}
	for _, c := range visited {
		reached[c] = 0
	}
	g.front, g.touched, g.visited = front, touched, visited
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
		g.Moves = append(g.Moves, Move{id, dir})
	}
}

// sun burns the two columns that leave the night band (SPEC §8.9).
func (g *Game) sun() {
	t1 := NightStart(g.Round)
	for i := 0; i < Rows; i++ {
		for _, j := range [2]int{t1, t1 + 1} {
			g.Cells[Pos{i, j, 1}.Index()].Gem = false
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
		g.Cells[g.free[g.rng.Int(0, len(g.free)-1)]].Gem = true
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
	excl := g.excl
	clear(excl)
	for id := range g.Units {
		u := &g.Units[id]
		if u.Pos.K != 0 || u.Pos.I < 0 || int(g.Cells[u.Pos.Index()].ID) != id {
			continue // not standing on level 0 (dead, outside, not arrived)
		}
		r := 1
		if u.Type == Hellhound {
			r = 3
		}
		markSquare(excl, u.Pos, r)
	}
	g.free = g.free[:0]
	for _, idx := range g.caves {
		if g.Cells[idx].ID < 0 && !excl[idx] {
			g.free = append(g.free, int(idx))
		}
	}
	m, n := len(g.free), len(g.deadOther)
	if cap(g.perm) < m {
		g.perm = make([]int, m)
	}
	alpha := g.rng.PermInto(g.perm[:m])
	if cap(g.perm2) < n {
		g.perm2 = make([]int, n)
	}
	beta := g.rng.PermInto(g.perm2[:n])
	j := -1
	for i := 0; i < n; i++ {
		for {
			j++
			if j >= m {
				return ErrNoRespawnCell
			}
			if !excl[g.free[alpha[j]]] {
				break
			}
		}
		idx := g.free[alpha[j]]
		u := &g.Units[g.deadOther[beta[i]]]
		u.Health = u.Type.MaxHealth()
		u.Pos = PosOf(idx)
		c := &g.Cells[idx]
		c.ID = int16(u.ID)
		if u.Type == Pioneer {
			c.Owner = int8(u.Player)
		}
		markSquare(excl, u.Pos, 1)
	}
	return nil
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

// buildAdjacency lists, for every non-Rock level-0 cell, its non-Rock
// neighbours (the map never changes during a game).
func (g *Game) buildAdjacency() {
	g.adjStart = make([]int32, LevelCells+1)
	g.adj = g.adj[:0]
	for idx := 0; idx < LevelCells; idx++ {
		g.adjStart[idx] = int32(len(g.adj))
		if g.Cells[idx].Type == Rock {
			continue
		}
		p := PosOf(idx)
		for d := Bottom; d <= LB; d++ {
			n := p.Add(d)
			if n.I >= 0 && n.I < Rows && g.Cells[n.Index()].Type != Rock {
				g.adj = append(g.adj, int32(n.Index()))
			}
		}
	}
	g.adjStart[LevelCells] = int32(len(g.adj))
}
