// Package pandemic is the Pandemic game of the EDA course (Jutge.org),
// reimplemented to reproduce the course engine byte for byte: the same seed,
// configuration and players give the same .res trace. docs/rules/pandemic.md
// restates the course engine's behaviour (its random generator, map
// generator, round procedure and trace format); section numbers in comments
// (§8.4, ...) refer to the course engine's specification it follows.
//
// # A tour
//
// A Game is a deterministic, single-goroutine state machine. New builds the
// map from a configuration and a seed; Step plays one round from the four
// players' command lists:
//
//	g, err := pandemic.New(pandemic.DefaultConfig(), 1)
//	var cmds [pandemic.NumPlayers][]pandemic.Command
//	cmds[0] = []pandemic.Command{{ID: 5, Dir: pandemic.Right}}
//	err = g.Step(&cmds) // g.State is now the state after round 1
//
// The embedded State is what every player sees at the start of a round:
// the board as one slice per field (State.Types, State.Virus,
// State.UnitAt, State.MaskAt, indexed by State.Idx), the cities and paths
// and their owners, the unit table (State.Units, indexed by the unit's
// stable id), each player's sorted unit list and the scores. Bots receive a
// *State and must not modify it.
//
// Def is the game's definition (package game): the core plays it, hosts
// it as an env and checks and learns from its traces. A Match seats four
// Bots (Null, Demo, Pasteur, or your own) and writes the trace in the
// kit's format:
//
//	m, err := pandemic.Def.NewBotMatch(cfg, seed, [4]string{"Demo", "Null", "Demo", "Null"})
//	m.WriteTrace(w)
//	err = m.Run(ctx)
//
// Bots give orders through Orders (Move is the kit's move), which applies
// the kit's player-side filter (the first command per unit wins, at most
// game.MaxCommands calls per round). The engine validates the commands, shuffles them and executes
// them in a random order (§8.2, §8.3).
//
// Configurations use the kit's file format (ParseConfig, Config.String);
// DefaultConfig is the kit's default.cnf. Traces are parsed by ParseTrace
// and checked by Verify, either replayed from a command log (ParseCommandLog,
// the lists each player handed to the engine) or against the rules. Where
// the course program aborts (too many commands, a unit killed twice, no cell
// to spawn on), jgym returns an error wrapping a sentinel (game.ErrTooManyCommands,
// ErrKilledTwice, ErrNoSpawnCell, ...; each wraps ErrAbort) and the trace
// written so far.
//
// Def.Host is the game as an env (EnvID "Pandemic-v0"): the egocentric
// observation pandemic-obs-2 (Observer), one direction per unit slot as the
// action, action masks (CanMove), rewards from the scores, and the option,
// for sessions and policies alike, of the opponents ordered by score
// (OrderOpponentsByScore). Def.Dataset
// learns from traces, estimating the unit statuses a trace does not print.
//
// Two bots come from files. CppBot seats a student's C++ bot written for
// the course kit: package cppbot compiles it against Def.CppKit
// (kit/pandemic, jgym's implementation of the kit's player API) and runs
// it in a sandbox, one process per seat for the whole game. PolicyBot
// seats an ONNX policy loaded with Def.PolicySignature (package policy).
// Def.ResolveBot seats "cpp:REF" and "policy:REF" names through an
// arena.Loader, and Def.Arena gives the game to the command line (package
// arena):
//
//	k, err := pandemic.Def.CppKit()
//	prog, err := cppbot.Open("AIMine.cc", k, cppbot.Options{})
//	bots := [4]pandemic.Bot{pandemic.Def.NewCppBot(prog, 0, seed), pandemic.NewDemo(1, seed), ...}
//
// CppTarget turns a policy into a C++ player for the kit (package
// cppexport, "jgym export-cpp --game pandemic"): the C++ twin of Observer
// and of PolicyBot's orders, so that the player plays as PolicyBot does,
// byte for byte.
package pandemic
