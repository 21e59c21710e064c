package dominator

import (
	"fmt"

	"jgym/env"
)

// ExpertTensor names the opt-in observation tensor of Khan's orders
// (docs/observation.md, "The expert tensor"): bool [U, NumDirs], for each
// unit slot of the observing seat's units on the board, the one-hot of the
// direction (in the observer's frame, as the action) Khan gives that unit
// in this state, None when it gives it no command; all zero for the slots
// the seat does not own and for its lost units (SPEC §8.9), which take no
// order. A session or a policy gets it only by naming it (env.Spec.OptIn).
const ExpertTensor = "expert"

// strongBot is the name Khan registers under (Def.StrongBot): the expert
// tensor's bot.
const strongBot = "Khan"

// expertSpec is the expert tensor of a configuration of u unit slots.
func expertSpec(u int) env.TensorSpec {
	return env.TensorSpec{Name: ExpertTensor, Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
		Description: "opt-in: per unit slot of mine on the board, the one-hot of the direction 0..8 of the observer's " +
			"frame that the Khan bot orders it in this state (8: none); all zero for the other slots"}
}

// expertOrders computes the expert tensor by running Khan's own Play on
// the observing seat's view (Def.View), as Khan plays that seat in a
// match: its directions are then in the view's frame, the observer's.
//
// Khan lives in package khan, which imports this one, so the tensor takes
// the bot from the registry of bots by name (khan's init registers it;
// every program that seats Khan or serves Dominator imports it). Khan
// draws no random numbers and keeps nothing from one round to the next
// but scratch space (its maps, forecast and fields are made anew every
// round from the view), and it plays as player 0 of its view whatever its
// seat: its orders are a function of the view, so one bot serves every
// seat and every game, and a policy bot or the env computing the tensor
// gets the orders Khan would give in that seat. TestExpertIsKhan checks
// it round by round against Khans playing the seats.
type expertOrders struct {
	bot    Bot
	view   State // scratch for the seat's view
	orders Orders
}

// write writes the expert tensor of seat me in s into dst (len
// U*NumDirs). It panics when no bot is registered as Khan: a program that
// offers Dominator imports jgym/env/dominator/khan (game.NewRegistry
// refuses a game whose strong bot is not registered).
func (e *expertOrders) write(s *State, me int, dst []byte) {
	if e.bot == nil {
		f, err := bots.Lookup(strongBot)
		if err != nil {
			panic(fmt.Sprintf("dominator: the %s tensor needs the %s bot (import _ \"jgym/env/dominator/khan\"): %v",
				ExpertTensor, strongBot, err))
		}
		e.bot = f(0, 0) // Khan needs neither seat nor seed (see above)
	}
	n := len(s.Units)
	dst = dst[:n*NumDirs]
	clear(dst)
	for id := range n {
		if mine(s, me, id) {
			dst[id*NumDirs+int(None)] = 1
		}
	}
	e.orders.Reset(n)
	e.bot.Play(view(s, me, &e.view), &e.orders)
	for _, c := range e.orders.List() {
		if c.ID < 0 || c.ID >= n || !Legal(s, me, c.ID, c.Dir) {
			continue // Khan orders only its units on the board, legally (khan's checkedBot)
		}
		row := dst[c.ID*NumDirs : (c.ID+1)*NumDirs]
		clear(row)
		row[c.Dir] = 1
	}
}
