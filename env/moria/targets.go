package moria

// The targets tensor of moria-obs-2 (docs/observation.md): for each unit
// of the observing clan, the steps that Balin's searches (balin.go,
// balin_moves.go) find towards what Balin sends units to. The board
// tensor shows a network the cells around a unit; Balin's choice depends
// on the whole board: the value of every target (caves not ours,
// treasures, rocks next to the caves, enemy units to capture), the costs
// of the way there (digging, danger, units in the way), and which of our
// dwarves reaches each cell first (each dwarf heads for the best target of
// its own region). These are computed by Balin's own code (prepare and
// assign) from the observing clan's seat, and by two searches of this
// file that give what Balin's searches from the targets (targetSearch,
// wizardSearch) would: a search from each dwarf to its nearest target
// (anySearch), and the wizards' search on bitboards (healSearch).

// Target kinds of the targets tensor, in the order of its column groups.
const (
	// TargetAssigned (dwarves): the first step of Balin's path to the
	// best target (value over cost) of the cells the dwarf reaches before
	// the clan's other dwarves; none for a dwarf Balin orders to flee or
	// attack, or whose region holds no target.
	TargetAssigned = iota
	// TargetAny (dwarves): the steps on a cheapest way to the nearest
	// target of any kind (Balin's search from all targets, which leads
	// the dwarves whose region holds none).
	TargetAny
	// TargetHeal (wizards): the orthogonal steps onto a free cell nearer
	// Balin's wizard sources (the cells next to the clan's dwarves, the
	// wounded ones first).
	TargetHeal
	// NumTargetKinds is the number of target kinds.
	NumTargetKinds
)

// Columns of one target kind's group in the targets tensor: the eight
// steps (Bottom .. LB, as Dir), then three bands of the cost.
const (
	TargetNear2   = 8  // the cost of the way is at most 2
	TargetNear6   = 9  // at most 6
	TargetNear15  = 10 // at most 15
	TargetColumns = 11 // columns per target kind
	// TargetFeatures is the number of columns of the targets tensor.
	TargetFeatures = NumTargetKinds * TargetColumns
)

// targetsStopEarly lets the searches from the targets stop once every
// unit of the clan is reached (the tensor is the same either way:
// TestTargetsStopEarly). With it, TargetAny and TargetHeal come from the
// cheaper searches below (anySearch, healSearch), which give the same
// bytes (TestTargetsEqualOld: the old code, Balin's searches that stop
// early); without it, from Balin's searches run to their limits.
var targetsStopEarly = true

// targetSearches is the Observer's scratch space for the targets tensor:
// a Balin of the observing clan, the cells of its dwarves, and the
// searches of TargetAny and TargetHeal.
type targetSearches struct {
	bn   Balin
	need [NumCells]bool
	any  anySearch
	heal healSearch
}

// Targets writes the targets tensor, bool [U, TargetFeatures], of clan me
// into dst (len U*TargetFeatures): for each dwarf and wizard of me, per
// target kind (TargetAssigned ...), the steps towards it and the bands of
// its cost; the other slots are all false.
func (ob *Observer) Targets(s *State, me int, dst []byte) {
	n := NumSlots(s.Cfg)
	dst = dst[:n*TargetFeatures]
	clear(dst)
	if len(s.Dwarves[me])+len(s.Wizards[me]) == 0 {
		return
	}
	if ob.targets == nil {
		ob.targets = new(targetSearches)
	}
	ts := ob.targets
	bn := &ts.bn
	bn.me = me
	bn.prepare(s)
	group := func(id, kind int) []byte {
		at := id*TargetFeatures + kind*TargetColumns
		return dst[at : at+TargetColumns]
	}
	if bn.assign() {
		q := &bn.fwd
		for k, id := range bn.dwarves {
			if t := bn.target[k]; t >= 0 {
				g := group(id, TargetAssigned)
				g[dirTo(s.Units[id].Pos.Index(), q.firstStep(t))] = 1
				targetBands(g, q.dist(t))
			}
		}
	}
	if len(s.Dwarves[me]) > 0 {
		ts.anyTargets(s, me, group)
	}
	if len(s.Wizards[me]) > 0 {
		if targetsStopEarly {
			ts.heal.healTargets(bn, s, me, group)
		} else {
			ts.healFull(s, me, group)
		}
	}
}

// targetBands sets the three bands of a cost in target group g.
func targetBands(g []byte, cost int32) {
	g[TargetNear2] = b2u(cost <= 2)
	g[TargetNear6] = b2u(cost <= 6)
	g[TargetNear15] = b2u(cost <= 15)
}

// anyTargets writes TargetAny for the dwarves of me: their steps from
// anySearch, and those it leaves (its budget spent, or a cost beyond
// Balin's limit) from Balin's search from all targets, which stops once
// it has reached them.
func (ts *targetSearches) anyTargets(s *State, me int, group func(id, kind int) []byte) {
	bn := &ts.bn
	as := &ts.any
	as.budget = anyBudget
	count := 0
	for _, id := range s.Dwarves[me] {
		here := s.Units[id].Pos.Index()
		if targetsStopEarly {
			if cur, steps, ok := as.steps(bn, here); ok {
				if cur != unreached && cur != 0 {
					g := group(id, TargetAny)
					targetBands(g, cur)
					for d := Bottom; d < None; d++ {
						g[d] = uint8(steps>>d) & 1
					}
				}
				continue
			}
		}
		ts.need[here] = true
		count++
	}
	if count == 0 {
		return
	}
	r := bn.targetSearch(&ts.need, b2i(targetsStopEarly)*count)
	for _, id := range s.Dwarves[me] {
		p := s.Units[id].Pos
		here := p.Index()
		if !ts.need[here] {
			continue
		}
		ts.need[here] = false
		cur := r.dist[here]
		if cur == unreached || cur == 0 {
			continue
		}
		g := group(id, TargetAny)
		targetBands(g, cur)
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

// healFull writes TargetHeal from Balin's wizards' search run to its
// limit (what healSearch must equal: TestTargetsStopEarly).
func (ts *targetSearches) healFull(s *State, me int, group func(id, kind int) []byte) {
	bn := &ts.bn
	r := bn.wizardSearch(nil, 0)
	writeHeal(s, me, group, func(i int) int32 { return r.dist[i] }, func(i int) bool { return bn.wenter[i] > 0 })
}

// writeHeal writes TargetHeal for each wizard of me from a search's
// distances to Balin's wizard sources (dist of a cell's index) and the
// cells a wizard may enter (open): the bands of its distance, and the
// orthogonal steps onto a free open cell nearer the sources.
func writeHeal(s *State, me int, group func(id, kind int) []byte, dist func(int) int32, open func(int) bool) {
	for _, id := range s.Wizards[me] {
		p := s.Units[id].Pos
		cur := dist(p.Index())
		if cur == unreached {
			continue
		}
		g := group(id, TargetHeal)
		targetBands(g, cur)
		for d := Bottom; d < None; d += 2 {
			t := p.Add(d)
			if !t.OnBoard() {
				continue
			}
			ti := t.Index()
			if open(ti) && s.Cells[ti].ID < 0 && dist(ti) < cur {
				g[d] = 1
			}
		}
	}
}

// anyBudget bounds the cells anySearch may settle per tensor; the dwarves
// left then go to Balin's search from all targets, which settles most of
// the board. Seat 0 of games of seeds 1-3 needed 127 cells a tensor on
// average (at most 254) as a Demo, 1,259 (at most 8,209) as a Balin
// (TestTargetsSearchSizes).
const anyBudget = 6000

// anySearch finds TargetAny for one dwarf at a time: a Dijkstra from the
// dwarf's cell over Balin's costs (entering a cell costs bn.enter) that
// stops at the nearest target. Balin's search runs the other way, from
// every target (a walker pays the cells it enters), and settles most of
// the board before the last dwarf; the dwarf's own search settles only
// the cells nearer to it than its nearest target, usually a few. Each
// cell carries the set of first steps (directions from the dwarf) of its
// cheapest ways: the steps of TargetAny are those of the nearest targets.
type anySearch struct {
	stamp   uint32
	seen    [NumCells]uint32 // == stamp: dist and first hold this search's
	dist    [NumCells]int32
	first   [NumCells]uint8 // bit d: a cheapest way starts with step d
	buckets [costBuckets][]int16
	last    int32 // the greatest cost queued since the buckets were emptied
	budget  int   // cells the searches may still settle
}

// steps returns the cost of the cheapest way from cell from to a target
// (a cell of value; 0 when from is one, unreached when none is reachable)
// and the first steps of the cheapest ways (bit d for direction d): the
// cost and steps Balin's search from all targets gives. ok is false when
// the search gave up: its budget spent, or the cost beyond Balin's limit
// (where Balin's search leaves distances it has not settled).
func (as *anySearch) steps(bn *Balin, from int) (cur int32, steps uint8, ok bool) {
	if bn.value[from] > 0 {
		return 0, 0, true // a target (its cost of entering is not 0)
	}
	// A neighbour of value that costs 1 to enter: no way costs less, and
	// the targets at cost 1 are those neighbours. This spends one cell of
	// the budget, where the search below would spend one for each cell it
	// pops at cost 1 up to the first target; the budget only sends the
	// dwarves left to Balin's search, which gives the same steps.
	fi, fj := from/Cols, from%Cols
	for d := Bottom; d < None; d++ {
		a, c := fi+dirDI[d], fj+dirDJ[d]
		if a < 0 || a >= Rows || c < 0 || c >= Cols {
			continue
		}
		if n := a*Cols + c; bn.enter[n] == 1 && bn.value[n] > 0 {
			steps |= 1 << d
		}
	}
	if steps != 0 {
		if as.budget <= 0 {
			return 0, 0, false
		}
		as.budget--
		return 1, steps, true
	}
	if as.stamp++; as.stamp == 0 {
		clear(as.seen[:])
		as.stamp = 1
	}
	stamp := as.stamp
	for b := range min(as.last+1, costBuckets) {
		as.buckets[b] = as.buckets[b][:0]
	}
	as.last = 0
	as.seen[from], as.dist[from] = stamp, 0
	queued := 0
	push := func(n int, d int32, first uint8) {
		if as.seen[n] == stamp {
			switch {
			case d > as.dist[n]:
				return
			case d == as.dist[n]:
				as.first[n] |= first
				return
			}
		}
		as.seen[n], as.dist[n], as.first[n] = stamp, d, first
		as.last = max(as.last, d)
		b := &as.buckets[d%costBuckets]
		*b = append(*b, int16(n))
		queued++
	}
	for d := Bottom; d < None; d++ {
		a, c := fi+dirDI[d], fj+dirDJ[d]
		if a < 0 || a >= Rows || c < 0 || c >= Cols {
			continue
		}
		n := a*Cols + c
		if w := int32(bn.enter[n]); w > 0 {
			push(n, w, 1<<d)
		}
	}
	for d := int32(1); queued > 0; d++ {
		if d > balinSearchLimit || as.budget <= 0 {
			return 0, 0, false
		}
		b := &as.buckets[d%costBuckets]
		for k := 0; k < len(*b); k++ {
			idx := int((*b)[k])
			queued--
			if as.dist[idx] != d {
				continue // a stale entry
			}
			as.budget--
			if bn.value[idx] > 0 {
				// The nearest targets: every cell of this bucket at cost
				// d is settled; gather the first steps of those of value.
				for _, x := range *b {
					if as.dist[x] == d && bn.value[x] > 0 {
						steps |= as.first[x]
					}
				}
				return d, steps, true
			}
			first := as.first[idx]
			i, j := idx/Cols, idx%Cols
			if i > 0 && i < Rows-1 && j > 0 && j < Cols-1 {
				// Every neighbour is on the board: the same steps, in
				// the same order, without the bounds.
				for dir := Bottom; dir < None; dir++ {
					n := idx + dirDelta[dir]
					if w := int32(bn.enter[n]); w > 0 {
						push(n, d+w, first)
					}
				}
				continue
			}
			for dir := Bottom; dir < None; dir++ {
				a, c := i+dirDI[dir], j+dirDJ[dir]
				if a < 0 || a >= Rows || c < 0 || c >= Cols {
					continue
				}
				n := a*Cols + c
				if w := int32(bn.enter[n]); w > 0 {
					push(n, d+w, first)
				}
			}
		}
		*b = (*b)[:0]
	}
	return unreached, 0, true // no target reachable
}

// healSearch is TargetHeal's search: Balin's wizards' search (wizardSearch)
// as a breadth-first search over bitboards, a row of the board per word,
// which gives the same distances: every step costs 1, and the cells next
// to the healthy dwarves start at balinHealthyOffset.
type healSearch struct {
	open  [Rows]uint64 // bn.wenter > 0: a wizard may step in
	start [2][Rows]uint64
	seen  [Rows]uint64
	level [balinWizardLimit + 2][Rows]uint64 // the cells first reached at each distance
}

const rowBits = 1<<Cols - 1

func (hs *healSearch) has(bits *[Rows]uint64, idx int) bool {
	return bits[idx/Cols]>>(idx%Cols)&1 != 0
}

// dist returns the distance of cell idx, levels 0..last searched, or
// unreached.
func (hs *healSearch) dist(idx, last int) int32 {
	for l := 0; l <= last; l++ {
		if hs.has(&hs.level[l], idx) {
			return int32(l)
		}
	}
	return unreached
}

// healTargets writes TargetHeal for the wizards of me: the distances of
// wizardSearch (it pops the cells up to balinWizardLimit, so the cells
// one step beyond get a distance too), and the orthogonal steps onto a
// free cell a wizard may enter that is nearer.
func (hs *healSearch) healTargets(bn *Balin, s *State, me int, group func(id, kind int) []byte) {
	// The cells a wizard may enter (wizardCosts).
	hs.open = bn.wopen
	clear(hs.start[0][:])
	clear(hs.start[1][:])
	for _, id := range s.Dwarves[me] {
		u := &s.Units[id]
		h := 0
		if u.Health >= DwarfHealth {
			h = 1
		}
		for d := Bottom; d < None; d += 2 {
			if t := u.Pos.Add(d); t.OnBoard() {
				hs.start[h][t.I] |= hs.open[t.I] & (1 << t.J)
			}
		}
	}
	hs.seen = hs.start[0]
	hs.level[0] = hs.start[0]
	// The search stops at the level where the last wizard is reached.
	last := len(hs.level) - 1
	for l := 1; l < len(hs.level); l++ {
		done := true
		for _, id := range s.Wizards[me] {
			if !hs.has(&hs.seen, s.Units[id].Pos.Index()) {
				done = false
				break
			}
		}
		if done {
			last = l - 1
			break
		}
		prev, cur := &hs.level[l-1], &hs.level[l]
		for i := range Rows {
			from := prev[i] & hs.open[i]
			n := (from<<1 | from>>1) & rowBits
			if i > 0 {
				n |= prev[i-1] & hs.open[i-1]
			}
			if i < Rows-1 {
				n |= prev[i+1] & hs.open[i+1]
			}
			if l == balinHealthyOffset {
				n |= hs.start[1][i]
			}
			n &^= hs.seen[i]
			cur[i] = n
			hs.seen[i] |= n
		}
	}
	writeHeal(s, me, group, func(i int) int32 { return hs.dist(i, last) }, func(i int) bool { return hs.has(&hs.open, i) })
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
