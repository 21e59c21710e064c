package pandemic

import (
	"testing"

	"jgym/game/gametest"
)

// TestContract runs the conformance suite of the definition on the course
// engine's reference traces (the edge ones with their configurations) and
// the export tests' policy (testdata/tiny.onnx: every input matters, the
// board through a convolution). The shipped PPO policy's network is too
// slow for a run under the race detector.
func TestContract(t *testing.T) {
	gametest.Run(t, Def, gametest.Options{
		Traces: "../../testdata/pandemic/traces",
		Model:  "testdata/tiny.onnx",
	})
}

func FuzzStep(f *testing.F) { gametest.FuzzStep(f, Def) }
