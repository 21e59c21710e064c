package dataset

import "jgym/env"

// ExpertLabels is the part of a game's Expert that names no game: one bot
// per seat, made on first use with the trace's seed, played once per round
// in order, its labels kept so that a second Label of the same seat and
// round repeats them. A game's replay holds one and calls Label from its
// own Label with a function that plays the bot on the state at the start
// of the round and writes its commands into the labels.
type ExpertLabels[B any] struct {
	name   string
	f      env.BotFactory[B]
	bots   [env.NumSeats]B
	made   [env.NumSeats]bool
	played [env.NumSeats]int
	last   [env.NumSeats][]byte
}

// Use sets the expert: a bot name the game's registry resolves (no
// prefixes, so no file is read).
func (e *ExpertLabels[B]) Use(reg *env.BotRegistry[B], name string) error {
	f, err := reg.Lookup(name)
	if err != nil {
		return err
	}
	e.name, e.f = name, f
	return nil
}

// On says whether an expert is set.
func (e *ExpertLabels[B]) On() bool { return e.f != nil }

// Label writes the expert's labels of seat in round into action (already
// set to the "none" action): play(bot, action) runs the seat's bot on the
// round's state and writes the direction of its command for each unit the
// seat owns.
func (e *ExpertLabels[B]) Label(seat, round, seed int, action []byte, play func(bot B, action []byte)) {
	if !e.made[seat] {
		e.bots[seat], e.made[seat], e.played[seat] = e.f(seat, seed), true, -1
	}
	if e.played[seat] == round {
		copy(action, e.last[seat])
		return
	}
	e.played[seat] = round
	play(e.bots[seat], action)
	e.last[seat] = append(e.last[seat][:0], action...)
}
