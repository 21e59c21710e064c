package pandemic

import (
	"fmt"
	"slices"
)

// The virus, health and respawn checks of a round against the rules (see
// verify_rules.go).

// emission checks the virus grid (SPEC §8.7 passes 1 and 2): it must be the
// diffusion of the previous grid plus the emission of a set of units that
// may be infected and unmasked; it narrows the statuses of those units.
func (c *ruleChecker) emission() *Divergence {
	g := c.g
	s := &g.State
	copy(c.base, s.Virus)
	var undecided []int
	for id := range s.Units {
		c.emitOn[id], c.emitOff[id] = false, true
		if c.attackKilled[id] || c.mask[id] == maskYes || c.st[id]&stInfected == 0 {
			continue
		}
		if c.mask[id] == maskNo && c.st[id]&^stInfected == 0 {
			c.base[s.Idx(s.Units[id].Pos)] += VirusEmission
			c.emitOn[id], c.emitOff[id] = true, false
			continue
		}
		undecided = append(undecided, id)
	}
	clear(c.influenced)
	// Clusters of undecided emitters whose influences overlap.
	cluster := make([]int, len(undecided))
	for k := range cluster {
		cluster[k] = k
	}
	var find func(int) int
	find = func(x int) int {
		for cluster[x] != x {
			x = cluster[x]
		}
		return x
	}
	for a := range undecided {
		pa := s.Units[undecided[a]].Pos
		for b := a + 1; b < len(undecided); b++ {
			pb := s.Units[undecided[b]].Pos
			if Manhattan(pa, pb) <= 2 {
				cluster[find(b)] = find(a)
			}
		}
	}
	for k, id := range undecided {
		c.forInfluence(s.Units[id].Pos, func(idx int) { c.influenced[idx] = int32(find(k) + 1) })
	}
	// Only the cells holding virus and their compatible neighbours can hold
	// virus after the diffusion; every other cell must be clean.
	c.stamp++
	if c.stamp == 0 {
		clear(c.mark)
		c.stamp = 1
	}
	cols := int32(g.Cols)
	offs := [4]int32{cols, -cols, 1, -1}
	for idx, v := range c.base {
		if v == 0 {
			continue
		}
		c.mark[idx] = c.stamp
		bits := g.compat[idx]
		for k, off := range offs {
			if bits&(1<<k) != 0 {
				c.mark[int32(idx)+off] = c.stamp
			}
		}
	}
	next := &c.tr.States[c.r+1]
	for idx := range c.base {
		if c.influenced[idx] != 0 {
			continue
		}
		want := 0
		if c.mark[idx] == c.stamp {
			want = g.diffused(c.base, idx)
		}
		if want != int(c.traceVirus[idx]) {
			return &Divergence{Round: c.r + 1, Unit: -1, Field: fmt.Sprintf("grid (%d, %d)", idx/g.Cols, idx%g.Cols),
				Want: fmt.Sprintf("%q", CellChar(g.Types[idx], want)), Got: fmt.Sprintf("%q", next.Grid[idx]), Line: next.line.grid + idx/g.Cols}
		}
	}
	for root := range undecided {
		if find(root) != root {
			continue
		}
		var members []int
		for k := range undecided {
			if find(k) == root {
				members = append(members, undecided[k])
			}
		}
		if d := c.solveCluster(members, int32(root+1)); d != nil {
			return d
		}
	}
	for id := range s.Units {
		switch {
		case c.attackKilled[id]:
		case c.emitOn[id] && !c.emitOff[id]:
			c.st[id] &= stInfected
			if c.mask[id] == maskUnknown {
				c.mask[id] = maskNo
			}
		case !c.emitOn[id] && c.mask[id] == maskNo:
			c.st[id] &^= stInfected
		case !c.emitOn[id] && c.mask[id] == maskUnknown && c.st[id]&^stInfected == 0:
			c.mask[id] = maskYes // infected and silent: masked
		}
	}
	return nil
}

// forInfluence calls f for the cells whose diffused value an emission at p
// can change: p and its neighbours.
func (c *ruleChecker) forInfluence(p Pos, f func(idx int)) {
	s := &c.g.State
	f(s.Idx(p))
	for d := Bottom; d < None; d++ {
		if q := p.Add(d); s.OnBoard(q) {
			f(s.Idx(q))
		}
	}
}

// solveCluster tries every emission of a cluster of undecided emitters and
// records which choices explain the grid.
func (c *ruleChecker) solveCluster(members []int, tag int32) *Divergence {
	g := c.g
	s := &g.State
	for _, id := range members {
		c.emitOn[id], c.emitOff[id] = false, false
	}
	if len(members) > maxEmitterCluster {
		for _, id := range members {
			c.emitOn[id], c.emitOff[id] = true, true
		}
		return nil
	}
	var cells []int
	for idx, t := range c.influenced {
		if t == tag {
			cells = append(cells, idx)
		}
	}
	bestBad, bestCell := -1, 0
	for combo := 0; combo < 1<<len(members); combo++ {
		copyBase := c.pred
		for _, idx := range cells {
			copyBase[idx] = c.base[idx]
			for d := Bottom; d < None; d++ {
				if q := s.PosOf(idx).Add(d); s.OnBoard(q) {
					copyBase[s.Idx(q)] = c.base[s.Idx(q)]
				}
			}
		}
		for k, id := range members {
			if combo>>k&1 == 1 {
				copyBase[s.Idx(s.Units[id].Pos)] += VirusEmission
			}
		}
		bad, first := 0, -1
		for _, idx := range cells {
			if g.diffused(copyBase, idx) != int(c.traceVirus[idx]) {
				if first < 0 {
					first = idx
				}
				bad++
			}
		}
		if bad == 0 {
			for k, id := range members {
				if combo>>k&1 == 1 {
					c.emitOn[id] = true
				} else {
					c.emitOff[id] = true
				}
			}
		} else if bestBad < 0 || bad < bestBad {
			bestBad, bestCell = bad, first
		}
	}
	for _, id := range members {
		if c.emitOn[id] || c.emitOff[id] {
			return nil
		}
	}
	next := &c.tr.States[c.r+1]
	return &Divergence{Round: c.r + 1, Unit: -1, Field: fmt.Sprintf("grid (%d, %d)", bestCell/g.Cols, bestCell%g.Cols),
		Want: "the diffusion of the emission of some infected units", Got: fmt.Sprintf("%q", next.Grid[bestCell]),
		Line: next.line.grid + bestCell/g.Cols}
}

// infection applies the possible infections and healings (SPEC §8.7 pass
// 3) to the status sets of the live units.
func (c *ruleChecker) infection() {
	s := &c.g.State
	for id := range s.Units {
		if c.attackKilled[id] {
			continue
		}
		st := c.st[id]
		var ns uint8
		if st&stClean != 0 {
			v := int(c.traceVirus[s.Idx(s.Units[id].Pos)])
			for _, masked := range [2]bool{false, true} {
				if (masked && c.mask[id] == maskNo) || (!masked && c.mask[id] == maskYes) {
					continue
				}
				thr := Threshold(InfectProb(v, masked, c.cfg))
				if thr < 10000 {
					ns |= stClean
				}
				if thr >= 1 {
					ns |= stNewInfec
				}
			}
		}
		if st&stInfected != 0 {
			ns |= st&stInfected | stImmune
		}
		ns |= st & stImmune
		c.st[id] = ns
	}
}

// statusDamage returns the virus damage of status bit k.
func statusDamage(k int) int {
	if k >= 1 && k <= 5 {
		return k
	}
	return 0
}

// damage checks the health of every unit (SPEC §8.7 pass 4) and finds the
// units the virus killed.
func (c *ruleChecker) damage() *Divergence {
	s := &c.g.State
	next := &c.tr.States[c.r+1]
	hp := c.cfg.InitialHealth
	c.ambiguous = c.ambiguous[:0]
	for id := range s.Units {
		tu := &next.Units[id]
		u := &s.Units[id]
		if c.attackKilled[id] {
			if tu.Player != u.Player {
				return c.unitDiv(id, "player", fmt.Sprintf("%d (its killer's)", u.Player), fmt.Sprint(tu.Player))
			}
			var ns uint8
			for k := 0; k < 7; k++ {
				if stRespawn&(1<<k) != 0 && hp-statusDamage(k) == tu.Health {
					ns |= 1 << k
				}
			}
			if ns == 0 {
				return c.unitDiv(id, "health", fmt.Sprintf("%d less 0, 2, 3 or 4 (killed by an attack)", hp), fmt.Sprint(tu.Health))
			}
			c.st[id] = ns
			continue
		}
		h := c.startHealth[id]
		k := c.hiddenAttackers(id)
		top := maxHidden(k, h)
		var alive uint8
		death := false
		for b := 0; b < 7; b++ {
			if c.st[id]&(1<<b) == 0 {
				continue
			}
			d := statusDamage(b)
			if a := h - d - tu.Health; a <= h && hiddenOK(k, a) {
				alive |= 1 << b
			}
			if d > 0 && h-top-d < 0 {
				death = true
			}
		}
		death = death && tu.Health == hp
		same := tu.Pos == u.Pos && tu.Player == u.Player
		switch {
		case !same && death:
			c.virusDead[id] = true
		case !same && tu.Pos != u.Pos:
			return c.unitDiv(id, "pos", u.Pos.String(), tu.Pos.String())
		case !same:
			return c.unitDiv(id, "player", fmt.Sprint(u.Player), fmt.Sprint(tu.Player))
		case alive != 0 && death:
			c.noDeathSt[id] = alive
			c.ambiguous = append(c.ambiguous, id)
		case alive != 0:
			c.st[id] = alive
		case death:
			c.virusDead[id] = true
		default:
			return c.unitDiv(id, "health", fmt.Sprintf("%d less virus damage and at most %d failed attacks", h, k), fmt.Sprint(tu.Health))
		}
	}
	return nil
}

// respawn checks that the dead units respawned where Spawn puts them (SPEC
// §5.3, §8.10), trying both outcomes for units that may or may not have
// died.
func (c *ruleChecker) respawn() *Divergence {
	amb := c.ambiguous
	if len(amb) > maxDeathBranches {
		amb = amb[:maxDeathBranches]
		for _, id := range c.ambiguous[maxDeathBranches:] {
			c.st[id] = c.noDeathSt[id]
		}
	}
	var first *Divergence
	var okDead, okAlive uint64
	for combo := 0; combo < 1<<len(amb); combo++ {
		d := c.tryRespawn(amb, combo)
		if d == nil {
			okDead |= uint64(combo)
			okAlive |= ^uint64(combo)
		} else if first == nil {
			first = d
		}
	}
	if okDead == 0 && okAlive == 0 {
		return first
	}
	for k, id := range amb {
		var st uint8
		if okAlive>>k&1 == 1 {
			st |= c.noDeathSt[id]
		}
		if okDead>>k&1 == 1 {
			st |= stRespawn
			if okAlive>>k&1 == 1 {
				if c.mask[id] == maskYes {
					c.mask[id] = maskUnknown
				}
			} else {
				c.mask[id] = maskNo
			}
		}
		c.st[id] = st
	}
	for id, dead := range c.virusDead {
		if dead {
			c.st[id], c.mask[id] = stRespawn, maskNo
		}
	}
	return nil
}

// tryRespawn checks the respawn when the ambiguous units whose bit is set
// in combo died.
func (c *ruleChecker) tryRespawn(amb []int, combo int) *Divergence {
	s := &c.g.State
	next := &c.tr.States[c.r+1]
	dead := func(id int) bool {
		if c.attackKilled[id] || c.virusDead[id] {
			return true
		}
		k := slices.Index(amb, id)
		return k >= 0 && combo>>k&1 == 1
	}
	for idx := range s.UnitAt {
		s.UnitAt[idx] = -1
	}
	for id := range s.Units {
		if !dead(id) {
			s.UnitAt[s.Idx(s.Units[id].Pos)] = int32(id)
		}
	}
	for id := range s.Units {
		if !dead(id) {
			continue
		}
		p := next.Units[id].Pos
		if !s.OnBoard(p) || !s.spawnable(p) {
			return c.unitDiv(id, "pos", "a spawnable cell (grass, no unit on it or next to it)", p.String())
		}
		if !c.ring[s.Idx(p)] {
			first := NoPos
			ringFree := false
			for _, q := range c.g.ring {
				if s.spawnable(q) {
					ringFree = true
					break
				}
			}
			for idx := range s.Types {
				if q := s.PosOf(idx); s.spawnable(q) {
					first = q
					break
				}
			}
			if ringFree || p != first {
				return c.unitDiv(id, "pos", "a spawnable cell of the ring at distance 1 from the edge", p.String())
			}
		}
		s.UnitAt[s.Idx(p)] = int32(id)
	}
	return nil
}
