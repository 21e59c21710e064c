package pandemic

import "jgym/env"

// ExpertTensor names the opt-in observation tensor of Pasteur's orders
// (docs/observation.md, "The expert tensor"): bool [U, 5], for each unit
// slot of the observing seat, the one-hot of the direction Pasteur gives
// that unit in this state, None when it gives it no command; all zero for
// the slots the seat does not own. A session or a policy gets it only by
// naming it (env.Spec.OptIn).
const ExpertTensor = "expert"

// expertSpec is the expert tensor of a configuration of u unit slots.
func expertSpec(u int) env.TensorSpec {
	return env.TensorSpec{Name: ExpertTensor, Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
		Description: "opt-in: per unit slot of mine, the one-hot of the direction (bottom, right, top, left, none) " +
			"that the Pasteur bot orders it in this state; all zero for the slots not mine"}
}

// expertOrders computes the expert tensor by running Pasteur's own Play
// for the observing seat. Pasteur draws no random numbers and keeps from
// one round to the next only what depends on the map (its distance
// fields), so its orders are a function of the state and the seat: one
// bot serves every seat, made again when the map changes.
type expertOrders struct {
	bot    Pasteur
	types  []CellType // the map the bot's fields were made for (State's static slice)
	rows   int
	cols   int
	orders Orders
}

// write writes the expert tensor of seat me in s into dst (len U*NumDirs).
func (e *expertOrders) write(s *State, me int, dst []byte) {
	if !same(e.types, s.Types) || e.rows != s.Rows || e.cols != s.Cols {
		e.bot = Pasteur{}
		e.types, e.rows, e.cols = s.Types, s.Rows, s.Cols
	}
	n := len(s.Units)
	dst = dst[:n*NumDirs]
	clear(dst)
	e.bot.me = me
	e.orders.Reset(n)
	e.bot.Play(s, &e.orders)
	for _, id := range s.PlayerUnits[me] {
		dst[id*NumDirs+int(None)] = 1
	}
	for _, c := range e.orders.List() {
		if c.ID < 0 || c.ID >= n || s.Units[c.ID].Player != me || !c.Dir.Valid() {
			continue // Pasteur orders only its units, in the four directions
		}
		row := dst[c.ID*NumDirs : (c.ID+1)*NumDirs]
		clear(row)
		row[c.Dir] = 1
	}
}
