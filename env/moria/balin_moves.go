package moria

import (
	"math/bits"
	"slices"
)

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

// balinValues is the value of a cell as a target by its code (costs): its
// type (bits 0-2: a State holds the types Outside to Rock), treasure (bit
// 3), owner (bits 4-5: 0 our clan, 1 another clan, 2 nobody), whether a
// cave is next to it (bit 6; it counts for a rock), and whether no dwarf
// may enter it (bit 7: the cell's value is 0). The units on the cells add
// their own values (costs).
var balinValues = func() (t [256]float32) {
	for code := range t {
		typ, treasure, owner, nearCave := CellType(code&7), code>>3&1 == 1, code>>4&3, code>>6&1 == 1
		switch {
		case code>>7 == 1:
		case typ == Cave && treasure:
			t[code] = balinTreasure
		case typ == Cave && owner == 1:
			t[code] = balinEnemyCave
		case typ == Cave && owner == 2:
			t[code] = balinCaveValue
		case typ == Rock && nearCave:
			t[code] = balinRockValue
		}
	}
	return
}()

// balinValuable is 1 for the codes of balinValues > 0.
var balinValuable = func() (t [256]uint8) {
	for code, v := range balinValues {
		t[code] = uint8(b2i(v > 0))
	}
	return
}()

// balinWalk is 1 for the cell types a unit walks on (Cave, Outside).
var balinWalk = [8]int{Cave: 1, Outside: 1}

// maxBaseCost bounds the cost of entering a cell before the extra costs of
// danger and units (at most 16 together), so that no cost exceeds
// maxEnter.
const maxBaseCost = maxEnter - balinBalrogCost - balinTrollCost - balinOrcCost

// costs computes the cost of entering every cell (enter), the value of
// every target (value, valuable) and the cells a wizard may enter
// (wopen) for this round. The cells' own costs and values come first,
// kept between rounds (balinCells: only the cells that changed are done
// again); then the few cells near the Balrog or a troll, holding a unit,
// or deadly. costsCell is what it computes, cell by cell.
func (bn *Balin) costs() {
	s := bn.s
	me := bn.me
	bc := &bn.cells
	bc.update(s, me)
	if bc.hasHard() {
		// Rocks too hard for the sums below to stay within maxEnter.
		for idx := range s.Cells {
			bn.costsCell(idx)
		}
		return
	}
	bn.enter, bn.value = bc.enter, bc.value
	bn.valuable, bn.wopen = bc.valuable, bc.walk
	// Near the Balrog.
	for i := max(bn.b.I-balinNearBalrog, 0); i <= min(bn.b.I+balinNearBalrog, Rows-1); i++ {
		r := balinNearBalrog - absInt(i-bn.b.I)
		for j := max(bn.b.J-r, 0); j <= min(bn.b.J+r, Cols-1); j++ {
			if idx := i*Cols + j; bn.enter[idx] > 0 {
				bn.enter[idx] += balinBalrogCost
			}
		}
	}
	// Next to a troll (once for a cell next to several).
	for k, id := range s.Trolls {
		p := s.Units[id].Pos
		for i := max(p.I-1, 0); i <= min(p.I+1, Rows-1); i++ {
			for j := max(p.J-1, 0); j <= min(p.J+1, Cols-1); j++ {
				seen := false
				for _, id2 := range s.Trolls[:k] {
					q := s.Units[id2].Pos
					if i >= max(q.I-1, 0) && i <= min(q.I+1, Rows-1) && j >= max(q.J-1, 0) && j <= min(q.J+1, Cols-1) {
						seen = true
						break
					}
				}
				if idx := i*Cols + j; !seen && bn.enter[idx] > 0 {
					bn.enter[idx] += balinTrollCost
				}
				bn.wopen[i] &^= 1 << j
			}
		}
	}
	// The units (the cells naming one).
	late := float32(bn.left) / float32(s.Cfg.NbRounds)
	capture := balinCaptureValue * (0.3 + late)
	for i, r := range bc.unit {
		for ; r != 0; r &= r - 1 {
			j := bits.TrailingZeros64(r)
			idx := i*Cols + j
			u := &s.Units[s.Cells[idx].ID]
			if u.Player != me {
				bn.wopen[i] &^= 1 << j
			}
			if bn.enter[idx] == 0 {
				continue
			}
			switch {
			case u.Type == Troll || u.Type == Balrog || u.Pos.Index() != idx:
				bn.enter[idx], bn.value[idx] = 0, 0 // trolls, the Balrog and stale ids block
				bn.valuable[i] &^= 1 << j
			case u.Player == me:
				bn.enter[idx] += balinOwnCost
			case u.Type == Orc:
				bn.enter[idx] += balinOrcCost
			default:
				bn.enter[idx] += balinEnemyCost
				w := capture
				if u.Type == Wizard {
					w *= 0.6
				}
				bn.value[idx] += w
				bn.valuable[i] |= 1 << j
			}
		}
	}
	// Where the Balrog may kill.
	for _, d := range [5]Dir{None, Bottom, Right, Top, Left} {
		c := bn.b.Add(d)
		if !c.OnBoard() {
			continue
		}
		for i := max(c.I-1, 0); i <= min(c.I+1, Rows-1); i++ {
			for j := max(c.J-1, 0); j <= min(c.J+1, Cols-1); j++ {
				bn.enter[i*Cols+j], bn.value[i*Cols+j] = 0, 0
				bn.valuable[i] &^= 1 << j
				bn.wopen[i] &^= 1 << j
			}
		}
	}
}

// costsCell computes the cost of entering cell idx, its value and its
// bits of valuable and wopen, by the rules alone.
func (bn *Balin) costsCell(idx int) {
	s := bn.s
	c := &s.Cells[idx]
	i, j := idx/Cols, idx%Cols
	bn.enter[idx], bn.value[idx] = 0, 0
	bn.valuable[i] &^= 1 << j
	bn.wopen[i] &^= 1 << j
	if (c.Type == Cave || c.Type == Outside) && bn.safe(idx) && (c.ID < 0 || s.Units[c.ID].Player == bn.me) {
		bn.wopen[i] |= 1 << j
	}
	cost := 0
	switch c.Type {
	case Cave, Outside:
		cost = 1
	case Rock:
		cost = int(c.Turns) + 1
	}
	if cost == 0 || bn.lethal[idx] {
		return
	}
	p := PosOf(idx)
	if Manh(p, bn.b) <= balinNearBalrog {
		cost += balinBalrogCost
	}
	if bn.trollAdj[idx] {
		cost += balinTrollCost
	}
	var v float32
	if id := c.ID; id >= 0 {
		u := &s.Units[id]
		switch {
		case u.Type == Troll || u.Type == Balrog || u.Pos.Index() != idx:
			return // trolls, the Balrog and stale ids block
		case u.Player == bn.me:
			cost += balinOwnCost
		case u.Type == Orc:
			cost += balinOrcCost
		default:
			cost += balinEnemyCost
			late := float32(bn.left) / float32(s.Cfg.NbRounds)
			v = balinCaptureValue * (0.3 + late)
			if u.Type == Wizard {
				v *= 0.6
			}
		}
	}
	bn.enter[idx] = int8(min(cost, maxEnter))
	switch {
	case c.Type == Cave && c.Treasure:
		v += balinTreasure
	case c.Type == Cave && int(c.Owner) != bn.me && c.Owner >= 0:
		v += balinEnemyCave
	case c.Type == Cave && c.Owner < 0:
		v += balinCaveValue
	case c.Type == Rock && bn.nextToCave(p):
		v += balinRockValue
	}
	bn.value[idx] = v
	if v > 0 {
		bn.valuable[i] |= 1 << j
	}
}

func (bn *Balin) nextToCave(p Pos) bool {
	for d := Bottom; d < None; d += 2 {
		if t := p.Add(d); t.OnBoard() && bn.s.Cells[t.Index()].Type == Cave {
			return true
		}
	}
	return false
}

// moveDwarves sends every dwarf without an order to the best target of the
// cells it reaches first, or down the gradient towards the nearest target.
func (bn *Balin) moveDwarves() {
	s := bn.s
	if !bn.assign() {
		return
	}
	q := &bn.fwd
	idle := bn.idle[:0]
	for k, id := range bn.dwarves {
		if bn.target[k] < 0 {
			idle = append(idle, id)
			continue
		}
		bn.step(id, q.firstStep(bn.target[k]))
	}
	bn.idle = idle
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
	// The cells beyond left+1 are no targets: the search need not pop
	// them (search.run's limit, min(balinSearchLimit, 2*left+2), is no
	// less, and the cells it reaches up to left+1 are the same).
	q.run(int32(min(balinSearchLimit, bn.left+1)))
	best := append(bn.best[:0], make([]float32, len(bn.dwarves))...)
	target := bn.target[:0]
	for range bn.dwarves {
		target = append(target, -1)
	}
	bn.best, bn.target = best, target
	// The cells of a value the search reached, in index order.
	for i := range Rows {
		for m := bn.valuable[i]; m != 0; m &= m - 1 {
			idx := i*Cols + bits.TrailingZeros64(m)
			p := padOf[idx]
			if q.cost[p] != 0 {
				continue // not reached
			}
			x := q.node[p]
			d := x.dist()
			if d == 0 || int(d) > bn.left+1 {
				continue
			}
			k := x.src()
			if sc := bn.value[idx] / float32(d+1); sc > best[k] {
				best[k], target[k] = sc, idx
			}
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
			r.push(idx, 0)
		}
	}
	r.need, r.left = need, count
	r.run(&bn.enter, false, balinSearchLimit)
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
				r.push(t.Index(), start)
			}
		}
	}
	r.need, r.left = need, count
	r.run(&bn.wenter, true, balinWizardLimit)
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
			if x.kind != orderMove || slices.Contains(done, x.id) {
				continue
			}
			if x.to >= 0 && slices.Contains(leaving, x.to) {
				if vid := s.Cells[x.to].ID; vid >= 0 && !slices.Contains(done, int(vid)) {
					continue // wait for the unit there to move first
				}
			}
			o.Command(x.id, x.dir)
			done = append(done, x.id)
			progress = true
		}
	}
	for _, x := range bn.orders {
		if x.kind == orderMove && !slices.Contains(done, x.id) {
			o.Command(x.id, x.dir)
		}
	}
	bn.leaving, bn.done = leaving, done
}
