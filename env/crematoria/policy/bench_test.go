package policy

import (
	"os"
	"testing"

	"jgym/env/crematoria"
)

// BenchmarkBot times one decision (encode, forward pass, argmax) of the
// model named by JGYM_POLICY_MODEL, default the example's exported model.
func BenchmarkBot(b *testing.B) {
	path := os.Getenv("JGYM_POLICY_MODEL")
	if path == "" {
		path = "../../../python-client/examples/models/crematoria_ppo.onnx"
	}
	m, err := Load(path)
	if err != nil {
		b.Skip(err)
	}
	g, err := crematoria.New(crematoria.DefaultConfig(), 1)
	if err != nil {
		b.Fatal(err)
	}
	bot := NewBot(m, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bot.Decide(&g.State); err != nil {
			b.Fatal(err)
		}
	}
}
