package dominator

import "jgym/env"

// Bot plays one seat of one game. Play is called once per round with the
// seat's view of the state at the start of the round (State.View: the bot
// is player 0, its box is the top-left one) and gives its orders, in that
// view's directions, through o. The view is read-only and valid only
// during the call.
type Bot interface {
	Play(view *State, o *Orders)
}

// BotFactory makes the bot for seat me of a game with the given game seed.
// A bot that draws random numbers seeds its own generator with seed+me+1,
// as the kit does (SPEC §1.5).
type BotFactory = env.BotFactory[Bot]

// SeatBot is implemented by bots that can play from the real state: a
// Match then calls PlaySeat(s, me, o) with the state and the bot's seat
// instead of building its view for Play. PlaySeat must give the orders
// Play would give on the view (directions in the view's frame).
type SeatBot interface {
	Bot
	PlaySeat(s *State, me int, o *Orders)
}

// BotErr is implemented by bots that can fail, such as C++ bots running in
// their own process: after each Play, PlayRound ends the game with the
// bot's error.
type BotErr interface{ Err() error }

// ErrUnknownBot is returned for a bot name that is not registered
// (env.ErrUnknownBot).
var ErrUnknownBot = env.ErrUnknownBot

// bots is the registry of Dominator's bots.
var bots = env.NewBotRegistry[Bot]("dominator")

// RegisterBot registers a bot under name. It panics on a duplicate name,
// as registering two players with the same name fails in the kit.
func RegisterBot(name string, f BotFactory) { bots.Register(name, f) }

// BotNames returns the registered bot names, sorted.
func BotNames() []string { return bots.Names() }

// LookupBot returns the factory of a registered bot.
func LookupBot(name string) (BotFactory, error) { return bots.Lookup(name) }

func init() {
	RegisterBot("Null", func(me, seed int) Bot { return Null{} })
	RegisterBot("Demo", NewDemo)
}

// Null is the kit's Null player: it gives no orders.
type Null struct{}

// Play does nothing.
func (Null) Play(*State, *Orders) {}

// blind marks bots that never look at the state, so a Match need not build
// their view.
func (Null) blind() {}

type blindBot interface{ blind() }
