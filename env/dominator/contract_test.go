package dominator

import (
	"testing"

	"jgym/game/gametest"
	"jgym/internal/race"
)

// raceEnabled reports whether the tests run with the race detector, which
// makes games some ten times slower: long tests play fewer of them.
const raceEnabled = race.Enabled

// TestContract runs the conformance suite of the definition on the course
// engine's reference traces (edge configurations and aborted games
// included) and the shipped PPO policy.
func TestContract(t *testing.T) {
	gametest.Run(t, Def, gametest.Options{
		Traces: "../../testdata/dominator/traces",
		Model:  "../../python-client/examples/models/dominator_ppo.onnx",
	})
}

func FuzzStep(f *testing.F) { gametest.FuzzStep(f, Def) }
