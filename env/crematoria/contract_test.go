package crematoria

import (
	"testing"

	"jgym/game/gametest"
)

// TestContract runs the conformance suite of the definition on the course
// engine's reference traces and the shipped recipe policy (opponents by
// score, attacks first).
func TestContract(t *testing.T) {
	gametest.Run(t, Def, gametest.Options{
		Traces: "../../testdata/crematoria/traces",
		Model:  "../../python-client/examples/models/crematoria_recipe.onnx",
	})
}

func FuzzStep(f *testing.F) { gametest.FuzzStep(f, Def) }
