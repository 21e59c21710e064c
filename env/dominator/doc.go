// Package dominator is the Dominator game of the EDA course (Jutge.org,
// "Dominator 4.0"), reimplemented to reproduce the course engine byte for
// byte: the same seed, configuration and players give the same .res
// trace. docs/rules/dominator.md restates the course engine's behaviour
// (its random generator, board generators, round procedure and trace
// format); section numbers in comments (§8.4, ...) refer to the course
// engine's specification it follows.
//
// # A tour
//
// A Game is a deterministic, single-goroutine state machine. New builds the
// board from a configuration and a seed and places the units; Step plays
// one round from the four players' command lists:
//
//	g, err := dominator.New(dominator.DefaultConfig(), 1)
//	var cmds [dominator.NumPlayers][]dominator.Command
//	cmds[0] = []dominator.Command{{ID: 12, Dir: dominator.Right}} // a farmer of player 0
//	err = g.Step(&cmds) // g.State is now the state of round 1
//
// The embedded State is the board (State.Grid, row-major), the unit table
// (State.Units, indexed by the unit's stable id), the land and total
// scores, and per-player id lists. Every player programs as if it were
// player 0: State.View turns the board so that a player's box is the
// top-left one, and the directions a player gives are in that view (player
// 1's Right is the real Top, Dir.Rotate). Step takes them so.
//
// Def is the game's definition for jgym's core (package game), which
// builds the rest from it. A Match seats four Bots (Null, Demo, Khan, or
// your own), gives each its view every round (Def.View) and writes the
// trace in the kit's format. Khan, the strong bot (Def.StrongBot), is
// package jgym/env/dominator/khan, which imports this one and registers it
// by name when imported; this package's own bots are Demo and DummyClone
// (DummyPolicy, the Dummy's choice of moves, is Khan's forecast too).
//
//	m, err := dominator.Def.NewBotMatch(cfg, seed, [4]string{"Khan", "Demo", "Null", "Demo"})
//	m.WriteTrace(w)
//	err = m.Run(ctx)
//	dominator.WriteResults(os.Stderr, m.State(), m.Names) // "info: player Khan got score 175000", ...
//
// Bots give orders through Orders, which applies the kit's player-side
// filter (first command per unit wins, at most game.MaxCommands calls per
// round). Where the course program aborts (a failed assertion, a player
// giving too many commands), the engine returns an error wrapping
// ErrAbort (package game's) and the trace stops where the course
// program's does.
//
// Configurations use the kit's file format (ParseConfig, Config.String);
// DefaultConfig is the kit's default.cnf and ShippedConfig the other
// shipped ones. Traces are parsed by ParseTrace and checked by Verify,
// replaying a command log (ParseCommandLog) exactly or checking every
// round against the rules. Def.Host offers the game to the env layer
// (Dominator-v0) with the observation dominator-obs-2 (Observer; actions
// become orders through Legal) and its option, for sessions and policies
// alike, of the opponents ordered by score (OrderOpponentsByScore).
//
// Other players take seats too: a C++ bot written for the course kit runs
// in its own sandboxed process with jgym's implementation of the kit
// (kit/dominator, Def.CppKit; package cppbot compiles it), and an ONNX
// policy runs in Go (PolicyBot, Def.PolicySignature; package policy):
//
//	k, _ := dominator.Def.CppKit()
//	prog, err := cppbot.Open("AIMine.cc", k, cppbot.Options{})
//	bot := dominator.Def.NewCppBot(prog, 0, seed) // plays seat 0 on its rotated view
//
// Def.Export (CppTarget with the policies' signature) exports a policy as
// a C++ player of the kit (package cppexport) that plays the policy bot's
// games byte for byte. Def.Arena gives the game to jgym's commands
// (package arena): seats named "policy:REF" and "cpp:REF" (Def.ResolveBot,
// or Def.WithLoader for an env), games with their trace and command log,
// and trace verification.
package dominator
