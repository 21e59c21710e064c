package moria

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"jgym/env"
	"jgym/policy"
)

// parseModel parses the ONNX model raw as a Moria policy.
func parseModel(t testing.TB, raw []byte) *policy.Model {
	t.Helper()
	m, err := policy.Parse(raw, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// tinyModel loads the test policy (onnx_test.go) for the default number of
// unit slots.
func tinyModel(t testing.TB) *policy.Model {
	t.Helper()
	return parseModel(t, tinyPolicy(NumSlots(&defaultConfig), 4))
}

var update = flag.Bool("update", false, "rewrite testdata/tiny.onnx")

// testdata/tiny.onnx is the test policy (100 slots), for the commands of
// the documentation: "jgym match -g moria policy:env/moria/testdata/tiny.onnx ...".
// go test -run TestTinyPolicyFile -update rewrites it.
func TestTinyPolicyFile(t *testing.T) {
	const path = "testdata/tiny.onnx"
	want := tinyPolicy(100, 4)
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from tinyPolicy(100, 4): rewrite it with go test -run TestTinyPolicyFile -update", path)
	}
	if _, err := policy.Load(path, Def.PolicySignature()); err != nil {
		t.Fatal(err)
	}
}

// playPolicy has model m's policy bot play seat me of state s once and
// returns the bot and its commands.
func playPolicy(m *policy.Model, me int, s *State) (*PolicyBot, []Command) {
	bot := Def.NewPolicyBot(m, me)
	o := Def.NewOrders()
	o.Reset(len(s.Units))
	bot.Play(s, o)
	return bot, o.List()
}

func TestPolicySignature(t *testing.T) {
	sig := Def.PolicySignature()
	if sig.ObservationVersion != ObservationVersion || sig.Actions != NumDirs || sig.SlotsMultiple != NumPlayers || len(sig.Inputs) != 5 {
		t.Fatalf("Def.PolicySignature() = %+v", sig)
	}
	if len(sig.Older) != 1 || sig.Older[0].ObservationVersion != ObservationVersion1 || len(sig.Older[0].Inputs) != 4 {
		t.Fatalf("Def.PolicySignature().Older = %+v", sig.Older)
	}
	want := []policy.Input{
		{Name: "board", Dtype: env.Uint8, Shape: []int{BoardPlanes, Rows, Cols}},
		{Name: "units", Dtype: env.Uint8, Shape: []int{-1, UnitFeatures}},
		{Name: "globals", Dtype: env.Float32, Shape: []int{NumGlobals}},
		{Name: "action_mask", Dtype: env.Bool, Shape: []int{-1, NumDirs}},
		{Name: "targets", Dtype: env.Bool, Shape: []int{-1, TargetFeatures}},
	}
	for k, in := range sig.Inputs {
		w := want[k]
		if in.Name != w.Name || in.Dtype != w.Dtype || len(in.Shape) != len(w.Shape) {
			t.Fatalf("input %d = %+v, want %+v", k, in, w)
		}
		for i := range w.Shape {
			if in.Shape[i] != w.Shape[i] {
				t.Errorf("input %s shape %v, want %v", in.Name, in.Shape, w.Shape)
			}
		}
	}
	if m := tinyModel(t); m.NumSlots != 100 || len(m.Signature.Inputs) != 4 {
		t.Errorf("NumSlots = %d, want 100; %d inputs, want moria-obs-1's 4", m.NumSlots, len(m.Signature.Inputs))
	}
	if m, err := policy.Parse(tinyPolicyTargets(100, 1), sig); err != nil || len(m.Signature.Inputs) != 5 {
		t.Errorf("a moria-obs-2 model: %v", err)
	}
	// A model of another game does not load.
	if _, err := policy.Parse(tinyPolicy(100, 1), policy.Signature{ObservationVersion: "crematoria-obs-1", Inputs: Def.PolicySignature().Inputs, Actions: 11}); !errors.Is(err, policy.ErrObservationVersion) {
		t.Errorf("a Moria model loaded as a crematoria-obs-1 policy: %v", err)
	}
}

// Moria's bots order the opponents by seat or by score and issue the
// commands by slot or attacks first: a model naming another order is
// refused at load time, one naming these loads with them.
func TestPolicyOrdersMetadata(t *testing.T) {
	with := func(key, order string) []byte {
		entry := pbString(pbString(nil, 1, key), 2, order)
		return pbBytes(tinyPolicy(100, 4), 14, entry) // metadata_props
	}
	for _, c := range []struct{ key, order string }{
		{policy.KeyOpponentOrder, "alphabet"}, {policy.KeyActionOrder, "random"},
	} {
		_, err := policy.Parse(with(c.key, c.order), Def.PolicySignature())
		if !errors.Is(err, policy.ErrUnsupported) || !strings.Contains(err.Error(), c.key+` "`+c.order+`"`) {
			t.Errorf("%s %s: err = %v, want policy.ErrUnsupported naming it", c.key, c.order, err)
		}
	}
	for _, c := range []struct{ key, order string }{
		{policy.KeyOpponentOrder, policy.OpponentsBySeat}, {policy.KeyOpponentOrder, policy.OpponentsByScore},
		{policy.KeyActionOrder, policy.OrderSlot}, {policy.KeyActionOrder, policy.OrderAttacksFirst},
	} {
		m, err := policy.Parse(with(c.key, c.order), Def.PolicySignature())
		if err != nil {
			t.Errorf("%s %s: Parse = %v", c.key, c.order, err)
			continue
		}
		if got := map[string]string{policy.KeyOpponentOrder: m.OpponentOrder, policy.KeyActionOrder: m.ActionOrder}[c.key]; got != c.order {
			t.Errorf("%s %s: the model's order is %q", c.key, c.order, got)
		}
	}
}

// The policy bot commands, in slot order, the argmax of its logits for
// every unit it owns (None left out), and only legal moves.
func TestPolicyBotPlaysArgmaxInSlotOrder(t *testing.T) {
	m := tinyModel(t)
	g, err := New(DefaultConfig(), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, me := range []int{0, 2} {
		bot, got := playPolicy(m, me, &g.State)
		if bot.Err() != nil {
			t.Fatal(bot.Err())
		}
		best := policy.Argmax(bot.Logits(), m.NumSlots, NumDirs)
		var want []Command
		dirs := map[Dir]int{}
		for id, d := range best {
			if g.Units[id].Player == me && Dir(d) != None {
				want = append(want, Command{ID: id, Dir: Dir(d)})
				dirs[Dir(d)]++
			}
		}
		if len(got) != len(want) || len(want) < 5 || len(dirs) < 3 {
			t.Fatalf("seat %d: %d commands in %d directions, want %d (at least 5, in 3 directions)", me, len(got), len(dirs), len(want))
		}
		for k, c := range got {
			if c != want[k] {
				t.Errorf("seat %d: command %d = %+v, want %+v", me, k, c, want[k])
			}
			if u := g.Units[c.ID]; !CanMove(&g.State, &u, c.Dir) {
				t.Errorf("seat %d: unit %d: %v is not legal", me, c.ID, c.Dir)
			}
		}
	}
}

// A model of 100 slots refuses a game of another number of units.
func TestPolicyBotRejectsOtherSlotCount(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NbWizards--
	g, err := New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	bot, got := playPolicy(tinyModel(t), 0, &g.State)
	if !errors.Is(bot.Err(), policy.ErrSignature) || len(got) != 0 {
		t.Errorf("Play with %d slots on a 100-slot model: err %v, %d orders", NumSlots(&cfg), bot.Err(), len(got))
	}
}
