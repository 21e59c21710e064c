// Package moria is the Moria game of the EDA course (Jutge.org, "Moria
// 1.1"), reimplemented to reproduce the course engine byte for byte: the
// same seed, configuration and players give the same .res trace.
// docs/rules/moria.md restates the course engine's behaviour (its random
// generator, map generator, round procedure and trace format); section
// numbers in comments (§8.4, ...) refer to the course engine's
// specification it follows.
//
// # A tour
//
// A Game is a deterministic, single-goroutine state machine. New builds the
// board from a configuration and a seed; Step plays one round from the four
// players' command lists:
//
//	g, err := moria.New(moria.DefaultConfig(), 1)
//	var cmds [moria.NumPlayers][]moria.Command
//	cmds[0] = []moria.Command{{ID: 5, Dir: moria.Right}}
//	err = g.Step(&cmds) // g.State is now the state of round 1
//
// The embedded State is what every player sees at the start of a round: the
// cells (State.Cells, indexed by Pos.Index), the unit table (State.Units,
// indexed by the unit's stable id), per-clan id lists and counters. Bots
// receive a *State and must not modify it.
//
// Def is Moria's definition for the core (package game), which builds
// from it the play loop, the env, the command line's game, datasets, the
// policy and C++ bots. A Match seats four Bots (Null, Demo, DummyClone,
// Balin, or your own) and writes the trace in the kit's format:
//
//	m, err := moria.Def.NewBotMatch(cfg, seed, [4]string{"Demo", "Null", "Demo", "Null"})
//	m.WriteTrace(w)
//	err = m.Run(ctx)
//	moria.WriteResults(os.Stderr, m.State(), m.Names) // the kit's end-of-game report
//
// Bots give orders through Orders, which applies the kit's player-side
// filter (first command per unit wins, bad directions dropped, at most
// game.MaxCommands per round). The order of a player's commands matters: the
// engine picks, command by command, one of the players that still have
// commands at random and executes that player's next one (§8.3).
//
// Where the course engine aborts (§8.8: the Balrog steps onto a stale troll
// id), Step returns an error wrapping ErrAbort and a Match's trace ends with
// the last complete state, as the course program leaves it.
//
// Configurations use the kit's file format (ParseConfig, Config.String).
// Traces are read back with ParseTrace and checked with Verify: replayed
// from a command log (ParseCommandLog, the format of the reference data) or,
// without one, round by round against the rules.
//
// Def.Host is the game as an env.Game ("Moria-v0") with the egocentric
// observation moria-obs-2 (Observer; its targets tensor runs the Balin
// bot's searches; Def.Decode turns actions into orders).
// Its options, for sessions and policies alike: the opponents ordered by
// score (OrderOpponentsByScore) and the attacks first among a clan's
// orders (Attacks).
//
// Bots from outside jgym take seats too. A C++ bot written for the course
// kit (AI<Name>.cc) compiles against Def.CppKit, jgym's implementation of
// the kit's headers (kit/moria), and plays through package cppbot as a
// CppBot; an ONNX policy (package policy, Def.PolicySignature) plays as a
// PolicyBot; Def.Export turns such a policy into a C++ player for the kit
// (package cppexport) that plays exactly as the PolicyBot:
//
//	k, _ := moria.Def.CppKit()
//	prog, err := cppbot.Open("AIMine.cc", k, cppbot.Options{})
//	bots := [4]moria.Bot{moria.Def.NewCppBot(prog, 0, seed), moria.NewDemo(1, seed), ...}
//
// Def.Arena gives the game to the command line (package arena): "jgym
// match --game moria" seats registered bots and "cpp:" and "policy:" files
// (Def.ResolveBot), writes the trace and the command log, and verifies
// traces.
package moria
