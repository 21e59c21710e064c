package toy

import (
	"bytes"
	"context"
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

// FuzzTrace starts from a game of smallConfig and its command file.
func FuzzTrace(f *testing.F) {
	m, err := Def.NewBotMatch(smallConfig, 1, [NumPlayers]string{"Greedy", "Demo", "Greedy", "Demo"})
	if err != nil {
		f.Fatal(err)
	}
	var trace, cmds bytes.Buffer
	m.WriteTrace(&trace)
	m.Record()
	if err := m.Run(context.Background()); err != nil {
		f.Fatal(err)
	}
	m.Log().Write(&cmds)
	gametest.FuzzTrace(f, Def, [2][]byte{trace.Bytes(), cmds.Bytes()})
}
