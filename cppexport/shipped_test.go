package cppexport_test

import (
	"bytes"
	"os"
	"testing"
	"time"

	"jgym/cppbot"
	"jgym/cppexport"
	"jgym/env/crematoria"
	"jgym/policy"
)

// The recipe's Crematoria policy that the repository ships, and its course
// kit player (python-client/examples/models/README.md says how they were
// made and measured).
const (
	shippedModel  = "../python-client/examples/models/crematoria_recipe.onnx"
	shippedPlayer = "../python-client/examples/models/AICremRecipe.cc"
	shippedName   = "CremRecipe"
)

// TestShippedPlayerIsItsModelsExport checks that the shipped AICremRecipe.cc
// is what jgym export-cpp writes for the shipped ONNX file today: the C++
// player is the export of that model, not of another one or of an older
// exporter.
func TestShippedPlayerIsItsModelsExport(t *testing.T) {
	raw, err := os.ReadFile(shippedModel)
	if err != nil {
		t.Fatal(err)
	}
	cc, err := os.ReadFile(shippedPlayer)
	if err != nil {
		t.Fatal(err)
	}
	want, err := cppexport.Export(raw, crematoriaTarget, cppexport.Options{Name: shippedName, Source: shippedModel})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(cc, want) {
		t.Fatalf("%s differs from the export of %s at line %d; export it again:\n"+
			"  jgym export-cpp %s --name %s -o %s", shippedPlayer, shippedModel, firstDiffLine(cc, want),
			shippedModel[3:], shippedName, shippedPlayer[3:])
	}
}

// TestShippedPlayerMatchesPolicyBot compiles the shipped file itself and
// plays it and the Go policy bot of the shipped model in the same seats of
// the same games, with Riddick and Demo at the table: the traces must be
// equal byte for byte.
func TestShippedPlayerMatchesPolicyBot(t *testing.T) {
	needGXX(t)
	raw, err := os.ReadFile(shippedModel)
	if err != nil {
		t.Fatal(err)
	}
	m, err := policy.Parse(raw, crematoria.Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	k, err := crematoria.Def.CppKit()
	if err != nil {
		t.Fatal(err)
	}
	prog, err := cppbot.Open(shippedPlayer, k, cppbot.Options{CacheDir: cacheDir, RoundTimeout: 20 * time.Second, StartTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	type game struct {
		seed, seat int
		cfg        crematoria.Config
	}
	games := []game{{11, 0, crematoria.DefaultConfig()}, {12, 2, crematoria.DefaultConfig()}}
	if raceEnabled || testing.Short() {
		games = []game{{11, 2, shortConfig(20)}}
	}
	for _, g := range games {
		names := [4]string{"Riddick", "Demo", "Demo", "Riddick"}
		var cpp, gob [4]crematoria.Bot
		for p := range names {
			if names[p] == "Riddick" {
				cpp[p], gob[p] = crematoria.NewRiddick(p, g.seed), crematoria.NewRiddick(p, g.seed)
			} else {
				cpp[p], gob[p] = crematoria.NewDemo(p, g.seed), crematoria.NewDemo(p, g.seed)
			}
		}
		names[g.seat] = shippedName
		cpp[g.seat] = crematoria.Def.NewCppBot(prog, g.seat, g.seed)
		gob[g.seat] = crematoria.Def.NewPolicyBot(m, g.seat)
		want, orders := play(t, g.cfg, g.seed, names, gob)
		got, _ := play(t, g.cfg, g.seed, names, cpp)
		if !bytes.Equal(got, want) {
			t.Errorf("seed %d, seat %d: the trace of %s differs from policy:%s's (line %d)",
				g.seed, g.seat, shippedPlayer, shippedModel, firstDiffLine(got, want))
			continue
		}
		if orders[g.seat] == 0 {
			t.Errorf("seed %d: the policy gave no orders: the comparison proves little", g.seed)
		}
		t.Logf("seed %d, seat %d: %d rounds, %d orders, traces equal", g.seed, g.seat, g.cfg.NbRounds, orders[g.seat])
	}
}
