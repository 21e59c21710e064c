package gametest

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"jgym/env"
	"jgym/game"
)

// testDefinition checks that the pieces of a definition agree.
func testDefinition[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D]) {
	cfg := d.DefaultConfig()
	if cfg.Rounds() <= 0 {
		t.Errorf("the default configuration has %d rounds", cfg.Rounds())
	}
	spec, err := d.Spec(&cfg)
	if err != nil {
		t.Fatalf("Spec(default) = %v", err)
	}
	if spec.ID != d.EnvID || spec.NumSeats != game.NumSeats || spec.NumRounds != cfg.Rounds() {
		t.Errorf("Spec: id %q, %d seats, %d rounds; want %q, %d, %d", spec.ID, spec.NumSeats, spec.NumRounds, d.EnvID, game.NumSeats, cfg.Rounds())
	}
	if len(spec.Action.Shape) != 1 || spec.Action.Dtype != env.Int8 || spec.NumActions < 2 {
		t.Errorf("Spec: action %+v with %d choices, want int8 [U]", spec.Action, spec.NumActions)
	}
	if n := int(d.None); n < 0 || n >= spec.NumActions {
		t.Errorf("None = %d, not one of the %d choices", n, spec.NumActions)
	}
	names := map[string]bool{}
	for _, ts := range spec.Observation {
		if names[ts.Name] || ts.Bytes() <= 0 || ts.Description == "" {
			t.Errorf("observation tensor %+v: duplicate, empty or undescribed", ts)
		}
		names[ts.Name] = true
	}
	if !names["action_mask"] {
		t.Error("the observation has no action_mask")
	}
	sig := d.PolicySignature()
	if sig.ObservationVersion != spec.ObservationVersion || sig.Actions != spec.NumActions || len(sig.Inputs) != len(spec.Observation) {
		t.Errorf("PolicySignature: version %q, %d actions, %d inputs; spec: %q, %d, %d",
			sig.ObservationVersion, sig.Actions, len(sig.Inputs), spec.ObservationVersion, spec.NumActions, len(spec.Observation))
	}
	for i, in := range sig.Inputs {
		if i < len(spec.Observation) && in.Name != spec.Observation[i].Name {
			t.Errorf("PolicySignature input %d is %q, the spec's tensor %q", i, in.Name, spec.Observation[i].Name)
		}
	}
	bots := d.Bots.Names()
	for _, b := range []string{"Null", "Demo", d.StrongBot} {
		if !slices.Contains(bots, b) {
			t.Errorf("bots %v lack %q", bots, b)
		}
	}
	a := d.Arena()
	if a.Name() != d.Name || !slices.Equal(a.Bots(), bots) {
		t.Errorf("Arena: %q with %v, want %q with %v", a.Name(), a.Bots(), d.Name, bots)
	}
	var e game.Entry = d
	if e.ID() != d.EnvID || e.Strong() != d.StrongBot {
		t.Errorf("Entry: %q, %q", e.ID(), e.Strong())
	}
	if _, ok := e.Export(); ok != (d.CppTarget != nil) {
		t.Errorf("Export ok = %v with CppTarget set %v", ok, d.CppTarget != nil)
	}
	// The default configuration file names the game.
	if spec.DefaultConfig != "" {
		if !strings.HasPrefix(spec.DefaultConfig, d.Name) {
			t.Errorf("the default configuration text starts with %.20q, not the game's name", spec.DefaultConfig)
		}
		c, err := d.ParseConfig(bytes.NewReader([]byte(spec.DefaultConfig)))
		if err != nil {
			t.Fatalf("ParseConfig(default text) = %v", err)
		}
		if c.Rounds() != cfg.Rounds() {
			t.Errorf("the default text has %d rounds, DefaultConfig %d", c.Rounds(), cfg.Rounds())
		}
	}
}
