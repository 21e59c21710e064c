// Package game is the core every game and every tool shares: a game is
// one definition ([Def]), and everything that does not depend on its rules
// is written here once, over that definition.
//
// A game package keeps its rules (state, round phases, map generator,
// configuration), its observation encoder and the encoder's C++ twin, its
// trace format, its verifier, its bots, and one definition file that fills
// a Def and hands it to [Define]:
//
//	var Def = game.Define(&game.Def[Config, *Game, State, Dir]{
//		Name: "Crematoria", EnvID: "Crematoria-v0", StrongBot: "Riddick",
//		DefaultConfig: DefaultConfig, ParseConfig: ParseConfig,
//		New: New, Step: (*Game).Step, ...
//	})
//
// From the definition the core builds:
//
//   - [Match]: the play loop of the kits' Game program (bots on their view
//     of the state, the learners' orders, the engine, the trace and the
//     command log, aborts);
//   - [Orders] and [CommandLog]: the player-side filter and command files,
//     their quirks fields of the definition;
//   - the env ([Def.Host]: an env.Host whose tables play a Match, decode
//     the learners' actions and encode observations);
//   - the command line's game ([Def.Arena]: an arena.Host), dataset
//     replay ([Def.Dataset]), the policy bot ([PolicyBot]), the C++ bot
//     bridge ([CppBot], [Def.CppKit]) and the export target
//     ([Def.Export]);
//   - one error vocabulary ([ErrAbort], [ErrTooManyCommands], ...).
//
// Tools read a [Registry] of [Entry] values (each game's Def). Package
// gametest is the conformance suite: a game's whole contract test is one
// call of gametest.Run.
package game
