package khan

import (
	"slices"

	"jgym/env/dominator"
)

// Khan's orders for its witches, knights and farmers (see Khan).

// planWitches steps each witch where it expects the most captures.
func (k *Bot) planWitches(v *dominator.State, o *dominator.Orders) {
	m := &k.m
	k.enemyDistances(v)
	ws := v.Witches[0]
	k.wpos = k.wpos[:0]
	for _, id := range ws {
		k.wpos = append(k.wpos, v.Units[id].Pos)
	}
	for i, id := range ws {
		a := v.Units[id].Pos
		if !m.in(a) {
			continue
		}
		best, bestVal := dominator.None, k.witchValue(v, i, a, a)
		for _, d := range orthDirs {
			b := a.Add(d)
			if !m.in(b) || !m.free(m.idx(b)) || !k.witchSafe(v, i, b) {
				continue
			}
			if val := k.witchValue(v, i, a, b); val > bestVal {
				best, bestVal = d, val
			}
		}
		b := a.Add(best)
		k.wpos[i] = b
		m.taken[m.idx(b)] = true
		k.raise(b, 2, 1) // our units keep out of the area it haunts
		if best != dominator.None {
			o.Command(id, best)
		}
	}
}

// witchSafe reports whether witch i may step to b: no farmer or knight of
// ours within 2 of it, our other witches more than 2 away.
func (k *Bot) witchSafe(v *dominator.State, i int, b dominator.Pos) bool {
	for _, id := range k.mine {
		if dominator.Manhattan(v.Units[id].Pos, b) <= 2 {
			return false
		}
	}
	for j, q := range k.wpos {
		if j != i && dominator.Manhattan(q, b) <= 2 {
			return false
		}
	}
	return true
}

// witchValue values witch i stepping from a to b (b = a: staying): the
// enemy farmers and knights expected to die in its area, then closeness to
// the enemy.
func (k *Bot) witchValue(v *dominator.State, i int, a, b dominator.Pos) float32 {
	m := &k.m
	val := float32(0)
	if e := k.edist[m.idx(b)]; e < unreachable {
		val -= k.w.step * float32(e)
	}
	asleep := false
	for p := 0; p < dominator.NumPlayers; p++ {
		for j, w := range v.Witches[p] {
			q := v.Units[w].Pos
			if p == 0 {
				if j == i {
					continue
				}
				q = k.wpos[j]
			}
			if dominator.Manhattan(q, b) <= 2 {
				asleep = true
			}
		}
	}
	if asleep {
		return val // it catches nothing
	}
	in := func(c int) bool { return dominator.Manhattan(m.pos(c), b) <= 2 }
	for id := range v.Units {
		u := &v.Units[id]
		if u.Player == 0 || u.Type == dominator.Witch || dominator.Manhattan(u.Pos, b) > 3 || !k.onGrid(v, id) {
			continue
		}
		pn := k.fc.nextIn(m, id, in)
		p := pn
		if b != a && dominator.Manhattan(u.Pos, b) <= 2 {
			p = 0.5 + 0.5*pn
		}
		val += p * k.value(u.Type)
	}
	return val
}

// enemyDistances computes k.edist: the orthogonal walking distance from
// every cell to the nearest enemy farmer or knight near one of our units
// (any enemy farmer or knight if none is), walls excepted.
func (k *Bot) enemyDistances(v *dominator.State) {
	k.srcs = k.srcs[:0]
	for pass := 0; pass < 2 && len(k.srcs) == 0; pass++ {
		for id := range v.Units {
			if !k.prey(v, id) || !k.onGrid(v, id) {
				continue
			}
			if pass == 0 && k.w.home > 0 && !k.nearMine(v, v.Units[id].Pos, int(k.w.home)) {
				continue
			}
			k.srcs = append(k.srcs, int32(k.m.idx(v.Units[id].Pos)))
		}
	}
	k.m.field(k.edist, k.srcs, false, k.open)
}

// nearMine reports whether one of our farmers or knights stands within r
// of p.
func (k *Bot) nearMine(v *dominator.State, p dominator.Pos, r int) bool {
	for _, id := range k.mine {
		if dominator.Manhattan(v.Units[id].Pos, p) <= r {
			return true
		}
	}
	return false
}

// walkable marks in k.pass the cells a farmer or knight may walk over:
// not deadlier than limit, and free or held by one of ours (who may move
// away).
func (k *Bot) walkable(v *dominator.State, limit float32) {
	m := &k.m
	for c := range k.pass {
		k.pass[c] = !m.wall[c] && k.risk[c] < limit && (m.unit[c] < 0 || v.Units[m.unit[c]].Player == 0)
	}
}

// planKnights attacks or hunts with every knight.
func (k *Bot) planKnights(v *dominator.State, o *dominator.Orders) {
	m := &k.m
	nb := m.neighbours()
	clear(k.goal)
	k.srcs = k.srcs[:0]
	for id := range v.Units {
		if !k.prey(v, id) || !k.onGrid(v, id) {
			continue
		}
		c := m.idx(v.Units[id].Pos)
		for d := 0; d < 8; d++ {
			if x := nb[8*c+d]; x >= 0 && !m.wall[x] && m.unit[x] < 0 && !k.goal[x] {
				k.goal[x] = true
				k.srcs = append(k.srcs, x)
			}
		}
	}
	k.walkable(v, 0.5)
	m.field(k.kdist, k.srcs, true, k.pass)
	for _, id := range v.Knights[0] {
		if !k.onGrid(v, id) {
			continue
		}
		u := &v.Units[id]
		x := m.idx(u.Pos)
		stay := k.risk[x] + k.attacked(v, x, u.Health)
		best, bestVal := dominator.None, -stay*k.w.knight-k.walk(k.kdist[x])
		target := -1
		for _, d := range allDirs {
			t := u.Pos.Add(d)
			if !m.in(t) || m.wall[m.idx(t)] {
				continue
			}
			c := m.idx(t)
			var val float32
			e := int(m.unit[c])
			switch {
			case e >= 0:
				if !k.prey(v, e) {
					continue
				}
				there := 1 - 0.5*k.fc.moves(m, e)
				cap := killChance(v.Cfg, float32(v.Units[e].Health)-k.dmg[e])
				val = there*(cap*k.value(v.Units[e].Type)+(1-cap)*k.w.attack) - stay*k.w.knight
			case m.taken[c] || k.risk[c] >= 1:
				continue
			default:
				loss := 0.5*k.risk[x] + 0.5*k.risk[c] + 0.5*k.attacked(v, x, u.Health)
				val = -loss*k.w.knight - k.walk(k.kdist[c])
			}
			if val > bestVal {
				best, bestVal, target = d, val, e
			}
		}
		if best == dominator.None {
			continue
		}
		if target >= 0 {
			mean := float32(v.Cfg.DamageMin+v.Cfg.DamageMax) / 2
			k.dmg[target] += mean * (1 - 0.5*k.fc.moves(m, target))
		} else {
			m.taken[m.idx(u.Pos.Add(best))] = true
			m.leave[x] = true
		}
		o.Command(id, best)
	}
}

// walk is what a distance to a unit's goal costs.
func (k *Bot) walk(d int16) float32 {
	if d >= unreachable {
		return 0
	}
	return k.w.step * float32(d)
}

// planFarmers sends every farmer to paint: first each farmer, nearest
// first, takes the nearest cell to paint that no other farmer took; then
// it weighs its steps (see Khan).
func (k *Bot) planFarmers(v *dominator.State, o *dominator.Orders) {
	m := &k.m
	k.walkable(v, k.w.passRisk)
	k.srcs = k.srcs[:0]
	for c := range v.Grid {
		k.goal[c] = v.Grid[c].Owner != 0 && !m.wall[c] && m.unit[c] < 0 && k.risk[c] < k.w.goalRisk && k.fc.nearKnight[c] < 0.5
		if k.goal[c] {
			k.srcs = append(k.srcs, int32(c))
		}
	}
	m.field(k.tdist, k.srcs, false, k.pass)
	k.order = k.order[:0]
	for _, id := range v.Farmers[0] {
		if k.onGrid(v, id) {
			k.order = append(k.order, id)
		}
	}
	slices.SortStableFunc(k.order, func(a, b int) int {
		return int(k.tdist[m.idx(v.Units[a].Pos)]) - int(k.tdist[m.idx(v.Units[b].Pos)])
	})
	for _, id := range k.order {
		u := &v.Units[id]
		x := m.idx(u.Pos)
		want, far := dominator.None, float32(0)
		if d := k.tdist[x]; d < unreachable {
			if cell, first, ok := m.search(x, false, int(d)+6, k.pass, k.goal, nil); ok {
				k.goal[cell] = false // claimed
				want = first
				far = float32(absInt(m.pos(cell).I-u.Pos.I) + absInt(m.pos(cell).J-u.Pos.J))
			}
		}
		walk := func(d dominator.Dir) float32 {
			switch {
			case want == dominator.None:
				return 0
			case d == want:
				return k.w.step * (far - 1)
			case d == dominator.None:
				return k.w.step * far
			}
			return k.w.step * (far + 1)
		}
		stay := k.risk[x] + k.attacked(v, x, u.Health)
		best := dominator.None
		bestVal := -(stay+k.w.nearWitch*k.fc.nearWitch[x])*k.w.farmer - k.w.nearKnight*k.fc.nearKnight[x] - walk(dominator.None)
		bestStay := bestVal
		for _, d := range orthDirs {
			t := u.Pos.Add(d)
			if !m.in(t) {
				continue
			}
			c := m.idx(t)
			follow := m.unit[c] >= 0 && m.leave[c] && !m.taken[c]
			if (!m.free(c) && !follow) || k.risk[c] >= 1 {
				continue
			}
			gain := float32(0)
			if owner := v.Grid[c].Owner; owner != 0 && !k.claim[c] {
				gain = 1
				if owner > 0 {
					gain += k.w.enemyCell
				}
			}
			loss := 0.5*k.risk[x] + 0.5*k.risk[c] + 0.5*k.attacked(v, x, u.Health)
			loss += k.w.nearWitch * k.fc.nearWitch[c]
			val := gain - loss*k.w.farmer - k.w.nearKnight*k.fc.nearKnight[c] - walk(d)
			if follow {
				// It gets there only if the unit there leaves first.
				val = (val + bestStay) / 2
			}
			if val > bestVal {
				best, bestVal = d, val
			}
		}
		if best == dominator.None {
			continue
		}
		c := m.idx(u.Pos.Add(best))
		m.taken[c] = true
		m.leave[x] = true
		k.claim[c] = true
		o.Command(id, best)
	}
}
