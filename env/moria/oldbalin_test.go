package moria

// The targets tensor and the Balin bot as they were before they were made
// faster (main at 1f52253: balin.go, balin_moves.go, balin_search.go and
// targets.go; the names of the code prefixed with old, its comments as
// they were): the reference the new code must equal byte for byte
// (targets_ref_test.go). Only the tests use it.

import "slices"

// oldObserver holds the old Targets' scratch space.
type oldObserver struct{ targets *oldTargetSearches }

// ---- from balin.go ----

// oldBalin is the strong scripted bot of jgym for Moria, the bot a learner has
// to beat (named after the dwarf lord who led his folk back into Moria).
// Every round it:
//
//  1. marks the danger: the cells where the Balrog may kill this round
//     (within one cell of any cell it may step to) and the cells next to a
//     troll; the units standing there flee to the free neighbour farthest
//     from the Balrog, out of danger if they can;
//  2. lets every other dwarf next to an enemy dwarf or wizard attack it, the
//     weakest first, so that several dwarves capture it together (a
//     captured unit is reborn in Balin's clan); healthy dwarves also hit
//     adjacent orcs, which would unconquer its caves;
//  3. runs one multi-source Dijkstra from all its other dwarves over the
//     board (walking costs 1, digging a rock its hits left + 1, enemy units
//     and the cells near the Balrog or a troll cost more, granite, abysses,
//     trolls and this round's deadly cells block): each dwarf
//     owns the cells it reaches first and heads for the best target of its
//     region, value over distance, where a cave it does not own is worth
//     1, a treasure 11, an enemy unit to capture more early in the game;
//  4. sends the dwarves whose region holds no target down the gradient of
//     a second search from all targets;
//  5. moves its wizards next to its wounded dwarves (else next to any
//     dwarf), to heal them at the end of the round;
//  6. issues the attacks first, then the flights, then the moves, ordered
//     so that a dwarf leaves a cell before another steps in.
//
// It draws no random numbers: its orders depend only on the state.
type oldBalin struct {
	me   int
	s    *State
	b    Pos // the Balrog
	left int // rounds left after this one

	lethal   [NumCells]bool // ending the round here may be deadly (the Balrog)
	trollAdj [NumCells]bool // next to a troll
	enter    [NumCells]int8 // cost of a dwarf entering the cell, 0 if impossible
	wenter   [NumCells]int8 // cost of a wizard entering the cell
	value    [NumCells]float32
	taken    [NumCells]uint32 // stamp: a cell one of our units moves into
	stamp    uint32

	fwd, back oldSearch
	dwarves   []int // our dwarves that still need an order, in id order
	orders    []oldBalinOrder
	busy      []bool // per unit id: ordered this round
	best      []float32
	target    []int
	leaving   []int
	done      []int
}

// oldBalinOrder is one order with its kind, for the issue order.
type oldBalinOrder struct {
	id   int
	dir  Dir
	kind int // orderAttack, orderFlee, orderMove
	to   int // the cell entered (moves), -1 otherwise
}

// Play gives Balin's orders for one round.
func (bn *oldBalin) Play(s *State, o *Orders) {
	bn.prepare(s)
	bn.moveDwarves()
	bn.moveWizards()
	bn.issue(o)
}

// prepare starts a round of state s: the danger, the flights, the attacks
// (the units they order are busy) and the costs and values of the cells.
// The targets tensor (targets.go) runs it too.
func (bn *oldBalin) prepare(s *State) {
	bn.s = s
	bn.b = s.Units[s.BalrogID].Pos
	bn.left = s.Cfg.NbRounds - s.Round - 1
	if len(bn.busy) != len(s.Units) {
		bn.busy = make([]bool, len(s.Units))
	}
	clear(bn.busy)
	if bn.stamp++; bn.stamp == 0 {
		clear(bn.taken[:])
		bn.stamp = 1
	}
	bn.orders = bn.orders[:0]
	bn.markDanger()
	bn.flee()
	bn.attacks()
	bn.costs()
}

// markDanger marks the cells where the Balrog may kill this round and the
// cells next to trolls.
func (bn *oldBalin) markDanger() {
	s := bn.s
	clear(bn.lethal[:])
	clear(bn.trollAdj[:])
	// The Balrog steps to B or an orthogonal neighbour, then kills every
	// unit within one cell; a unit stepping next to it dies at once.
	for _, d := range [5]Dir{None, Bottom, Right, Top, Left} {
		c := bn.b.Add(d)
		if !c.OnBoard() {
			continue
		}
		for i := max(c.I-1, 0); i <= min(c.I+1, Rows-1); i++ {
			for j := max(c.J-1, 0); j <= min(c.J+1, Cols-1); j++ {
				bn.lethal[i*Cols+j] = true
			}
		}
	}
	for _, id := range s.Trolls {
		p := s.Units[id].Pos
		for i := max(p.I-1, 0); i <= min(p.I+1, Rows-1); i++ {
			for j := max(p.J-1, 0); j <= min(p.J+1, Cols-1); j++ {
				bn.trollAdj[i*Cols+j] = true
			}
		}
	}
}

// safe reports whether a unit may end the round on cell idx.
func (bn *oldBalin) safe(idx int) bool { return !bn.lethal[idx] && !bn.trollAdj[idx] }

// enemyAt returns the enemy dwarf or wizard on cell idx, or nil.
func (bn *oldBalin) enemyAt(idx int) *Unit {
	id := bn.s.Cells[idx].ID
	if id < 0 {
		return nil
	}
	u := &bn.s.Units[id]
	if (u.Type == Dwarf || u.Type == Wizard) && u.Player != bn.me && u.Pos.Index() == idx {
		return u
	}
	return nil
}

// attacks lets the dwarves next to enemy dwarves and wizards (and, when
// healthy, orcs) attack them, weakest first.
func (bn *oldBalin) attacks() {
	s := bn.s
	for _, id := range s.Dwarves[bn.me] {
		u := &s.Units[id]
		if bn.lethal[u.Pos.Index()] || bn.trollAdj[u.Pos.Index()] {
			continue // fleeing comes first
		}
		best, bestHP := None, 1<<30
		for d := Bottom; d < None; d++ {
			t := u.Pos.Add(d)
			if !t.OnBoard() {
				continue
			}
			ti := t.Index()
			hp := 1 << 30
			if v := bn.enemyAt(ti); v != nil {
				hp = v.Health
			} else if vid := s.Cells[ti].ID; vid >= 0 && s.Units[vid].Type == Orc && u.Health > 45 {
				hp = 1000 + s.Units[vid].Health // orcs after clan units
			}
			if hp < bestHP {
				best, bestHP = d, hp
			}
		}
		if best != None {
			bn.add(id, best, orderAttack, -1)
		}
	}
}

// flee moves the units standing where they may die this round to the
// safest neighbour, away from the Balrog.
func (bn *oldBalin) flee() {
	s := bn.s
	for _, list := range [2][]int{s.Dwarves[bn.me], s.Wizards[bn.me]} {
		for _, id := range list {
			bn.flee1(id)
		}
	}
}

// flee1 moves unit id out of danger, if it is in danger, to the free
// neighbour farthest from the Balrog, a safe one if it can.
func (bn *oldBalin) flee1(id int) {
	s := bn.s
	u := &s.Units[id]
	if bn.busy[id] || bn.safe(u.Pos.Index()) {
		return
	}
	best, bestScore := None, -1<<30
	for d := Bottom; d < None; d++ {
		if u.Type == Wizard && d.Diagonal() {
			continue
		}
		t := u.Pos.Add(d)
		if !t.OnBoard() {
			continue
		}
		ti := t.Index()
		c := &s.Cells[ti]
		if c.ID >= 0 || (c.Type != Cave && c.Type != Outside) || bn.taken[ti] == bn.stamp || Cheb(t, bn.b) <= 1 {
			continue
		}
		score := 4 * Manh(t, bn.b)
		if bn.lethal[ti] {
			score -= 1000
		}
		if bn.trollAdj[ti] {
			score -= 500
		}
		if score > bestScore {
			best, bestScore = d, score
		}
	}
	if best != None {
		t := u.Pos.Add(best).Index()
		bn.taken[t] = bn.stamp
		bn.add(id, best, orderFlee, t)
	}
}

func (bn *oldBalin) add(id int, d Dir, kind, to int) {
	bn.busy[id] = true
	bn.orders = append(bn.orders, oldBalinOrder{id: id, dir: d, kind: kind, to: to})
}

// ---- from balin_moves.go ----

// The Balin bot's paths: dwarves to their targets, wizards to the dwarves,
// and the issue order of the commands (see balin.go).

// costs computes the cost of entering every cell and the value of every
// target for this round.
func (bn *oldBalin) costs() {
	s := bn.s
	late := float32(bn.left) / float32(s.Cfg.NbRounds)
	for idx := range s.Cells {
		c := &s.Cells[idx]
		bn.value[idx] = 0
		cost := 0
		switch c.Type {
		case Cave, Outside:
			cost = 1
		case Rock:
			cost = int(c.Turns) + 1
		}
		if cost == 0 || bn.lethal[idx] {
			bn.enter[idx] = 0
			continue
		}
		p := PosOf(idx)
		if Manh(p, bn.b) <= balinNearBalrog {
			cost += balinBalrogCost
		}
		if bn.trollAdj[idx] {
			cost += balinTrollCost
		}
		if id := c.ID; id >= 0 {
			u := &s.Units[id]
			switch {
			case u.Type == Troll || u.Type == Balrog || u.Pos.Index() != idx:
				cost = 0 // trolls, the Balrog and stale ids block
			case u.Player == bn.me:
				cost += balinOwnCost
			case u.Type == Orc:
				cost += balinOrcCost
			default:
				cost += balinEnemyCost
				v := balinCaptureValue * (0.3 + late)
				if u.Type == Wizard {
					v *= 0.6
				}
				bn.value[idx] = v
			}
		}
		bn.enter[idx] = int8(min(cost, maxEnter))
		if cost == 0 {
			continue
		}
		switch {
		case c.Type == Cave && c.Treasure:
			bn.value[idx] += balinTreasure
		case c.Type == Cave && int(c.Owner) != bn.me && c.Owner >= 0:
			bn.value[idx] += balinEnemyCave
		case c.Type == Cave && c.Owner < 0:
			bn.value[idx] += balinCaveValue
		case c.Type == Rock && bn.nextToCave(p):
			bn.value[idx] += balinRockValue
		}
	}
}

func (bn *oldBalin) nextToCave(p Pos) bool {
	for d := Bottom; d < None; d += 2 {
		if t := p.Add(d); t.OnBoard() && bn.s.Cells[t.Index()].Type == Cave {
			return true
		}
	}
	return false
}

// moveDwarves sends every dwarf without an order to the best target of the
// cells it reaches first, or down the gradient towards the nearest target.
func (bn *oldBalin) moveDwarves() {
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
func (bn *oldBalin) assign() bool {
	s := bn.s
	bn.dwarves = bn.dwarves[:0]
	q := &bn.fwd
	q.reset()
	for _, id := range s.Dwarves[bn.me] {
		if !bn.busy[id] {
			q.push(s.Units[id].Pos.Index(), 0, -1, len(bn.dwarves))
			bn.dwarves = append(bn.dwarves, id)
		}
	}
	if len(bn.dwarves) == 0 {
		return false
	}
	limit := int32(min(balinSearchLimit, 2*bn.left+2))
	q.run(&bn.enter, false, false, limit)
	best := append(bn.best[:0], make([]float32, len(bn.dwarves))...)
	target := bn.target[:0]
	for range bn.dwarves {
		target = append(target, -1)
	}
	bn.best, bn.target = best, target
	for idx, v := range bn.value {
		d := q.dist[idx]
		if v == 0 || d == 0 || d == unreached || int(d) > bn.left+1 {
			continue
		}
		k := q.src[idx]
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
func (bn *oldBalin) targetSearch(need *[NumCells]bool, count int) *oldSearch {
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
func (bn *oldBalin) step(id, t int) {
	s := bn.s
	u := &s.Units[id]
	from := u.Pos.Index()
	d := oldDirTo(from, t)
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
func (bn *oldBalin) wizardCosts() {
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
func (bn *oldBalin) moveWizards() {
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
			bn.add(id, oldDirTo(p, bestN), orderMove, bestN)
		}
	}
}

// wizardSearch runs the wizards' search (bn.back): from the cells next to
// our dwarves, those next to the healthy ones starting farther. need and
// count as for targetSearch.
func (bn *oldBalin) wizardSearch(need *[NumCells]bool, count int) *oldSearch {
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
func (bn *oldBalin) issue(o *Orders) {
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

// ---- from balin_search.go ----

// Shortest paths for the Balin bot: Dijkstra over the board with small
// integer costs (walking 1, digging a rock its hits left + 1, penalties
// near danger), with a bucket queue (Dial's algorithm).

// oldSearch is one Dijkstra run over the board.
type oldSearch struct {
	dist    [NumCells]int32
	parent  [NumCells]int16 // previous cell of the path, -1 at a source
	src     [NumCells]int16 // source that reached the cell (an index given by the caller)
	buckets [costBuckets][]int16
	n       int             // cells queued and not popped
	need    *[NumCells]bool // with left > 0: run stops once left of these are popped
	left    int
}

func (q *oldSearch) reset() {
	for i := range q.dist {
		q.dist[i] = unreached
	}
	for b := range q.buckets {
		q.buckets[b] = q.buckets[b][:0]
	}
	q.n = 0
}

func (q *oldSearch) push(idx int, d int32, parent, src int) {
	if d >= q.dist[idx] {
		return
	}
	q.dist[idx], q.parent[idx], q.src[idx] = d, int16(parent), int16(src)
	b := &q.buckets[d%costBuckets]
	*b = append(*b, int16(idx))
	q.n++
}

// run pops cells in increasing distance. enter[idx] is the cost of
// stepping into cell idx (0: impossible); orth allows only orthogonal
// steps. With reverse, the search runs from the targets towards the
// walkers: a popped cell's neighbours get its distance plus its own cost
// of entering. limit stops the search at that distance; so does the last
// of the q.left cells of q.need when it is popped.
func (q *oldSearch) run(enter *[NumCells]int8, reverse, orth bool, limit int32) {
	step := Dir(1)
	if orth {
		step = 2
	}
	for d := int32(0); q.n > 0 && d <= limit; d++ {
		b := &q.buckets[d%costBuckets]
		for k := 0; k < len(*b); k++ {
			idx := int((*b)[k])
			q.n--
			if q.dist[idx] != d {
				continue // a stale entry
			}
			if q.left > 0 && q.need[idx] {
				if q.left--; q.left == 0 {
					return
				}
			}
			w := int32(enter[idx])
			if reverse && w == 0 {
				continue // nobody steps in here
			}
			src := int(q.src[idx])
			i, j := idx/Cols, idx%Cols
			if i > 0 && i < Rows-1 && j > 0 && j < Cols-1 {
				// Every neighbour is on the board: the same steps, in the
				// same order, without the bounds.
				for dir := Bottom; dir < None; dir += step {
					n := idx + dirDelta[dir]
					if !reverse {
						if w = int32(enter[n]); w == 0 {
							continue
						}
					}
					q.push(n, d+w, idx, src)
				}
				continue
			}
			for dir := Bottom; dir < None; dir += step {
				a, c := i+dirDI[dir], j+dirDJ[dir]
				if a < 0 || a >= Rows || c < 0 || c >= Cols {
					continue
				}
				n := a*Cols + c
				if !reverse {
					if w = int32(enter[n]); w == 0 {
						continue
					}
				}
				q.push(n, d+w, idx, src)
			}
		}
		*b = (*b)[:0]
	}
}

// firstStep returns the cell after the source on the path to idx (the
// source itself when idx is a source).
func (q *oldSearch) firstStep(idx int) int {
	for {
		p := int(q.parent[idx])
		if p < 0 || q.parent[p] < 0 {
			return idx
		}
		idx = p
	}
}

// oldDirTo returns the direction from cell a to its neighbour b.
func oldDirTo(a, b int) Dir {
	for d := Bottom; d < None; d++ {
		if a+dirDelta[d] == b && absInt(a%Cols-b%Cols) <= 1 {
			return d
		}
	}
	return None
}

// ---- from targets.go ----

// The targets tensor of moria-obs-2 (docs/observation.md): for each unit
// of the observing clan, the steps that Balin's searches (balin.go,
// balin_moves.go) find towards what Balin sends units to. The board
// tensor shows a network the cells around a unit; Balin's choice depends
// on the whole board: the value of every target (caves not ours,
// treasures, rocks next to the caves, enemy units to capture), the costs
// of the way there (digging, danger, units in the way), and which of our
// dwarves reaches each cell first (each dwarf heads for the best target of
// its own region). These are computed by Balin's own code (prepare,
// assign, targetSearch, wizardSearch), from the observing clan's seat.

// oldTargetSearches is the Observer's scratch space for the targets tensor:
// a Balin of the observing clan and the cells of its dwarves.
type oldTargetSearches struct {
	bn   oldBalin
	need [NumCells]bool
}

// Targets writes the targets tensor, bool [U, TargetFeatures], of clan me
// into dst (len U*TargetFeatures): for each dwarf and wizard of me, per
// target kind (TargetAssigned ...), the steps towards it and the bands of
// its cost; the other slots are all false.
func oldTargets(ob *oldObserver, s *State, me int, dst []byte) {
	n := NumSlots(s.Cfg)
	dst = dst[:n*TargetFeatures]
	clear(dst)
	if len(s.Dwarves[me])+len(s.Wizards[me]) == 0 {
		return
	}
	if ob.targets == nil {
		ob.targets = new(oldTargetSearches)
	}
	ts := ob.targets
	bn := &ts.bn
	bn.me = me
	bn.prepare(s)
	group := func(id, kind int) []byte {
		at := id*TargetFeatures + kind*TargetColumns
		return dst[at : at+TargetColumns]
	}
	bands := func(g []byte, cost int32) {
		g[TargetNear2] = b2u(cost <= 2)
		g[TargetNear6] = b2u(cost <= 6)
		g[TargetNear15] = b2u(cost <= 15)
	}
	if bn.assign() {
		q := &bn.fwd
		for k, id := range bn.dwarves {
			if t := bn.target[k]; t >= 0 {
				g := group(id, TargetAssigned)
				g[oldDirTo(s.Units[id].Pos.Index(), q.firstStep(t))] = 1
				bands(g, q.dist[t])
			}
		}
	}
	if len(s.Dwarves[me]) > 0 {
		for _, id := range s.Dwarves[me] {
			ts.need[s.Units[id].Pos.Index()] = true
		}
		r := bn.targetSearch(&ts.need, 1*len(s.Dwarves[me]))
		for _, id := range s.Dwarves[me] {
			p := s.Units[id].Pos
			here := p.Index()
			ts.need[here] = false
			cur := r.dist[here]
			if cur == unreached || cur == 0 {
				continue
			}
			g := group(id, TargetAny)
			bands(g, cur)
			for d := Bottom; d < None; d++ {
				t := p.Add(d)
				if !t.OnBoard() {
					continue
				}
				ti := t.Index()
				if w := int32(bn.enter[ti]); w > 0 && r.dist[ti] < unreached && w+r.dist[ti] == cur {
					g[d] = 1
				}
			}
		}
	}
	if len(s.Wizards[me]) > 0 {
		for _, id := range s.Wizards[me] {
			ts.need[s.Units[id].Pos.Index()] = true
		}
		r := bn.wizardSearch(&ts.need, 1*len(s.Wizards[me]))
		for _, id := range s.Wizards[me] {
			p := s.Units[id].Pos
			ts.need[p.Index()] = false
			cur := r.dist[p.Index()]
			if cur == unreached {
				continue
			}
			g := group(id, TargetHeal)
			bands(g, cur)
			for d := Bottom; d < None; d += 2 {
				t := p.Add(d)
				if !t.OnBoard() {
					continue
				}
				ti := t.Index()
				if bn.wenter[ti] > 0 && s.Cells[ti].ID < 0 && r.dist[ti] < cur {
					g[d] = 1
				}
			}
		}
	}
}

func oldB2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
