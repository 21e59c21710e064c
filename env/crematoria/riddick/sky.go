package riddick

import "jgym/env/crematoria"

// The outside half of the Riddick bot: gems, the sun and the elevators.
//
// The sun moves two columns per round and a unit at most one, so a unit
// outside always loses ground against the night band. Let x be the place of
// a column in the night band of a round: x = (j - 2r) mod 80; 0..39 is night,
// and the columns with x = 0 or 1 burn at the end of the round (SPEC §3.3).
// Each move changes x by -3, -2 or -1, so along any path x only decreases,
// and a path is safe exactly when its last cell still has x >= 2. Level 1 has
// no obstacles, so the number of moves between two cells outside is their
// Chebyshev distance. Plans are then checked in O(1) per elevator.

// rGem is a gem on the board this round.
type rGem struct {
	i, j    int
	idx     int // level-1 cell index
	x0      int // place of its column in the night band of this round
	claimed int // unit id of the Pioneer going for it, or -1
	// exit[dt] is the cost of leaving the surface after picking the gem
	// at round R+dt (the moves back to a dark elevator, or the loss of the
	// Pioneer when no elevator can be reached), computed when first needed.
	exit   [rkHorizon]float64
	exitOK [rkHorizon]bool
}

// rMission sends a Pioneer underground to a gem through an elevator.
type rMission struct {
	gem int   // level-1 cell index of the gem, -1 for none
	e1  int16 // elevator to go up
}

// xrel returns the place of column j in the night band of round r: 0..39
// is night (0 and 1 burn at the end of the round), 40..79 is daylight.
func xrel(j, r int) int { return ((j-2*r)%crematoria.Cols + crematoria.Cols) % crematoria.Cols }

// deathLoss is what losing a Pioneer at round r costs.
func (b *Bot) deathLoss(r int) float64 {
	if r >= b.last {
		return 0
	}
	return b.p.DeathRound * float64(b.last-r)
}

// scanGems lists the gems.
func (b *Bot) scanGems() {
	b.gems = b.gems[:0]
	for idx := crematoria.LevelCells; idx < crematoria.NumCells; idx++ {
		if !b.s.Cells[idx].Gem {
			continue
		}
		i, j := (idx-crematoria.LevelCells)/crematoria.Cols, idx%crematoria.Cols
		x0 := xrel(j, b.R)
		if x0 > 39 {
			continue
		}
		b.gems = append(b.gems, rGem{i: i, j: j, idx: idx, x0: x0, claimed: -1})
	}
}

// gemExit is the cost of going home after picking gem g at round R+dt.
func (b *Bot) gemExit(g *rGem, dt int) float64 {
	if !g.exitOK[dt] {
		g.exit[dt], g.exitOK[dt] = b.computeGemExit(g, dt), true
	}
	return g.exit[dt]
}

func (b *Bot) computeGemExit(g *rGem, dt int) float64 {
	rp := b.R + dt
	xg := g.x0 - 2*dt
	switch {
	case xg < 0 || rp > b.last:
		return 1e9 // the gem is gone
	case rp == b.last:
		return 0
	case xg < 2:
		return b.deathLoss(rp)
	}
	cost, _ := b.exitCost(g.i, g.j, xg, rp)
	return cost
}

// exitCost is the cost of going down from level-1 cell (i, j), where a unit
// stands at the end of round r with band place x >= 2: the moves to the best
// elevator plus the risk of arriving with little night left or of finding
// the elevator taken, or the loss of the unit if no elevator is in reach. It
// also returns that elevator (-1 for none).
func (b *Bot) exitCost(i, j, x, r int) (float64, int) {
	best, be := b.deathLoss(r+x/2), -1
	for e := range b.m.elev {
		ei, ej := b.m.elevI[e], b.m.elevJ[e]
		c2 := chebIJ(i, j, ei, ej)
		var cost float64
		if r+c2 >= b.last {
			cost = b.p.OutsideMove * float64(b.last-r)
		} else {
			// rounds the unit may wait at the elevator before it burns
			slack := (x + colDelta(j, ej) - 2*c2 - 2) / 2
			if slack < 0 || (c2 > 0 && 2*slack < b.p.ExitMargin) {
				continue
			}
			cost = b.p.OutsideMove*float64(c2+1) + b.p.ExitRisk[min(slack, 3)] + 4*float64(b.exitClaim[e])
			if c2 <= 1 && b.exitBlocked(e) {
				cost += 5
			}
		}
		if cost < best {
			best, be = cost, e
		}
	}
	return best, be
}

// exitBlocked reports whether going down elevator e is impossible now: the
// cell below holds a unit that is not ours or is in reach of a hellhound.
func (b *Bot) exitBlocked(e int) bool {
	v := b.m.elev[e]
	if b.deadEnd[v] {
		return true
	}
	id := b.occ[b.m.cell[v]]
	return id >= 0 && b.s.Units[id].Player != b.me
}

// skyPlan returns the value of standing outside at (i, j) at the end of
// round r (the column's band place xr there is 2..39), the gem (index in
// b.gems) the best plan goes for, or -1, and the elevator of a plan that goes
// straight home, or -1. skip is a gem index to leave out.
func (b *Bot) skyPlan(i, j, xr, r, self, skip int, gems bool) (float64, int, int) {
	cost, exit := b.exitCost(i, j, xr, r)
	best := -cost
	gem := -1
	if !gems {
		return best, gem, exit
	}
	for gi := range b.gems {
		g := &b.gems[gi]
		if gi == skip || (g.claimed >= 0 && g.claimed != self) {
			continue
		}
		c := chebIJ(i, j, g.i, g.j)
		rp := r + c
		dt := rp - b.R
		if c == 0 || rp > b.last || dt >= rkHorizon {
			continue
		}
		xg := g.x0 - 2*dt
		if xg < 0 || xr+colDelta(j, g.j)-2*c != xg {
			continue
		}
		v := b.gemValue - b.p.OutsideMove*float64(c) - b.gemExit(g, dt)
		if v > best {
			best, gem = v, gi
		}
	}
	if gem >= 0 {
		exit = -1
	}
	return best, gem, exit
}

// outside moves our units on level 1, most endangered first (the ones
// closest to the burning edge of the night).
func (b *Bot) outside() {
	s := b.s
	b.pios = b.pios[:0]
	for _, list := range [2][]int{s.Pioneers[b.me], s.Furyans[b.me]} {
		for _, id := range list {
			if u := &s.Units[id]; u.Pos.K == 1 && !b.done[id] {
				b.pios = append(b.pios, id)
			}
		}
	}
	// Insertion sort by band place, then id: deterministic and tiny.
	ids := b.pios
	for a := 1; a < len(ids); a++ {
		for c := a; c > 0 && b.skyKey(ids[c]) < b.skyKey(ids[c-1]); c-- {
			ids[c], ids[c-1] = ids[c-1], ids[c]
		}
	}
	for _, id := range ids {
		b.missions[id].gem = -1
		b.moveOutside(&s.Units[id])
	}
}

func (b *Bot) skyKey(id int) int {
	u := &b.s.Units[id]
	return xrel(u.Pos.J, b.R)*1000 + id
}

// outChoice is the move chosen for a unit outside.
type outChoice struct {
	d     crematoria.Dir
	gem   int  // gem its plan goes for, or -1
	exit  int  // elevator its plan goes down, or -1
	below bool // Down needs our unit under the elevator to move first
}

// moveOutside chooses the move of one of our units on level 1.
func (b *Bot) moveOutside(u *crematoria.Unit) {
	li := u.Pos.I*crematoria.Cols + u.Pos.J
	for attempt := 0; attempt < 2; attempt++ {
		c := b.bestOutside(u, attempt > 0)
		if c.d == crematoria.Down && c.below {
			// One of our units stands under the elevator: move it first.
			b.decideGround(&b.s.Units[b.occ[li]], true)
			if !b.free(li) {
				continue
			}
		}
		if c.gem >= 0 {
			b.gems[c.gem].claimed = u.ID
		}
		if c.exit >= 0 {
			b.exitClaim[c.exit]++
			b.reserved[b.m.elev[c.exit]] = true
		}
		if c.d != crematoria.Down && b.s.Cells[u.Pos.Index()].Type == crematoria.Elevator {
			b.reserved[b.m.node[li]] = true
		}
		b.order(u, c.d)
		return
	}
	b.order(u, crematoria.None)
}

// bestOutside scores the moves of unit u outside; with noBelow, going down
// onto one of our units is not an option.
func (b *Bot) bestOutside(u *crematoria.Unit, noBelow bool) outChoice {
	s := b.s
	p := u.Pos
	isP := u.Type == crematoria.Pioneer
	best, bestS := outChoice{d: crematoria.None, gem: -1, exit: -1}, -1e18
	for d := crematoria.Bottom; d <= crematoria.None; d++ {
		if d == crematoria.Up {
			continue
		}
		var sc float64
		c := outChoice{d: d, gem: -1, exit: -1}
		if d == crematoria.Down {
			if s.Cells[p.Index()].Type != crematoria.Elevator {
				continue
			}
			idx := p.I*crematoria.Cols + p.J
			v := b.m.node[idx]
			if v < 0 || b.deadStep[v] {
				continue
			}
			if !b.free(idx) {
				if noBelow || !b.ownUndecided(idx) {
					continue
				}
				c.below = true
				sc -= 0.5
			}
			if b.deadEnd[v] && !b.final {
				sc -= 1000
			}
			sc -= b.hhPenalty(v) + b.enemyPenalty(idx, isP)
		} else {
			q := p
			if d != crematoria.None {
				q = p.Add(d)
				if !q.OnBoard() || !b.free(q.Index()) {
					continue
				}
			}
			xr := xrel(q.J, b.R)
			if xr > 39 {
				continue // stepping into daylight kills at once
			}
			li := q.I*crematoria.Cols + q.J
			diesAtEnd := !b.final && (xr < 2 || b.landing[li])
			if isP && s.Cells[q.Index()].Gem && d != crematoria.None {
				sc += b.gemValue
				c.gem = b.gemAt(q.Index())
			}
			if diesAtEnd {
				sc -= b.deathLoss(b.R)
			} else {
				plan, pg, exit := b.skyPlan(q.I, q.J, xr, b.R, u.ID, c.gem, isP)
				sc += plan
				if c.gem < 0 {
					c.gem, c.exit = pg, exit
				}
				if !b.final {
					sc -= b.necPenalty(li, u.Health) + b.enemyPenalty(q.Index(), isP)
				}
			}
			if d == crematoria.None {
				sc -= 0.01
			}
		}
		if sc > bestS {
			best, bestS = c, sc
		}
	}
	return best
}

// necPenalty is the risk of ending a round at level-1 cell li.
func (b *Bot) necPenalty(li int, health int) float64 {
	pen := 1.0 * float64(b.necNear[li])
	if n := b.necAdj[li]; n > 0 {
		if health <= crematoria.MaxDamageNecro*int(n) {
			pen += 0.6 * b.deathLoss(b.R)
		}
		pen += 8 * float64(n)
	}
	return pen
}

// upOK reports whether unit u on an elevator can go up now, the value of
// being outside there and the gem its plan goes for.
func (b *Bot) upOK(u *crematoria.Unit) (bool, float64, int) {
	p := u.Pos
	if p.K != 0 || b.s.Cells[p.Index()].Type != crematoria.Elevator {
		return false, 0, -1
	}
	li := p.I*crematoria.Cols + p.J
	if !b.free(crematoria.LevelCells + li) {
		return false, 0, -1
	}
	xr := xrel(p.J, b.R)
	if xr > 39 || (!b.final && (xr < 2 || b.landing[li])) {
		return false, 0, -1
	}
	isP := u.Type == crematoria.Pioneer
	v, gem, _ := b.skyPlan(p.I, p.J, xr, b.R, u.ID, -1, isP)
	if !b.final {
		v -= b.necPenalty(li, u.Health) + b.enemyPenalty(crematoria.LevelCells+li, isP)
	}
	return true, v, gem
}

// missionValue is the value of sending the Pioneer at node v to gem g
// through elevator e.
func (b *Bot) missionValue(v int16, g *rGem, e int) float64 {
	d1 := int(b.m.edist[e][v])
	if d1 > b.p.MaxWalk {
		return -1e9
	}
	ru := b.R + d1
	x := xrel(b.m.elevJ[e], ru)
	if x < 2 {
		x += crematoria.Cols
	}
	w := 0
	if x > 39 {
		w = (x - 38) / 2
		x -= 2 * w
	}
	ru += w
	ei, ej := b.m.elevI[e], b.m.elevJ[e]
	c1 := chebIJ(ei, ej, g.i, g.j)
	rp := ru + c1
	dt := rp - b.R
	if rp > b.last || dt >= rkHorizon {
		return -1e9
	}
	xg := g.x0 - 2*dt
	if xg < 0 || x+colDelta(ej, g.j)-2*c1 != xg {
		return -1e9
	}
	return b.gemValue - b.p.WalkMove*float64(d1) - b.p.OutsideMove*float64(w+1+c1) - b.gemExit(g, dt)
}

// bestMission returns the best elevator and value for Pioneer at v and gem g.
func (b *Bot) bestMission(v int16, g *rGem) (int16, float64) {
	be, bv := int16(-1), -1e18
	for e := range b.m.elev {
		if val := b.missionValue(v, g, e); val > bv {
			be, bv = int16(e), val
		}
	}
	return be, bv
}

// planMissions keeps the gem missions that still pay off and hands the
// unclaimed gems to the Pioneers underground that gain most from them.
func (b *Bot) planMissions() {
	s := b.s
	b.pios = b.pios[:0]
	for _, id := range s.Pioneers[b.me] {
		u := &s.Units[id]
		if u.Pos.K != 0 || b.done[id] {
			continue
		}
		ms := &b.missions[id]
		if ms.gem < 0 {
			b.pios = append(b.pios, id)
			continue
		}
		gi := b.gemAt(ms.gem)
		v := b.m.node[u.Pos.I*crematoria.Cols+u.Pos.J]
		if gi < 0 || b.gems[gi].claimed >= 0 {
			ms.gem = -1
			b.pios = append(b.pios, id)
			continue
		}
		e, val := b.bestMission(v, &b.gems[gi])
		if val < b.p.MissionKeep {
			ms.gem = -1
			b.pios = append(b.pios, id)
			continue
		}
		ms.e1 = e
		b.gems[gi].claimed = id
	}
	if b.final {
		return
	}
	// Value of every (unclaimed gem, free Pioneer) pair, then greedy
	// assignment, best pair first.
	np := len(b.pios)
	b.mval = b.mval[:0]
	b.melev = b.melev[:0]
	for gi := range b.gems {
		for _, id := range b.pios {
			val, e := -1e18, int16(-1)
			if b.gems[gi].claimed < 0 && b.missions[id].gem < 0 {
				u := &s.Units[id]
				e, val = b.bestMission(b.m.node[u.Pos.I*crematoria.Cols+u.Pos.J], &b.gems[gi])
			}
			b.mval = append(b.mval, val)
			b.melev = append(b.melev, e)
		}
	}
	for {
		bestV, bestK := b.p.MissionNew, -1
		for k, val := range b.mval {
			if val > bestV {
				bestV, bestK = val, k
			}
		}
		if bestK < 0 {
			return
		}
		gi, pi := bestK/np, bestK%np
		id := b.pios[pi]
		b.missions[id] = rMission{gem: b.gems[gi].idx, e1: b.melev[bestK]}
		b.gems[gi].claimed = id
		for k := gi * np; k < (gi+1)*np; k++ {
			b.mval[k] = -1e18
		}
		for k := pi; k < len(b.mval); k += np {
			b.mval[k] = -1e18
		}
	}
}

// gemAt returns the index in b.gems of the gem on level-1 cell idx, or -1.
func (b *Bot) gemAt(idx int) int {
	for gi := range b.gems {
		if b.gems[gi].idx == idx {
			return gi
		}
	}
	return -1
}
