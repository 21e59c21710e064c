package moria

import "slices"

// The Balin bot's paths: dwarves to their targets, wizards to the dwarves,
// and the issue order of the commands (see balin.go).

// Weights of the Balin bot.
const (
	balinNearBalrog    = 6    // cells within this Manhattan distance of the Balrog cost more
	balinBalrogCost    = 4    // extra cost of those cells
	balinTrollCost     = 8    // extra cost of a cell next to a troll
	balinEnemyCost     = 3    // extra cost of a cell holding an enemy unit (it must be captured first)
	balinOrcCost       = 4    // extra cost of a cell holding an orc
	balinOwnCost       = 1    // extra cost of a cell holding one of our units
	balinCaveValue     = 1.0  // a cave we do not own
	balinEnemyCave     = 1.3  // a cave an enemy owns (we gain, it loses)
	balinTreasure      = 11.0 // a treasure (and its cave)
	balinRockValue     = 0.8  // a rock next to the caves, to dig new ground
	balinCaptureValue  = 9.0  // an enemy dwarf to capture at the start of the game
	balinSearchLimit   = 80   // cost horizon of the dwarves' searches
	balinWizardLimit   = 24   // steps horizon of the wizards' search
	balinHealthyOffset = 6    // a wizard prefers a wounded dwarf this many steps farther
)

// costs computes the cost of entering every cell and the value of every
// target for this round. The kind of a cell picks its cost and value from
// small tables rather than by branches (the kinds of neighbouring cells
// follow no pattern a processor could predict).
func (bn *Balin) costs() {
	s := bn.s
	late := float32(bn.left) / float32(s.Cfg.NbRounds)
	capture := balinCaptureValue * (0.3 + late)
	// The value of a cave by its treasure and owner (ours, an enemy's,
	// nobody's), and of a rock by whether it is next to a cave.
	caveValue := [8]float32{0, balinEnemyCave, balinCaveValue, 0, balinTreasure, balinTreasure, balinTreasure, balinTreasure}
	var caves [Rows + 2]uint64 // the caves of row i-1, bit j for column j
	for i := range Rows {
		var row uint64
		for j := range Cols {
			row |= uint64(b2i(s.Cells[i*Cols+j].Type == Cave)) << j
		}
		caves[i+1] = row
	}
	for i := range Rows {
		di := absInt(i - bn.b.I)
		nearCave := caves[i+1]<<1 | caves[i+1]>>1 | caves[i] | caves[i+2]
		for j := range Cols {
			idx := i*Cols + j
			c := &s.Cells[idx]
			cave, rock := c.Type == Cave, c.Type == Rock
			cost := b2i(cave || c.Type == Outside) + b2i(rock)*(int(c.Turns)+1)
			if cost == 0 || bn.lethal[idx] {
				bn.enter[idx], bn.value[idx] = 0, 0
				continue
			}
			if di+absInt(j-bn.b.J) <= balinNearBalrog {
				cost += balinBalrogCost
			}
			if bn.trollAdj[idx] {
				cost += balinTrollCost
			}
			owner := int(c.Owner)
			kinds := [3]float32{
				0,
				caveValue[b2i(c.Treasure)<<2|b2i(owner < 0)<<1|b2i(owner >= 0 && owner != bn.me)],
				float32(nearCave>>j&1) * balinRockValue,
			}
			v := kinds[b2i(cave)+2*b2i(rock)]
			if id := c.ID; id >= 0 {
				u := &s.Units[id]
				switch {
				case u.Type == Troll || u.Type == Balrog || u.Pos.Index() != idx:
					bn.enter[idx], bn.value[idx] = 0, 0 // trolls, the Balrog and stale ids block
					continue
				case u.Player == bn.me:
					cost += balinOwnCost
				case u.Type == Orc:
					cost += balinOrcCost
				default:
					cost += balinEnemyCost
					w := capture
					if u.Type == Wizard {
						w *= 0.6
					}
					v += w
				}
			}
			bn.enter[idx] = int8(min(cost, maxEnter))
			bn.value[idx] = v
		}
	}
}

// moveDwarves sends every dwarf without an order to the best target of the
// cells it reaches first, or down the gradient towards the nearest target.
func (bn *Balin) moveDwarves() {
	s := bn.s
	if !bn.assign() {
		return
	}
	q := &bn.fwd
	var idle []int
	for k, id := range bn.dwarves {
		if bn.target[k] < 0 {
			idle = append(idle, id)
			continue
		}
		bn.step(id, q.firstStep(bn.target[k]))
	}
	if len(idle) == 0 {
		return
	}
	// The idle dwarves go down the gradient of the distance to any target.
	r := bn.targetSearch(nil, 0)
	for _, id := range idle {
		p := s.Units[id].Pos
		bestN, bestD := -1, unreached
		for d := Bottom; d < None; d++ {
			t := p.Add(d)
			if !t.OnBoard() {
				continue
			}
			ti := t.Index()
			if w := int32(bn.enter[ti]); w > 0 && r.dist[ti] < unreached && w+r.dist[ti] < bestD {
				bestN, bestD = ti, w+r.dist[ti]
			}
		}
		if bestN >= 0 {
			bn.step(id, bestN)
		}
	}
}

// assign runs the search from the dwarves without an order (bn.dwarves,
// in id order; bn.fwd) and gives each the best target of the cells it
// reaches first, value over distance (bn.target[k], -1 for none). It
// returns false when no dwarf is without an order.
func (bn *Balin) assign() bool {
	s := bn.s
	bn.dwarves = bn.dwarves[:0]
	q := &bn.fwd
	q.reset(&bn.enter)
	for _, id := range s.Dwarves[bn.me] {
		if !bn.busy[id] {
			q.source(s.Units[id].Pos.Index(), len(bn.dwarves))
			bn.dwarves = append(bn.dwarves, id)
		}
	}
	if len(bn.dwarves) == 0 {
		return false
	}
	limit := int32(min(balinSearchLimit, 2*bn.left+2))
	q.run(limit)
	best := append(bn.best[:0], make([]float32, len(bn.dwarves))...)
	target := bn.target[:0]
	for range bn.dwarves {
		target = append(target, -1)
	}
	bn.best, bn.target = best, target
	for idx, v := range bn.value {
		x := q.at(idx)
		d := x.dist
		if v == 0 || d == 0 || d == unreached || int(d) > bn.left+1 {
			continue
		}
		k := x.src
		if sc := v / float32(d+1); sc > best[k] {
			best[k], target[k] = sc, idx
		}
	}
	return true
}

// targetSearch runs the search from every target (a cell of a value)
// towards the walkers (bn.back): a cell's distance is the cost of walking
// from it to the nearest target. need, if not nil, marks the cells whose
// distances are wanted: the search stops once the count of them are
// known (the distances of the cells nearer than the last are final too).
func (bn *Balin) targetSearch(need *[NumCells]bool, count int) *search {
	r := &bn.back
	r.reset()
	for idx, v := range bn.value {
		if v > 0 && bn.enter[idx] > 0 {
			r.push(idx, 0, -1, 0)
		}
	}
	r.need, r.left = need, count
	r.run(&bn.enter, true, false, balinSearchLimit)
	r.need, r.left = nil, 0
	return r
}

// step orders dwarf id to act on its neighbour cell t: attack the unit
// there, dig the rock, or move in, if that is safe.
func (bn *Balin) step(id, t int) {
	s := bn.s
	u := &s.Units[id]
	from := u.Pos.Index()
	d := dirTo(from, t)
	if d == None {
		return
	}
	c := &s.Cells[t]
	switch {
	case c.ID >= 0 && s.Units[c.ID].Player == bn.me:
		// One of ours stands there: follow it if it moves away.
		if bn.safe(t) && bn.taken[t] != bn.stamp {
			bn.taken[t] = bn.stamp
			bn.add(id, d, orderMove, t)
		}
	case c.ID >= 0:
		bn.add(id, d, orderAttack, -1)
	case c.Type == Rock:
		if bn.safe(from) {
			bn.add(id, d, orderMove, -1)
		}
	case bn.safe(t) && bn.taken[t] != bn.stamp:
		bn.taken[t] = bn.stamp
		bn.add(id, d, orderMove, t)
	}
}

// wizardCosts sets the cost of a wizard's step into each cell: 1 onto a
// cave or outside cell out of danger that is empty or holds one of our
// units, else 0.
func (bn *Balin) wizardCosts() {
	s := bn.s
	for idx := range s.Cells {
		c := &s.Cells[idx]
		ok := (c.Type == Cave || c.Type == Outside) && bn.safe(idx) && (c.ID < 0 || s.Units[c.ID].Player == bn.me)
		bn.wenter[idx] = 0
		if ok {
			bn.wenter[idx] = 1
		}
	}
}

// moveWizards moves every wizard next to a wounded dwarf of ours, else next
// to any of our dwarves: one search from the cells next to our dwarves, those
// next to the healthy ones starting farther.
func (bn *Balin) moveWizards() {
	s := bn.s
	if len(s.Wizards[bn.me]) == 0 {
		return
	}
	r := bn.wizardSearch(nil, 0)
	for _, id := range s.Wizards[bn.me] {
		p := s.Units[id].Pos.Index()
		if bn.busy[id] || r.dist[p] == unreached {
			continue
		}
		bestN, bestD := -1, r.dist[p]
		for d := Bottom; d < None; d += 2 {
			t := PosOf(p).Add(d)
			if !t.OnBoard() {
				continue
			}
			ti := t.Index()
			if bn.wenter[ti] > 0 && s.Cells[ti].ID < 0 && bn.taken[ti] != bn.stamp && r.dist[ti] < bestD {
				bestN, bestD = ti, r.dist[ti]
			}
		}
		if bestN >= 0 {
			bn.taken[bestN] = bn.stamp
			bn.add(id, dirTo(p, bestN), orderMove, bestN)
		}
	}
}

// wizardSearch runs the wizards' search (bn.back): from the cells next to
// our dwarves, those next to the healthy ones starting farther. need and
// count as for targetSearch.
func (bn *Balin) wizardSearch(need *[NumCells]bool, count int) *search {
	s := bn.s
	bn.wizardCosts()
	r := &bn.back
	r.reset()
	for _, id := range s.Dwarves[bn.me] {
		u := &s.Units[id]
		start := int32(0)
		if u.Health >= DwarfHealth {
			start = balinHealthyOffset
		}
		for d := Bottom; d < None; d += 2 {
			if t := u.Pos.Add(d); t.OnBoard() && bn.wenter[t.Index()] > 0 {
				r.push(t.Index(), start, -1, 0)
			}
		}
	}
	r.need, r.left = need, count
	r.run(&bn.wenter, true, true, balinWizardLimit)
	r.need, r.left = nil, 0
	return r
}

// issue gives the orders: attacks, then flights, then moves, a move into
// a cell one of our units leaves after that unit's move.
func (bn *Balin) issue(o *Orders) {
	s := bn.s
	// Cells our moving units leave, and units already ordered.
	leaving, done := bn.leaving[:0], bn.done[:0]
	for _, x := range bn.orders {
		if x.kind != orderAttack && x.to >= 0 {
			leaving = append(leaving, s.Units[x.id].Pos.Index())
		}
	}
	isDone := func(id int) bool { return slices.Contains(done, id) }
	for kind := orderAttack; kind <= orderFlee; kind++ {
		for _, x := range bn.orders {
			if x.kind == kind {
				o.Command(x.id, x.dir)
				done = append(done, x.id)
			}
		}
	}
	for progress := true; progress; {
		progress = false
		for _, x := range bn.orders {
			if x.kind != orderMove || isDone(x.id) {
				continue
			}
			if x.to >= 0 && slices.Contains(leaving, x.to) {
				if vid := s.Cells[x.to].ID; vid >= 0 && !isDone(int(vid)) {
					continue // wait for the unit there to move first
				}
			}
			o.Command(x.id, x.dir)
			done = append(done, x.id)
			progress = true
		}
	}
	for _, x := range bn.orders {
		if x.kind == orderMove && !isDone(x.id) {
			o.Command(x.id, x.dir)
		}
	}
	bn.leaving, bn.done = leaving, done
}
