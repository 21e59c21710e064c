// Package riddick is Riddick, Crematoria's strong scripted bot: the
// baseline a learner has to beat (docs/bots.md) and the game's
// StrongBot (crematoria.Def).
//
// The bot lives apart from the rules it plays: it imports package
// crematoria and reads only what any bot reads (the State, its Units and
// Cells, the board's geometry), and package crematoria does not import
// it. Importing this package registers the bot under the name "Riddick"
// in crematoria.Def's bots (crematoria.RegisterBot, from init), so a
// program that seats Riddick by name imports it, for its side effect
// alone where it calls nothing of it:
//
//	import _ "jgym/env/crematoria/riddick"
//
// cmd/jgym's registry of games does (game.NewRegistry refuses a game
// whose strong bot is not registered). New returns the bot for code that
// builds its seats itself.
package riddick
