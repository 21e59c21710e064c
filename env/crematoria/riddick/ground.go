package riddick

import (
	"math"

	"jgym/env/crematoria"
)

// The underground half of the Riddick bot: conquering caves, running from
// hellhounds and hunting enemy Pioneers.

// furyanAttacks makes every Furyan next to an enemy Furyan or Pioneer
// attack it (Furyans first). These orders go first, likely kills first: an
// attack only lands if it runs before the victim moves away, and a victim
// killed early loses its own attack.
func (b *Bot) furyanAttacks() {
	s, m := b.s, b.m
	b.attacks = b.attacks[:0]
	for _, id := range s.Furyans[b.me] {
		u := &s.Units[id]
		if u.Pos.K != 0 {
			continue
		}
		v := m.node[u.Pos.I*crematoria.Cols+u.Pos.J]
		if v < 0 || (b.deadEnd[v] && !b.final) {
			continue // it must run instead
		}
		bestD, bestPrio, target := crematoria.None, -1e9, -1
		for d := crematoria.Bottom; d <= crematoria.LB; d++ {
			n := m.nbr[v][d]
			if n < 0 {
				continue
			}
			t := int(b.occ[m.cell[n]])
			if t < 0 {
				continue
			}
			tu := &s.Units[t]
			if tu.Player < 0 || tu.Player == b.me || b.hpLeft[t] <= 0 {
				continue
			}
			if b.deadEnd[n] && !b.final {
				continue // if it runs we would step next to a hellhound
			}
			var prio float64
			switch tu.Type {
			case crematoria.Pioneer:
				prio = 1000 - float64(b.hpLeft[t])
			case crematoria.Furyan:
				// Always fight back: a Furyan that does not is hit anyway.
				prio = b.p.AttackFuryans*1000 - float64(b.hpLeft[t])/2
			default:
				continue
			}
			if prio > bestPrio {
				bestD, bestPrio, target = d, prio, t
			}
		}
		if target >= 0 {
			key := killChance(b.hpLeft[target])
			if s.Units[target].Type == crematoria.Furyan {
				key += b.p.KillFirst
			}
			b.attacks = append(b.attacks, rAttack{id: id, d: bestD, key: key})
			b.hpLeft[target] -= (crematoria.MinDamageFuryan + crematoria.MaxDamageFuryan) / 2
		}
	}
	// Likely kills first: a unit killed earlier in the round loses its
	// own orders, its attack included.
	as := b.attacks
	for a := 1; a < len(as) && b.p.KillFirst >= 0; a++ {
		for c := a; c > 0 && as[c].key > as[c-1].key; c-- {
			as[c], as[c-1] = as[c-1], as[c]
		}
	}
	for _, a := range as {
		b.order(&s.Units[a.id], a.d)
	}
}

// rAttack is an attack order waiting to be issued.
type rAttack struct {
	id  int
	d   crematoria.Dir
	key float64
}

// killChance is the probability that one Furyan attack kills a unit with
// health h.
func killChance(h int) float64 {
	return math.Min(1, math.Max(0, float64(crematoria.MaxDamageFuryan-h+1)/float64(crematoria.MaxDamageFuryan-crematoria.MinDamageFuryan+1)))
}

// endangered reports whether unit u on level 0 should move before the others.
func (b *Bot) endangered(u *crematoria.Unit) bool {
	v := b.m.node[u.Pos.I*crematoria.Cols+u.Pos.J]
	return b.deadEnd[v] || b.hhDist[v] <= 4 || b.efAdj[u.Pos.Index()] > 0
}

// ground moves our Pioneers underground: the endangered ones first, then
// the others; a Pioneer whose next cell is held by one of our units that
// has not moved yet waits for a second pass.
func (b *Bot) ground() {
	s, m := b.s, b.m
	b.pios, b.srcs = b.pios[:0], b.srcs[:0]
	for _, id := range s.Pioneers[b.me] {
		u := &s.Units[id]
		if u.Pos.K != 0 || b.done[id] {
			continue
		}
		b.pios = append(b.pios, id)
	}
	// Search from the Pioneers that are not on a gem mission.
	for _, id := range b.pios {
		if b.missions[id].gem < 0 {
			u := &s.Units[id]
			b.srcs = append(b.srcs, m.node[u.Pos.I*crematoria.Cols+u.Pos.J])
		}
	}
	b.vo.run(m, b.srcs, b.tval, b.targetValue, b.near, 80)
	si := 0
	for _, id := range b.pios {
		if b.missions[id].gem < 0 {
			b.firstOf[id] = b.vo.step(si)
			si++
		} else {
			b.firstOf[id] = -1
		}
	}
	b.decideAll(b.pios)
}

// decideAll decides units: the endangered ones first, then the others, then
// the ones whose next cell was held by one of our units without an order.
func (b *Bot) decideAll(ids []int) {
	s, m := b.s, b.m
	b.later = b.later[:0]
	for pass := 0; pass < 2; pass++ {
		for _, id := range ids {
			u := &s.Units[id]
			if b.done[id] {
				continue
			}
			if (pass == 0) != b.endangered(u) {
				continue
			}
			if f := b.firstOf[id]; f >= 0 && b.ownUndecided(int(m.cell[f])) {
				b.later = append(b.later, id)
				continue
			}
			b.decideGround(u, false)
		}
	}
	for _, id := range b.later {
		b.decideGround(&s.Units[id], false)
	}
}

// furyanMoves moves the Furyans that did not attack towards the nearest
// enemy Pioneer in their own search region.
func (b *Bot) furyanMoves() {
	s, m := b.s, b.m
	b.pios, b.srcs = b.pios[:0], b.srcs[:0]
	for _, id := range s.Furyans[b.me] {
		u := &s.Units[id]
		if u.Pos.K != 0 || b.done[id] {
			continue
		}
		b.pios = append(b.pios, id)
		b.srcs = append(b.srcs, m.node[u.Pos.I*crematoria.Cols+u.Pos.J])
	}
	b.vo.run(m, b.srcs, b.ftval, nil, b.near, 60)
	for si, id := range b.pios {
		b.firstOf[id] = b.vo.step(si)
	}
	b.decideAll(b.pios)
}

// decideGround chooses and orders the move of unit u on level 0. With
// mustMove, staying is not an option (it must clear its cell).
func (b *Bot) decideGround(u *crematoria.Unit, mustMove bool) {
	if b.done[u.ID] {
		return
	}
	m := b.m
	v := m.node[u.Pos.I*crematoria.Cols+u.Pos.J]
	isP := u.Type == crematoria.Pioneer
	var bonus [8]float64
	stay := 0.0
	hasGoal := false
	if ms := &b.missions[u.ID]; isP && ms.gem >= 0 {
		hasGoal = true
		ev := m.elev[ms.e1]
		if v == ev {
			stay += 5 // wait for the night
		} else {
			dv := m.edist[ms.e1][v]
			for d, n := range m.nbr[v] {
				if n >= 0 && m.edist[ms.e1][n] < dv {
					bonus[d] = b.p.FirstStep
				}
			}
		}
	} else if f := b.firstOf[u.ID]; f >= 0 {
		hasGoal = true
		for d, n := range m.nbr[v] {
			if n == f {
				bonus[d] = b.p.FirstStep
			}
		}
	} else {
		dist := b.fieldFor(isP)
		if dist[v] < rFar {
			hasGoal = true
			for d, n := range m.nbr[v] {
				if n >= 0 && dist[n] < dist[v] {
					bonus[d] = 0.8 * b.p.FirstStep
				}
			}
		}
	}
	if !hasGoal {
		stay += 0.5
	}
	if isP && b.hhDist[v] <= 3 && !b.final {
		b.fleeToElevator(v, &bonus)
	}
	d, sc := b.bestL0(v, &bonus, stay, mustMove, isP)
	if sc < -500 && b.depth < 4 {
		// Every free cell is deadly: ask our units that have no order yet
		// and stand on safe cells next to us to make room.
		b.busy[u.ID] = true
		b.depth++
		for dd, n := range m.nbr[v] {
			if n < 0 || b.deadEnd[n] || !b.ownUndecided(int(m.cell[n])) || b.busy[b.occ[m.cell[n]]] {
				continue
			}
			b.decideGround(&b.s.Units[b.occ[m.cell[n]]], true)
			if b.free(int(m.cell[n])) {
				bonus[dd] += 1
				break
			}
		}
		b.depth--
		b.busy[u.ID] = false
		d, sc = b.bestL0(v, &bonus, stay, mustMove, isP)
	}
	if !mustMove {
		if ok, val, gem := b.upOK(u); ok && val+b.upBonus(u, v) > sc {
			if gem >= 0 {
				b.gems[gem].claimed = u.ID
			}
			b.missions[u.ID].gem = -1
			d = crematoria.Up
		}
	}
	b.order(u, d)
}

// upBonus favours going up for a Pioneer on a gem mission at its elevator.
func (b *Bot) upBonus(u *crematoria.Unit, v int16) float64 {
	if ms := &b.missions[u.ID]; ms.gem >= 0 && b.m.elev[ms.e1] == v {
		return b.p.FirstStep
	}
	return 0
}

// fieldFor returns the distance field towards the targets of a Pioneer or
// a Furyan, computing it the first time it is needed in a round.
func (b *Bot) fieldFor(isP bool) []int16 {
	if isP {
		if !b.distOK {
			b.distOK = true
			b.fieldFrom(b.distT, b.tval, b.near)
		}
		return b.distT
	}
	if !b.distFK {
		b.distFK = true
		b.fieldFrom(b.distF, b.ftval, b.near)
	}
	return b.distF
}

func (b *Bot) fieldFrom(dist []int16, tval []int8, blocked []bool) {
	b.srcs = b.srcs[:0]
	for v, t := range tval {
		if t > 0 {
			b.srcs = append(b.srcs, int16(v))
		}
	}
	b.m.distances(dist, b.queue, b.srcs, blocked, rFar)
}

// bestL0 scores staying and the eight planar moves of a unit at node v.
func (b *Bot) bestL0(v int16, bonus *[8]float64, stay float64, mustMove, isP bool) (crematoria.Dir, float64) {
	m := b.m
	bestD, bestS := crematoria.None, -1e18
	for d := crematoria.Bottom; d <= crematoria.None; d++ {
		if d == crematoria.Up || d == crematoria.Down {
			continue
		}
		n := v
		var sc float64
		if d == crematoria.None {
			if mustMove {
				continue
			}
			sc = stay - 0.3
		} else {
			n = m.nbr[v][d]
			if n < 0 || !b.free(int(m.cell[n])) || b.deadStep[n] {
				continue
			}
			sc = bonus[d]
			if isP {
				sc += 0.6 * float64(b.targetValue(n))
			}
		}
		if !b.final {
			if b.deadEnd[n] {
				sc -= 1000
			} else if b.hhDist[n] <= 6 && b.trapped(n) {
				sc -= 200
			}
		}
		sc -= b.hhPenalty(n) + b.enemyPenalty(int(m.cell[n]), isP)
		if b.reserved[n] {
			sc -= b.p.Reserved
		}
		if sc > bestS {
			bestD, bestS = d, sc
		}
	}
	return bestD, bestS
}

// hhPenalty is the risk of ending the round at node n with a hellhound a
// few steps away (it chases the nearest unit).
func (b *Bot) hhPenalty(n int16) float64 {
	if b.final {
		return 0
	}
	if h := b.hhDist[n]; h >= 3 && h <= 5 {
		return b.p.HH[h-3]
	}
	return 0
}

// enemyPenalty is the risk of a Pioneer ending the round on cell idx near
// enemy Furyans.
func (b *Bot) enemyPenalty(idx int, isP bool) float64 {
	if b.final {
		return 0
	}
	if !isP {
		return 0
	}
	return b.p.Ef[0]*float64(b.efAdj[idx]) + b.p.Ef[1]*float64(b.efNear[idx])
}

// trapped reports whether a unit ending the round at node c could be
// cornered by a hellhound within a few rounds: the hellhound steps to the
// cells of its neighbourhood closest to c, and the unit must then find a
// cell next to c (or c) three steps away from it, and so on.
func (b *Bot) trapped(c int16) bool {
	m := b.m
	for _, h := range b.hh {
		if chebIJ(int(m.row[c]), int(m.col[c]), int(m.row[h]), int(m.col[h])) <= 3 && !b.escapable(c, h, 2) {
			return true
		}
	}
	return false
}

// escapable reports whether a unit at node c can keep away from the
// hellhound at node h for depth+1 more rounds, assuming the hellhound
// always steps as close to it as it can.
func (b *Bot) escapable(c, h int16, depth int) bool {
	m := b.m
	ci, cj := int(m.row[c]), int(m.col[c])
	if chebIJ(ci, cj, int(m.row[h]), int(m.col[h])) >= 4 {
		return true
	}
	best := 99
	for _, t := range m.nbr[h] {
		if t >= 0 {
			best = min(best, chebIJ(ci, cj, int(m.row[t]), int(m.col[t])))
		}
	}
	for _, t := range m.nbr[h] {
		if t < 0 {
			continue
		}
		ti, tj := int(m.row[t]), int(m.col[t])
		if chebIJ(ci, cj, ti, tj) != best {
			continue
		}
		ok := false
		for _, e := range m.nbr[c] {
			if e >= 0 && chebIJ(int(m.row[e]), int(m.col[e]), ti, tj) >= 3 && (depth == 0 || b.escapable(e, t, depth-1)) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// fleeToElevator favours the steps towards a close elevator that will be
// dark when the unit gets there, the one sure way to shake off a hellhound.
func (b *Bot) fleeToElevator(v int16, bonus *[8]float64) {
	m := b.m
	best, bestD := -1, int16(7)
	for e := range m.elev {
		d := m.edist[e][v]
		if d >= bestD {
			continue
		}
		if x := xrel(m.elevJ[e], b.R+int(d)); x < 2+b.p.ExitMargin || x > 39 {
			continue
		}
		best, bestD = e, d
	}
	if best < 0 {
		return
	}
	for d, n := range m.nbr[v] {
		if n >= 0 && m.edist[best][n] < bestD {
			bonus[d] += 3
		}
	}
}
