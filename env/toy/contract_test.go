package toy

import (
	"testing"

	"jgym/game/gametest"
)

// TestContract runs the conformance suite of the definition on the toy's
// reference traces and its tiny policy.
func TestContract(t *testing.T) {
	gametest.Run(t, Def, gametest.Options{Traces: "../../testdata/toy/traces", Model: tinyPath})
}

func FuzzStep(f *testing.F) { gametest.FuzzStep(f, Def) }

func FuzzConfig(f *testing.F) {
	gametest.FuzzConfig(f, Def, []byte(DefaultConfig().Text()), []byte(smallConfig.Text()))
}

func FuzzTrace(f *testing.F) {
	gametest.FuzzTrace(f, Def, [2][]byte{[]byte(DefaultConfig().Text()), []byte("0 0 1 0 1\n")})
}
