package dominator

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"slices"
	"testing"

	"jgym/policy"
)

var update = flag.Bool("update", false, "rewrite testdata/tiny.onnx")

// testdata/tiny.onnx is the tiny policy of the default configuration, for
// the documentation's commands (jgym match -g dominator
// policy:env/dominator/testdata/tiny.onnx ...).
func TestTinyPolicyFile(t *testing.T) {
	want := tinyPolicy(128, 37)
	if *update {
		if err := os.WriteFile("testdata/tiny.onnx", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("testdata/tiny.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("testdata/tiny.onnx is not the tiny policy: go test ./env/dominator -run TestTinyPolicyFile -update")
	}
	if _, err := policy.Load("testdata/tiny.onnx", Def.PolicySignature()); err != nil {
		t.Fatal(err)
	}
}

// tinyBot loads the tiny policy for the default configuration.
func tinyBot(t testing.TB) *policy.Model {
	t.Helper()
	cfg := DefaultConfig()
	m, err := policy.Parse(tinyPolicy(NumSlots(&cfg), cfg.Rows), Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The signature holds every observation tensor of the env, move_mask
// included, with U free.
func TestPolicySignature(t *testing.T) {
	sig := Def.PolicySignature()
	spec := Def.Host().Spec()
	if sig.ObservationVersion != ObservationVersion || sig.Actions != NumDirs || sig.SlotsMultiple != NumPlayers ||
		len(sig.Inputs) != len(spec.Observation) {
		t.Fatalf("Def.PolicySignature() = %+v", sig)
	}
	if len(sig.Older) != 1 || sig.Older[0].ObservationVersion != ObservationVersion1 || len(sig.Older[0].Inputs) != 5 {
		t.Fatalf("Def.PolicySignature().Older = %+v", sig.Older)
	}
	want := [][]int{{BoardPlanes, 37, 37}, {-1, UnitFeatures}, {NumGlobals}, {-1, NumDirs}, {-1, NumDirs}, {-1, TargetFeatures}}
	for k, in := range sig.Inputs {
		if in.Name != spec.Observation[k].Name || in.Dtype != spec.Observation[k].Dtype || !slices.Equal(in.Shape, want[k]) {
			t.Errorf("input %d = %+v, want %s %s %v", k, in, spec.Observation[k].Name, spec.Observation[k].Dtype, want[k])
		}
	}
	if m := tinyBot(t); m.NumSlots != 128 {
		t.Errorf("NumSlots = %d, want 128", m.NumSlots)
	}
}

// The bot issues, in slot order, the argmax of each of its units when the
// engine keeps it (never None), and plays the same through Play as through
// PlaySeat (both read the real state: the bot is a SeatBot).
func TestPolicyBotOrders(t *testing.T) {
	m := tinyBot(t)
	g, err := New(DefaultConfig(), 3)
	if err != nil {
		t.Fatal(err)
	}
	bots := [NumPlayers]Bot{NewDemo(0, 3), NewDemo(1, 3), NewDemo(2, 3), NewDemo(3, 3)}
	playRounds(t, g, 7, &bots)
	for me := 0; me < NumPlayers; me++ {
		bot := Def.NewPolicyBot(m, me)
		var o, ov Orders
		o.Reset(len(g.Units))
		bot.PlaySeat(&g.State, me, &o)
		best := policy.Argmax(bot.Logits(), m.NumSlots, NumDirs)
		var want []Command
		for id, d := range best {
			if Dir(d) != None && Legal(&g.State, me, id, Dir(d)) {
				want = append(want, Command{ID: id, Dir: Dir(d)})
			}
		}
		if got := o.List(); !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("seat %d: orders %v, want %v", me, got, want)
		}
		ov.Reset(len(g.Units))
		Def.NewPolicyBot(m, me).Play(&g.State, &ov)
		if !slices.Equal(ov.List(), o.List()) {
			t.Errorf("seat %d: Play gives %v, PlaySeat %v", me, ov.List(), o.List())
		}
	}
}

// A model of 128 slots on a 37 x 37 board refuses games of another number
// of units or another board.
func TestPolicyBotRejectsOtherConfigs(t *testing.T) {
	m := tinyBot(t)
	fewer := DefaultConfig()
	fewer.NbFarmers--
	other, err := ShippedConfig("generator3")
	if err != nil {
		t.Fatal(err)
	}
	other.Rows, other.Cols = 31, 31
	for _, cfg := range []Config{fewer, other} {
		g, err := New(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		bot := Def.NewPolicyBot(m, 0)
		var o Orders
		o.Reset(len(g.Units))
		bot.PlaySeat(&g.State, 0, &o)
		if !errors.Is(bot.Err(), policy.ErrSignature) || len(o.List()) != 0 {
			t.Errorf("%d slots, %d x %d: err %v, %d orders", NumSlots(&cfg), cfg.Rows, cfg.Cols, bot.Err(), len(o.List()))
		}
	}
}
