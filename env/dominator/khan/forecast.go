package khan

import "jgym/env/dominator"

// What Khan expects the other players to do this round, and what it
// threatens. Khan models every other player as the course's Dummy
// (dominator.DummyPolicy): each unit moves to one of its candidate cells,
// uniformly. Against the Dummy the candidates are exact; against other
// players they are a guess, which is why Khan also keeps a margin around
// every enemy witch (witchFloor).

// khanForecast holds, for one round, the candidate moves of every unit of
// the other players and the threats they make on each cell, in Khan's
// view.
type khanForecast struct {
	policy dominator.DummyPolicy
	cands  [8]dominator.Dir
	// per unit id: how many candidate cells it has (0: it stays) and
	// which (cell index, or -1 off the board).
	nNext []int8
	next  [][8]int32
	// per cell: probability that an enemy witch's step this round puts
	// the cell in the area of an active witch.
	witch []float32
	// per cell: expected number of enemy knight attacks on a unit
	// standing there this round.
	hit []float32
	// per cell: probability that an enemy knight stands next to it after
	// this round (an attack the next round).
	nearKnight []float32
	// per cell: probability that an active enemy witch stands within 3 of
	// it after this round (one step of hers haunts it the next round).
	nearWitch []float32
	pw        []float32 // scratch: one witch's contribution per cell
	touched   []int32
}

// witchFloor is the threat Khan sees on every cell within 3 of an active
// enemy witch whatever the forecast says: a player that is not the Dummy
// may step anywhere.
const witchFloor = 0.05

func (f *khanForecast) reset(v *dominator.State) {
	n, cells := len(v.Units), len(v.Grid)
	if len(f.nNext) != n {
		f.nNext = make([]int8, n)
		f.next = make([][8]int32, n)
	}
	if len(f.witch) != cells {
		f.witch = make([]float32, cells)
		f.hit = make([]float32, cells)
		f.nearKnight = make([]float32, cells)
		f.nearWitch = make([]float32, cells)
		f.pw = make([]float32, cells)
	}
	clear(f.nNext)
	clear(f.witch)
	clear(f.hit)
	clear(f.nearKnight)
	clear(f.nearWitch)
}

// build forecasts the other players' units on Khan's view v and computes
// the threat maps.
func (f *khanForecast) build(v *dominator.State, m *khanMap) {
	f.reset(v)
	for q := 1; q < dominator.NumPlayers; q++ {
		prey, paint := f.policy.Prepare(v, q)
		for _, id := range v.Witches[q] {
			if prey {
				f.predict(v, m, id)
			}
		}
		for _, id := range v.Farmers[q] {
			if paint {
				f.predict(v, m, id)
			}
		}
		for _, id := range v.Knights[q] {
			if prey {
				f.predict(v, m, id)
			}
		}
	}
	for q := 1; q < dominator.NumPlayers; q++ {
		for _, id := range v.Witches[q] {
			f.witchThreat(v, m, id)
		}
		for _, id := range v.Knights[q] {
			f.knightThreat(v, m, id)
		}
	}
}

// predict stores the candidate cells of unit id (of another player).
func (f *khanForecast) predict(v *dominator.State, m *khanMap, id int) {
	u := &v.Units[id]
	if !m.in(u.Pos) || int(m.unit[m.idx(u.Pos)]) != id {
		return // lost: off the grid
	}
	k := f.policy.Candidates(v, id, &f.cands)
	if k == 0 {
		return
	}
	for i := 0; i < k; i++ {
		t := u.Pos.Add(f.cands[i])
		f.next[id][i] = -1
		if m.in(t) {
			f.next[id][i] = int32(m.idx(t))
		}
	}
	f.nNext[id] = int8(k)
}

// witchThreat adds the areas enemy witch id may haunt by stepping.
func (f *khanForecast) witchThreat(v *dominator.State, m *khanMap, id int) {
	u := &v.Units[id]
	if !m.in(u.Pos) {
		return
	}
	f.reach(v, m, id)
	f.touched = f.touched[:0]
	add := func(b dominator.Pos, p float32) {
		if !f.activeAt(v, m, id, b) {
			return
		}
		for x := -2; x <= 2; x++ {
			for y := -2 + absInt(x); y <= 2-absInt(x); y++ {
				q := dominator.Pos{I: b.I + x, J: b.J + y}
				if !m.in(q) {
					continue
				}
				c := m.idx(q)
				if f.pw[c] == 0 {
					f.touched = append(f.touched, int32(c))
				}
				f.pw[c] += p
			}
		}
	}
	if k := int(f.nNext[id]); k > 0 {
		for i := 0; i < k; i++ {
			c := f.next[id][i]
			if c < 0 || m.wall[c] {
				continue
			}
			p := float32(1) / float32(k)
			if m.unit[c] >= 0 {
				p /= 2 // the step fails unless the unit leaves first
			}
			add(m.pos(int(c)), p)
		}
	}
	if u.Active {
		// A player that is not the Dummy may step anywhere.
		for x := -3; x <= 3; x++ {
			for y := -3 + absInt(x); y <= 3-absInt(x); y++ {
				q := dominator.Pos{I: u.Pos.I + x, J: u.Pos.J + y}
				if m.in(q) && !m.wall[m.idx(q)] {
					c := m.idx(q)
					if f.pw[c] == 0 {
						f.touched = append(f.touched, int32(c))
					}
					f.pw[c] = max(f.pw[c], witchFloor)
				}
			}
		}
	}
	for _, c := range f.touched {
		p := min(f.pw[c], 1)
		f.witch[c] = 1 - (1-f.witch[c])*(1-p)
		f.pw[c] = 0
	}
}

// reach adds to nearWitch the cells within 3 of where enemy witch id may
// stand after this round, awake.
func (f *khanForecast) reach(v *dominator.State, m *khanMap, id int) {
	a := v.Units[id].Pos
	f.touched = f.touched[:0]
	mark := func(b dominator.Pos, p float32) {
		if !f.activeAt(v, m, id, b) {
			return
		}
		for x := -3; x <= 3; x++ {
			for y := -3 + absInt(x); y <= 3-absInt(x); y++ {
				q := dominator.Pos{I: b.I + x, J: b.J + y}
				if !m.in(q) {
					continue
				}
				c := m.idx(q)
				if f.pw[c] == 0 {
					f.touched = append(f.touched, int32(c))
				}
				f.pw[c] += p
			}
		}
	}
	k := int(f.nNext[id])
	stay := float32(1)
	for i := 0; i < k; i++ {
		c := f.next[id][i]
		if c < 0 || m.wall[c] {
			continue
		}
		p := float32(1) / float32(k)
		if m.unit[c] >= 0 {
			p /= 2
		}
		stay -= p
		mark(m.pos(int(c)), p)
	}
	mark(a, stay)
	for _, c := range f.touched {
		p := min(f.pw[c], 1)
		f.nearWitch[c] = 1 - (1-f.nearWitch[c])*(1-p)
		f.pw[c] = 0
	}
}

// activeAt reports whether witch id would be active standing at b, the
// other witches where they are now.
func (f *khanForecast) activeAt(v *dominator.State, m *khanMap, id int, b dominator.Pos) bool {
	for p := 0; p < dominator.NumPlayers; p++ {
		for _, w := range v.Witches[p] {
			if w != id && dominator.Manhattan(v.Units[w].Pos, b) <= 2 {
				return false
			}
		}
	}
	return true
}

// knightThreat adds the attacks enemy knight id may make this round, and
// the cells it may stand next to afterwards.
func (f *khanForecast) knightThreat(v *dominator.State, m *khanMap, id int) {
	u := &v.Units[id]
	if !m.in(u.Pos) || int(m.unit[m.idx(u.Pos)]) != id {
		return
	}
	k := int(f.nNext[id])
	nb := m.neighbours()
	if k == 0 {
		// Not forecast (no prey for it): it stays where it is.
		at := m.idx(u.Pos)
		for d := 0; d < 8; d++ {
			if x := nb[8*at+d]; x >= 0 {
				f.nearKnight[x] = min(f.nearKnight[x]+1, 1)
			}
		}
		return
	}
	p := float32(1) / float32(k)
	for i := 0; i < k; i++ {
		c := f.next[id][i]
		if c < 0 || m.wall[c] {
			continue
		}
		stand := int(c)
		if m.unit[c] >= 0 {
			f.hit[c] += p // an attack: the knight stays
			stand = m.idx(u.Pos)
		}
		for d := 0; d < 8; d++ {
			if x := nb[8*stand+d]; x >= 0 {
				f.nearKnight[x] = min(f.nearKnight[x]+p, 1)
			}
		}
	}
}

// moves reports the probability that unit id (of another player) leaves
// its cell this round: it is forecast to step to a free cell, and does so
// before a given action of ours with probability one half.
func (f *khanForecast) moves(m *khanMap, id int) float32 {
	k := int(f.nNext[id])
	if k == 0 {
		return 0
	}
	free := 0
	for i := 0; i < k; i++ {
		if c := f.next[id][i]; c >= 0 && !m.wall[c] && m.unit[c] < 0 {
			free++
		}
	}
	return float32(free) / float32(k)
}

// nextIn returns the probability that unit id (of another player) steps
// into a cell for which in returns true.
func (f *khanForecast) nextIn(m *khanMap, id int, in func(c int) bool) float32 {
	k := int(f.nNext[id])
	if k == 0 {
		return 0
	}
	n := 0
	for i := 0; i < k; i++ {
		if c := f.next[id][i]; c >= 0 && !m.wall[c] && m.unit[c] < 0 && in(int(c)) {
			n++
		}
	}
	return float32(n) / float32(k)
}
