package crematoria_test

import (
	"os"
	"testing"

	"jgym/env/crematoria"
	"jgym/policy"
)

// exampleModel is the example's exported policy.
const exampleModel = "../../python-client/examples/models/crematoria_ppo.onnx"

// BenchmarkPolicyBot times one decision (encode, forward pass, argmax) of
// the model named by JGYM_POLICY_MODEL, default the example's exported
// model.
func BenchmarkPolicyBot(b *testing.B) {
	path := os.Getenv("JGYM_POLICY_MODEL")
	if path == "" {
		path = exampleModel
	}
	m, err := policy.Load(path, crematoria.Def.PolicySignature())
	if err != nil {
		b.Fatal(err)
	}
	g, err := crematoria.New(crematoria.DefaultConfig(), 1)
	if err != nil {
		b.Fatal(err)
	}
	bot := crematoria.Def.NewPolicyBot(m, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bot.Decide(&g.State, 0); err != nil {
			b.Fatal(err)
		}
	}
}
