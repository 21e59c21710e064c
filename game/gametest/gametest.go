// Package gametest is the conformance suite of a game definition: one
// call runs every contract test a game must pass, so that a game's whole
// contract test is a few lines.
//
//	func TestContract(t *testing.T) {
//		gametest.Run(t, crematoria.Def, gametest.Options{Traces: "../../testdata/crematoria/traces"})
//	}
//
// Run checks, each in a subtest:
//
//   - Definition: the definition's pieces agree (spec, encoder, signature,
//     bots, configuration round trip).
//   - Traces: every reference trace the course engine wrote is reproduced
//     byte for byte by a match of the registered bots it names, and by a
//     replay of its command file (up to the abort or the crash of a
//     partial trace); Verify accepts a whole one, with and without the
//     commands (without them, the trace of a game the engine aborted may
//     be refused as truncated, game.ErrTruncated); with the commands it
//     rejects every mutated byte.
//   - Env: a learner driven by a bot's orders plays the bot's game; a bot
//     that fails ends the step; equal seeds give equal games; decoded
//     actions only command the seat's units in legal directions;
//     observations stay within their declared bounds; a setup that asks
//     for a subset of the tensors gets those (and the masks) with the
//     whole observation's bytes, and bad names are refused.
//   - Dataset: a trace replayed for a dataset gives the env's observations
//     and labels that are the players' orders; expert labels are the
//     expert's orders; in each opponent order the game offers, the
//     replay's observations are those of the env with that option.
//   - States: a game saved at a round and restored continues exactly as
//     the original (observations, rewards, credit, trace bytes); damaged,
//     forged and foreign states are refused with env.ErrBadState; a game
//     started from rounds of every whole reference trace with a command
//     file and played on with its commands gives the reference trace.
//   - Search: the search bot (game.SearchBot) plays legal orders, the
//     same game for the same seed, and its rollouts do not read the real
//     game's random generator: two copies of a match whose engines differ
//     only in their generator's state get the same candidate values.
//   - PolicyBot: a policy seated as a bot plays the game a learner playing
//     the policy's greedy actions plays (with Options.Model), with the
//     orders its metadata names and with each other order of the
//     opponents and of the commands the game offers, which the env applies
//     as session options.
//   - CppBot: the kit's C++ Demo plays the Go Demo's games byte for byte
//     (when the game has a kit and the machine can compile and contain).
//
// The fuzz bodies (FuzzStep, FuzzConfig, FuzzCommandLog, FuzzTrace) are
// called from a game's own Fuzz functions, which go test -fuzz needs, with
// the game's seed corpus; the engine benchmarks (BenchmarkRounds,
// BenchmarkNewGame) from its Benchmark functions, one line each.
package gametest

import (
	"testing"

	"jgym/game"
	"jgym/internal/race"
)

// Options says where a game's fixtures are and what to skip.
type Options struct {
	// Traces is the folder of reference traces of the course engine:
	// NAME_sSEED_P0-P1-P2-P3[_CONFIG][.partial].res.gz (BASE.res.gz;
	// .partial: a game the course program aborted), with its configuration
	// when it is not the default: BASE.cnf beside it, else CONFIG.cnf (or
	// NAME.cnf when NAME is not the game's) beside it or in a folder
	// above; command files commands/BASE.cmd.gz or BASE.cmd.gz;
	// subfolders are searched too. JGYM_TRACES_<GAME> may point to another folder of
	// that layout.
	Traces string
	// Model, if not empty, is an ONNX policy of the game for the
	// PolicyBot test.
	Model string

	short bool
}

// Run runs every contract test of the game d. Under -short or the race
// detector it checks fewer traces and games.
func Run[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	o.short = testing.Short() || race.Enabled
	t.Run("Definition", func(t *testing.T) { testDefinition(t, d) })
	t.Run("Traces", func(t *testing.T) { testTraces(t, d, o) })
	t.Run("Env", func(t *testing.T) { testEnv(t, d, o) })
	t.Run("Dataset", func(t *testing.T) { testDataset(t, d, o) })
	t.Run("States", func(t *testing.T) { testStates(t, d, o) })
	t.Run("Search", func(t *testing.T) { testSearch(t, d, o) })
	if o.Model != "" {
		t.Run("PolicyBot", func(t *testing.T) { testPolicyBot(t, d, o) })
	}
	if d.Kit != nil {
		t.Run("CppBot", func(t *testing.T) { testCppBot(t, d, o) })
	}
}
