package game

import "fmt"

// MaxCommands is the most command calls a player may make in one round in
// every course kit; the course program aborts on the next one.
const MaxCommands = 1000

// Command is one order as a player gives it, and one printed movement of a
// round: move unit ID in direction Dir.
type Command[D Dir] struct {
	ID  int
	Dir D
}

// OrderRules are a game's player-side filter: what the kit's command
// function keeps before the engine sees a player's list. Every kit keeps
// the first command per unit id and counts every call towards
// MaxCommands; the games differ in what else they drop.
type OrderRules[D Dir] struct {
	// SkipMinusOne drops commands of unit id -1 without marking it
	// (Crematoria's kit ignores them).
	SkipMinusOne bool
	// Valid, if not nil, is the directions the kit accepts: a command in
	// another direction is dropped without marking its unit (Crematoria,
	// Moria). Nil: every direction passes, the engine checks it
	// (Dominator, Pandemic).
	Valid func(D) bool
}

// Orders collects one player's commands for one round through the game's
// player-side filter. Its zero value filters nothing but duplicate ids and
// the command count; a Match gives its bots Orders with the game's rules.
type Orders[D Dir] struct {
	rules    *OrderRules[D]
	list     []Command[D]
	count    int
	marked   []uint32 // round stamp per unit id in range
	extra    []int    // marked ids out of range
	stamp    uint32
	Warnings int // commands the filter dropped this round
}

// NewOrders returns orders that filter with the rules r.
func NewOrders[D Dir](r *OrderRules[D]) *Orders[D] { return &Orders[D]{rules: r} }

// Reset clears the orders for a new round of a game with nUnits unit ids.
func (o *Orders[D]) Reset(nUnits int) {
	o.list = o.list[:0]
	o.count = 0
	o.extra = o.extra[:0]
	o.Warnings = 0
	if len(o.marked) != nUnits {
		o.marked = make([]uint32, nUnits)
		o.stamp = 0
	}
	if o.stamp++; o.stamp == 0 {
		clear(o.marked)
		o.stamp = 1
	}
}

// Command gives the order to move unit id in direction d, as the kit's
// command function: the first command per unit wins.
func (o *Orders[D]) Command(id int, d D) {
	if o.count++; o.count > MaxCommands {
		return
	}
	if r := o.rules; r != nil && (r.SkipMinusOne && id == -1) {
		o.Warnings++
		return
	}
	if o.isMarked(id) {
		o.Warnings++
		return
	}
	if r := o.rules; r != nil && r.Valid != nil && !r.Valid(d) {
		o.Warnings++
		return
	}
	o.mark(id)
	o.list = append(o.list, Command[D]{id, d})
}

// Move is Command under the name of Pandemic's kit (move(id, dir)).
func (o *Orders[D]) Move(id int, d D) { o.Command(id, d) }

func (o *Orders[D]) isMarked(id int) bool {
	if id >= 0 && id < len(o.marked) {
		return o.marked[id] == o.stamp
	}
	for _, x := range o.extra {
		if x == id {
			return true
		}
	}
	return false
}

func (o *Orders[D]) mark(id int) {
	if id >= 0 && id < len(o.marked) {
		o.marked[id] = o.stamp
		return
	}
	o.extra = append(o.extra, id)
}

// List returns the accepted commands in issue order.
func (o *Orders[D]) List() []Command[D] { return o.list }

// Count returns the number of command calls this round.
func (o *Orders[D]) Count() int { return o.count }

// Err returns an error wrapping ErrTooManyCommands if the player made more
// than MaxCommands calls this round.
func (o *Orders[D]) Err() error {
	if o.count > MaxCommands {
		return fmt.Errorf("%w: %d in one round (max %d)", ErrTooManyCommands, o.count, MaxCommands)
	}
	return nil
}
