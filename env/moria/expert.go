package moria

import "jgym/env"

// ExpertTensor names the opt-in observation tensor of Balin's orders
// (docs/observation.md, "The expert tensor"): bool [U, NumDirs], for each
// unit slot of the observing clan's dwarves and wizards, the one-hot of
// the direction Balin gives that unit in this state, None when it gives it
// no command; all zero for the slots of the other clans. A session or a
// policy gets it only by naming it (env.Spec.OptIn).
const ExpertTensor = "expert"

// expertSpec is the expert tensor of a configuration of u unit slots.
func expertSpec(u int) env.TensorSpec {
	return env.TensorSpec{Name: ExpertTensor, Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
		Description: "opt-in: per unit slot of mine, the one-hot of the direction 0..8 that the Balin bot " +
			"orders it in this state (8: none); all zero for the other slots"}
}

// expertOrders computes the expert tensor by running Balin's own Play for
// the observing clan on the state, as Balin plays that seat in a match
// (Moria's bots see the real state: no view).
//
// Balin draws no random numbers, and its orders are a function of the
// state and its seat: the one thing it keeps between rounds, the cells'
// costs and values (balinCells), is a cache that a changed cell or seat
// redoes, equal to computing them anew (TestBalinCellsKept). One Balin
// would then serve every seat, but each change of seat would redo all
// 3,600 cells; an Observer encodes the four seats of an env in turn, so
// it keeps one Balin per seat, made on first use, whose cache follows
// that seat's rounds. The Go policy bot's Observer meets one seat, and
// the exported player computes everything every round (expertCC).
// TestExpertIsBalin checks the tensor round by round against Balins
// playing the seats.
type expertOrders struct {
	bots   [NumPlayers]*Balin
	orders Orders
}

// write writes the expert tensor of clan me in s into dst (len
// U*NumDirs).
func (e *expertOrders) write(s *State, me int, dst []byte) {
	n := NumSlots(s.Cfg)
	dst = dst[:n*NumDirs]
	clear(dst)
	for _, list := range [2][]int{s.Dwarves[me], s.Wizards[me]} {
		for _, id := range list {
			dst[id*NumDirs+int(None)] = 1
		}
	}
	bn := e.bots[me]
	if bn == nil {
		bn = NewBalin(me, 0).(*Balin)
		e.bots[me] = bn
	}
	e.orders.Reset(len(s.Units))
	bn.Play(s, &e.orders)
	for _, c := range e.orders.List() {
		if c.ID < 0 || c.ID >= n || s.Units[c.ID].Player != me || !c.Dir.Valid() {
			continue // Balin orders only its dwarves and wizards
		}
		row := dst[c.ID*NumDirs : (c.ID+1)*NumDirs]
		clear(row)
		row[c.Dir] = 1
	}
}
