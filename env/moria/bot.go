package moria

import "jgym/env"

// Bot plays one seat of one game. Play is called once per round with the
// state at the start of the round (read-only) and gives its orders through o.
type Bot interface {
	Play(s *State, o *Orders)
}

// BotFactory makes the bot for seat me of a game with the given game seed.
// A bot that draws random numbers seeds its own generator with seed+me+1, as
// the kit does (SPEC §1.5).
type BotFactory = env.BotFactory[Bot]

// BotErr is implemented by bots that can fail, such as bots running in
// their own process: after each Play, PlayRound ends the game with the
// bot's error.
type BotErr interface{ Err() error }

// ErrUnknownBot is returned for a bot name that is not registered
// (env.ErrUnknownBot).
var ErrUnknownBot = env.ErrUnknownBot

// bots is the registry of Moria's bots.
var bots = env.NewBotRegistry[Bot]("moria")

// RegisterBot registers a bot under name. It panics on a duplicate name, like
// registering two players with the same name in the kit.
func RegisterBot(name string, f BotFactory) { bots.Register(name, f) }

// BotNames returns the registered bot names in sorted order.
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
