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
	spec, err := d.EnvSpec(&cfg)
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
	checkDescription(t, &spec)
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

// checkDescription checks the spec's description of its tensors: planes
// and columns as many as the tensors have, and the layout fields naming
// tensors and columns that exist.
func checkDescription(t *testing.T, spec *env.Spec) {
	t.Helper()
	u := spec.Action.Shape[0]
	board, units, mask := false, false, false
	for _, ts := range spec.Observation {
		if len(ts.Planes) > 0 {
			board = true
			if len(ts.Planes) != ts.Shape[0] {
				t.Errorf("%s: %d planes described, %d in the shape", ts.Name, len(ts.Planes), ts.Shape[0])
			}
			for _, p := range ts.Planes {
				if p.Name == "" || p.Count < 1 || p.Scale <= 0 || p.Kind == env.InvalidPlane || p.Kind > env.PlaneScalar ||
					p.Kind == env.PlaneCode && p.Count > 256 || p.Kind == env.PlaneBits && p.Count > 8 {
					t.Errorf("%s: plane %+v", ts.Name, p)
				}
			}
		}
		if len(ts.Columns) > 0 && len(ts.Columns) != ts.Shape[len(ts.Shape)-1] {
			t.Errorf("%s: %d columns described, %d in the shape", ts.Name, len(ts.Columns), ts.Shape[len(ts.Shape)-1])
		}
		if ts.Name == "units" {
			units = true
			if len(ts.Columns) == 0 || spec.UnitRow >= len(ts.Columns) || spec.UnitCol >= len(ts.Columns) || spec.UnitRow == spec.UnitCol {
				t.Errorf("units: %d columns described, unit row %d and col %d", len(ts.Columns), spec.UnitRow, spec.UnitCol)
			}
		}
		if ts.Name == spec.PolicyMask {
			mask = ts.Dtype == env.Bool && len(ts.Shape) == 2 && ts.Shape[0] == u && ts.Shape[1] == spec.NumActions
		}
	}
	if !board || !units || !mask {
		t.Errorf("the spec describes a board %v, units %v, a policy mask %q of bool [U, A] %v", board, units, spec.PolicyMask, mask)
	}
}
