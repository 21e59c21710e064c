package dominator

import "fmt"

// MaxCommands is the most command calls a player may make in one round;
// one more aborts the whole game (SPEC §8.1, §14.11).
const MaxCommands = 1000

// Orders collects one player's commands for one round with the kit's
// player-side filter (SPEC §8.1): every call counts towards MaxCommands,
// and the first command per unit id wins. Ids and directions are not
// checked here; the engine drops bad ones (SPEC §8.2).
type Orders struct {
	list     []Command
	count    int
	marked   []uint32 // round stamp per unit id in range
	extra    []int    // marked ids out of range
	stamp    uint32
	Warnings int // duplicate commands ignored this round
}

// Reset clears the orders for a new round of a game with nUnits units.
func (o *Orders) Reset(nUnits int) {
	o.list = o.list[:0]
	o.count = 0
	o.extra = o.extra[:0]
	o.Warnings = 0
	if len(o.marked) != nUnits {
		o.marked = make([]uint32, nUnits)
		o.stamp = 0
	}
	o.stamp++
	if o.stamp == 0 {
		clear(o.marked)
		o.stamp = 1
	}
}

// Command gives the order to move unit id in direction d of the player's
// view, as the kit's command(id, dir).
func (o *Orders) Command(id int, d Dir) {
	o.count++
	if o.count > MaxCommands {
		return
	}
	if o.isMarked(id) {
		o.Warnings++
		return
	}
	o.mark(id)
	o.list = append(o.list, Command{id, d})
}

func (o *Orders) isMarked(id int) bool {
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

func (o *Orders) mark(id int) {
	if id >= 0 && id < len(o.marked) {
		o.marked[id] = o.stamp
		return
	}
	o.extra = append(o.extra, id)
}

// List returns the accepted commands in issue order. The slice is reused
// by the next Reset.
func (o *Orders) List() []Command { return o.list }

// Count returns the number of Command calls this round.
func (o *Orders) Count() int { return o.count }

// Err returns an error wrapping ErrTooManyCommands if the player made more
// than MaxCommands calls.
func (o *Orders) Err() error {
	if o.count > MaxCommands {
		return fmt.Errorf("%w: %d calls in one round (max %d)", ErrTooManyCommands, o.count, MaxCommands)
	}
	return nil
}
