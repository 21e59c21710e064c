package crematoria_test

import (
	"errors"
	"os"
	"testing"

	"jgym/env/crematoria"
	"jgym/policy"
)

func exampleBot(t testing.TB) *policy.Model {
	t.Helper()
	m, err := policy.Load(exampleModel, crematoria.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The policy bot commands, in slot order, the argmax of its logits for
// every unit it owns (None left out), and only legal moves.
func TestPolicyBotPlaysArgmaxInSlotOrder(t *testing.T) {
	m := exampleBot(t)
	g, err := crematoria.New(crematoria.DefaultConfig(), 3)
	if err != nil {
		t.Fatal(err)
	}
	const me = 2
	bot := crematoria.NewPolicyBot(m, me)
	var o crematoria.Orders
	o.Reset(len(g.Units))
	bot.Play(&g.State, &o)
	if bot.Err() != nil {
		t.Fatal(bot.Err())
	}
	best := policy.Argmax(bot.Logits(), m.NumSlots, crematoria.NumDirs)
	var want []crematoria.Command
	for id, d := range best {
		if g.Units[id].Player == me && crematoria.Dir(d) != crematoria.None {
			want = append(want, crematoria.Command{ID: id, Dir: crematoria.Dir(d)})
		}
	}
	got := o.List()
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d commands, want %d", len(got), len(want))
	}
	for k, c := range got {
		if c != want[k] {
			t.Errorf("command %d = %+v, want %+v", k, c, want[k])
		}
		u := g.Units[c.ID]
		if !crematoria.CanMove(&g.State, &u, c.Dir) {
			t.Errorf("unit %d: %v is not legal", c.ID, c.Dir)
		}
	}
}

// A model of 80 slots refuses a game of another number of units.
func TestPolicyBotRejectsOtherSlotCount(t *testing.T) {
	m := exampleBot(t)
	cfg := crematoria.DefaultConfig()
	cfg.NbPioneers--
	g, err := crematoria.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	bot := crematoria.NewPolicyBot(m, 0)
	var o crematoria.Orders
	o.Reset(len(g.Units))
	bot.Play(&g.State, &o)
	if !errors.Is(bot.Err(), policy.ErrSignature) || len(o.List()) != 0 {
		t.Errorf("Play with %d slots on an 80-slot model: err %v, %d orders", crematoria.NumSlots(&cfg), bot.Err(), len(o.List()))
	}
}

// A policy seat plays a match through its factory.
func TestMatchWithPolicyBot(t *testing.T) {
	f := crematoria.PolicyFactory(exampleBot(t))
	var bots [crematoria.NumPlayers]crematoria.Bot
	for p := range bots {
		if p == 1 {
			bots[p] = f(p, 7)
		} else {
			bots[p] = crematoria.NewDemo(p, 7)
		}
	}
	match, err := crematoria.NewMatchWithBots(crematoria.DefaultConfig(), 7, [4]string{"Demo", "ppo", "Demo", "Demo"}, bots)
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 5; r++ {
		if err := match.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}
	if err := bots[1].(*crematoria.PolicyBot).Err(); err != nil {
		t.Fatal(err)
	}
}

// The exported example model is a Crematoria policy (trained on
// crematoria-obs-1: its bot feeds it that version's four tensors).
func TestPolicySignature(t *testing.T) {
	sig := crematoria.PolicySignature()
	if sig.ObservationVersion != crematoria.ObservationVersion || sig.Actions != crematoria.NumDirs || len(sig.Inputs) != 6 {
		t.Fatalf("PolicySignature() = %+v", sig)
	}
	if len(sig.Older) != 2 || sig.Older[0].ObservationVersion != crematoria.ObservationVersion2 || len(sig.Older[0].Inputs) != 5 ||
		sig.Older[1].ObservationVersion != crematoria.ObservationVersion1 || len(sig.Older[1].Inputs) != 4 {
		t.Fatalf("PolicySignature().Older = %+v", sig.Older)
	}
	if _, err := os.Stat(exampleModel); err != nil {
		t.Fatal(err)
	}
	if m := exampleBot(t); m.NumSlots != 80 || m.Signature.ObservationVersion != crematoria.ObservationVersion1 {
		t.Errorf("NumSlots = %d, version %q; want 80, %q", m.NumSlots, m.Signature.ObservationVersion, crematoria.ObservationVersion1)
	}
}
