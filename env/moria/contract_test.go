package moria

import (
	"testing"

	"jgym/game/gametest"
)

// TestContract runs the conformance suite of the definition on the course
// engine's reference traces and the shipped PPO policy.
func TestContract(t *testing.T) {
	gametest.Run(t, Def, gametest.Options{
		Traces: "../../testdata/moria", // traces/ and aborts/
		Model:  "../../python-client/examples/models/moria_ppo.onnx",
	})
}

func FuzzStep(f *testing.F) { gametest.FuzzStep(f, Def) }
