package game

import "jgym/env"

// Bot plays one seat of one game. Play is called once per round with the
// state at the start of the round as the seat sees it (Def.View; read-only,
// valid only during the call) and gives its orders through o.
type Bot[S any, D Dir] interface {
	Play(s *S, o *Orders[D])
}

// SeatBot is implemented by bots that play from the real state and their
// seat: a Match calls PlaySeat(s, me, o) instead of building the seat's
// view for Play. PlaySeat must give the orders Play gives on the view.
type SeatBot[S any, D Dir] interface {
	Bot[S, D]
	PlaySeat(s *S, me int, o *Orders[D])
}

// Blind is implemented by bots that never read the state (Null): a Match
// gives them a nil state and builds no view.
type Blind interface{ Blind() }

// BotErr is implemented by bots that can fail, such as C++ bots in their
// own process or a policy that does not fit the game: after each Play, a
// Match ends the game with the bot's error.
type BotErr interface{ Err() error }

// BotFactory makes the bot of seat me of a game with the given game seed.
// A bot that draws random numbers seeds its own generator with
// seed+me+1, as the course kits do.
type BotFactory[S any, D Dir] = env.BotFactory[Bot[S, D]]

// Null is the kits' Null player: it gives no orders.
type Null[S any, D Dir] struct{}

// Play does nothing.
func (Null[S, D]) Play(*S, *Orders[D]) {}

// Blind marks Null as a bot that never reads the state.
func (Null[S, D]) Blind() {}

// NewBots returns the registry of a game's bots (name in lower case, for
// messages) holding Null; the game registers the others.
func NewBots[S any, D Dir](name string) *env.BotRegistry[Bot[S, D]] {
	r := env.NewBotRegistry[Bot[S, D]](name)
	r.Register("Null", func(me, seed int) Bot[S, D] { return Null[S, D]{} })
	return r
}

// botRegistry is the registry of a game's bots.
type botRegistry[S any, D Dir] = env.BotRegistry[Bot[S, D]]
