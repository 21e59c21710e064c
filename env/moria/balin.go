package moria

// Balin is the strong scripted bot of jgym for Moria, the bot a learner has
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
// It draws no random numbers: its orders depend only on the state and its
// seat (what it keeps between rounds, balinCells, is a cache equal to
// computing the cells anew). The expert tensor (expert.go) and its C++
// port in exported players (expertCC) rely on this: a change to Balin's
// decisions must change expertCC too (TestCppExportExpertPlaysAsPolicyBot
// catches a difference).
type Balin struct {
	me   int
	s    *State
	b    Pos // the Balrog
	left int // rounds left after this one

	lethal   [NumCells]bool // ending the round here may be deadly (the Balrog)
	trollAdj [NumCells]bool // next to a troll
	enter    [NumCells]int8 // cost of a dwarf entering the cell, 0 if impossible
	wenter   [NumCells]int8 // cost of a wizard entering the cell
	value    [NumCells]float32
	valuable [Rows]uint64     // bit j of row i: value[i*Cols+j] > 0
	wopen    [Rows]uint64     // bit j of row i: a wizard may enter cell i*Cols+j (wizardCosts)
	taken    [NumCells]uint32 // stamp: a cell one of our units moves into
	stamp    uint32

	cells   balinCells // the cells' own costs and values, kept between rounds
	fwd     fwdSearch
	back    search
	dwarves []int // our dwarves that still need an order, in id order
	orders  []balinOrder
	busy    []bool // per unit id: ordered this round
	best    []float32
	target  []int
	leaving []int
	done    []int
	idle    []int // the dwarves whose region holds no target (moveDwarves)
}

// balinOrder is one order with its kind, for the issue order.
type balinOrder struct {
	id   int
	dir  Dir
	kind int // orderAttack, orderFlee, orderMove
	to   int // the cell entered (moves), -1 otherwise
}

const (
	orderAttack = iota
	orderFlee
	orderMove
)

// NewBalin returns the Balin bot for seat me (the seed is unused: Balin
// draws no random numbers).
func NewBalin(me, seed int) Bot { return &Balin{me: me} }

func init() { RegisterBot("Balin", NewBalin) }

// Play gives Balin's orders for one round.
func (bn *Balin) Play(s *State, o *Orders) {
	bn.prepare(s)
	bn.moveDwarves()
	bn.moveWizards()
	bn.issue(o)
}

// prepare starts a round of state s: the danger, the flights, the attacks
// (the units they order are busy) and the costs and values of the cells.
// The targets tensor (targets.go) runs it too.
func (bn *Balin) prepare(s *State) {
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
func (bn *Balin) markDanger() {
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
func (bn *Balin) safe(idx int) bool { return !bn.lethal[idx] && !bn.trollAdj[idx] }

// enemyAt returns the enemy dwarf or wizard on cell idx, or nil.
func (bn *Balin) enemyAt(idx int) *Unit {
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
func (bn *Balin) attacks() {
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
func (bn *Balin) flee() {
	s := bn.s
	for _, list := range [2][]int{s.Dwarves[bn.me], s.Wizards[bn.me]} {
		for _, id := range list {
			bn.flee1(id)
		}
	}
}

// flee1 moves unit id out of danger, if it is in danger, to the free
// neighbour farthest from the Balrog, a safe one if it can.
func (bn *Balin) flee1(id int) {
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

func (bn *Balin) add(id int, d Dir, kind, to int) {
	bn.busy[id] = true
	bn.orders = append(bn.orders, balinOrder{id: id, dir: d, kind: kind, to: to})
}
