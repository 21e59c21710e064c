// Package crematoria is the Crematoria game of the EDA course (Jutge.org),
// reimplemented to reproduce the course engine byte for byte: the same seed,
// configuration and players give the same .res trace. docs/rules/crematoria.md
// restates the course engine's behaviour (its random generator, map
// generator, round procedure and trace format); section numbers in comments
// (§8.4, ...) refer to the course engine's specification it follows.
//
// # A tour
//
// A Game is a deterministic, single-goroutine state machine. New builds the
// board from a configuration and a seed; Step plays one round from the four
// players' command lists:
//
//	g, err := crematoria.New(crematoria.DefaultConfig(), 1)
//	var cmds [crematoria.NumPlayers][]crematoria.Command
//	cmds[0] = []crematoria.Command{{ID: 5, Dir: crematoria.Right}}
//	err = g.Step(&cmds) // g.State is now the state of round 1
//
// The embedded State is what every player sees at the start of a round: the
// cells of both levels (State.Cells, indexed by Pos.Index), the unit table
// (State.Units, indexed by the unit's stable id), per-group id lists and
// counters. Bots receive a *State and must not modify it.
//
// A Match seats four Bots (Null, Demo, Riddick, or your own) and writes the
// trace in the kit's format. Riddick, the strong bot (Def.StrongBot), is
// package jgym/env/crematoria/riddick, which imports this one and registers
// it by name when imported; this package's own bots are Demo and
// DummyClone.
//
//	m, err := crematoria.Def.NewBotMatch(cfg, seed, [4]string{"Demo", "Null", "Demo", "Null"})
//	m.WriteTrace(w)
//	err = m.Run(ctx)
//
// Bots give orders through Orders, which applies the kit's player-side
// filter (first command per unit wins, bad directions dropped, at most
// game.MaxCommands per round). The order of a player's commands matters: the
// engine executes the four lists layer by layer, in a random order among
// players (§8.3).
//
// Configurations use the kit's file format (ParseConfig, Config.String);
// DefaultConfig is the kit's default.cnf. Command logs (ParseCommandLog)
// replay recorded games, also of players jgym cannot run.
//
// Arena is the game for the command line's machinery (package arena:
// matches, batches, evaluations, tournaments, verification); ResolveBot
// seats registered bots and the "policy:" and "cpp:" files an
// arena.Loader loads, and NewEnv(WithLoader(l)) seats them in the env.
package crematoria
