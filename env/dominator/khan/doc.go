// Package khan is Khan, Dominator's strong scripted bot: the baseline a
// learner has to beat (docs/bots.md) and the game's StrongBot
// (dominator.Def).
//
// The bot lives apart from the rules it plays: it imports package
// dominator and reads only what any bot reads (its view of the State: the
// Grid, the Units and the per-player lists), plus dominator.DummyPolicy,
// the course Dummy's choice of candidate moves, with which it forecasts
// the other players. Package dominator does not import it. Importing this
// package registers the bot under the name "Khan" in dominator.Def's bots
// (dominator.RegisterBot, from init), so a program that seats Khan by name
// imports it, for its side effect alone where it calls nothing of it:
//
//	import _ "jgym/env/dominator/khan"
//
// cmd/jgym's registry of games does (game.NewRegistry refuses a game
// whose strong bot is not registered). New returns the bot for code that
// builds its seats itself.
package khan
