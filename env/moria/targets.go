package moria

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
// TestTargetsStopEarly).
var targetsStopEarly = true

// targetSearches is the Observer's scratch space for the targets tensor:
// a Balin of the observing clan and the cells of its dwarves.
type targetSearches struct {
	bn   Balin
	need [NumCells]bool
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
				g[dirTo(s.Units[id].Pos.Index(), q.firstStep(t))] = 1
				bands(g, q.dist[t])
			}
		}
	}
	if len(s.Dwarves[me]) > 0 {
		for _, id := range s.Dwarves[me] {
			ts.need[s.Units[id].Pos.Index()] = true
		}
		r := bn.targetSearch(&ts.need, b2i(targetsStopEarly)*len(s.Dwarves[me]))
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
		r := bn.wizardSearch(&ts.need, b2i(targetsStopEarly)*len(s.Wizards[me]))
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
