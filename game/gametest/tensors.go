package gametest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"jgym/env"
	"jgym/game"
)

// testTensors checks a setup that asks for a subset of the observation
// tensors (env.Setup.Tensors): the names it refuses, the spec it serves
// (the tensors named and the required masks, in the game's order), and,
// for each tensor alone, with each opponent order the game offers, that
// the subset's bytes of every tensor it holds are the whole
// observation's, round after round of the same games.
func testTensors[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	cfg := d.DefaultConfig()
	full, err := d.EnvSpec(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	names := full.TensorNames()
	required := full.RequiredTensors()
	if !slices.Contains(required, "action_mask") || !slices.Contains(required, full.PolicyMask) {
		t.Errorf("required tensors %v, want action_mask and the policy mask %q", required, full.PolicyMask)
	}
	seats := []string{"", "Demo", "", "Demo"}
	h := d.Host()
	for _, c := range []struct {
		name    string
		tensors []string
	}{
		{"unknown", []string{names[0], "nothing"}},
		{"twice", []string{names[0], names[0]}},
		{"long", []string{strings.Repeat("x", 10000)}},
		{"too many", slices.Repeat([]string{names[0]}, env.MaxTensors+1)},
	} {
		_, err := h.NewFactory(env.Setup{Seats: seats, Tensors: c.tensors})
		if !errors.Is(err, env.ErrBadSetup) {
			t.Errorf("%s: NewFactory(Tensors %.60q) = %v, want %v", c.name, c.tensors, err, env.ErrBadSetup)
			continue
		}
		if len(err.Error()) > 400 {
			t.Errorf("%s: error of %d bytes: %.100s...", c.name, len(err.Error()), err)
		}
		valid := names
		for _, ts := range full.OptIn {
			valid = append(slices.Clip(valid), ts.Name)
		}
		if c.name == "unknown" && !strings.Contains(err.Error(), fmt.Sprint(valid)) {
			t.Errorf("unknown: error %q does not list the valid names %v", err, valid)
		}
	}
	// Every name, in reverse order: the whole spec.
	reversed := slices.Clone(names)
	slices.Reverse(reversed)
	if f, err := h.NewFactory(env.Setup{Seats: seats, Tensors: reversed}); err != nil {
		t.Errorf("all tensors: %v", err)
	} else if fs := f.Spec(); !slices.Equal(fs.TensorNames(), names) {
		t.Errorf("all tensors in reverse: spec tensors %v, want %v", fs.TensorNames(), names)
	}

	seeds, rounds := []int64{1, 2, 3}, 200
	if o.short {
		seeds, rounds = seeds[:2], 40
	}
	orders := append([]string{""}, full.OpponentOrders...)
	for _, order := range orders {
		t.Run("opponents="+order, func(t *testing.T) {
			setup := env.Setup{Seats: seats, Shuffle: true, OpponentOrder: order}
			whole, wf := newInstance(t, d, setup)
			subs := make([]env.Instance, len(names))
			specs := make([]env.Spec, len(names))
			for i, name := range names {
				s := setup
				s.Tensors = []string{name}
				in, f := newInstance(t, d, s)
				subs[i], specs[i] = in, f.Spec()
				want := []string{name}
				for _, r := range required {
					if r != name {
						want = append(want, r)
					}
				}
				if got := specs[i].TensorNames(); !sameSet(got, want) || !isSubsequence(got, names) {
					t.Fatalf("Tensors [%s]: spec tensors %v, want %v in the order of %v", name, got, want, names)
				}
			}
			for _, seed := range seeds {
				compareSubsets(t, d, whole, wf.Spec(), subs, specs, seed, rounds)
			}
		})
	}
}

// compareSubsets plays the game of the seed on the whole instance and the
// subset ones with the same actions (learner 0 plays Demo's orders,
// learner 1 random moves of its policy mask) and compares every subset
// tensor with the whole observation's, for at most rounds rounds.
func compareSubsets[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], whole env.Instance, spec env.Spec,
	subs []env.Instance, specs []env.Spec, seed int64, rounds int) {
	t.Helper()
	const learners = 2
	for _, in := range append([]env.Instance{whole}, subs...) {
		if err := in.Reset(seed); err != nil {
			t.Fatal(err)
		}
	}
	out := env.NewOut(spec, learners)
	outs := make([]*env.Out, len(subs))
	for i := range subs {
		outs[i] = env.NewOut(specs[i], learners)
	}
	whole.Observe(out)
	demo, err := d.Bots.Lookup("Demo")
	if err != nil {
		t.Fatal(err)
	}
	shadow := demo(int(out.Seats[0]), int(seed))
	mask := slices.IndexFunc(spec.Observation, func(ts env.TensorSpec) bool { return ts.Name == spec.PolicyMask })
	u, na := spec.Action.Shape[0], spec.NumActions
	rng := rand.New(rand.NewPCG(uint64(seed), 33))
	action := make([]byte, learners*u)
	reward := make([]float32, learners)
	var scratch S
	orders := d.NewOrders()
	for round := 0; round < rounds; round++ {
		for i, in := range subs {
			in.Observe(outs[i])
			for k, ts := range specs[i].Observation {
				j := slices.IndexFunc(spec.Observation, func(w env.TensorSpec) bool { return w.Name == ts.Name })
				if !bytes.Equal(outs[i].Obs[k], out.Obs[j]) {
					t.Fatalf("seed %d round %d: tensor %s with Tensors [%s] differs from the whole observation's",
						seed, round, ts.Name, specs[i].Observation[0].Name)
				}
			}
			if !slices.Equal(outs[i].Scores, out.Scores) || !slices.Equal(outs[i].Seats, out.Seats) {
				t.Fatalf("seed %d round %d: scores or seats differ with a subset", seed, round)
			}
		}
		// Learner 0: Demo's orders; learner 1: a random direction of its
		// policy mask per slot.
		s := d.MatchOf(whole).State()
		orders.Reset(d.NumUnits(s))
		d.PlayBot(shadow, s, int(out.Seats[0]), &scratch, orders)
		dirs, _ := asAction(orders.List(), u, d.None)
		copy(action[:u], dirs)
		m := out.Obs[mask][na*u:]
		for id := range u {
			var legal []int
			for a := range na {
				if m[id*na+a] != 0 {
					legal = append(legal, a)
				}
			}
			action[u+id] = byte(int8(d.None))
			if len(legal) > 0 {
				action[u+id] = byte(legal[rng.IntN(len(legal))])
			}
		}
		term, err := whole.Step(action, nil, reward)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range subs {
			if tt, err := in.Step(action, nil, reward); err != nil || tt != term {
				t.Fatalf("seed %d round %d: subset step = %v, %v, want %v", seed, round, tt, err, term)
			}
		}
		if term {
			break
		}
		whole.Observe(out)
	}
}

// sameSet reports whether a and b hold the same names.
func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(s string) bool { return !slices.Contains(b, s) })
}

// isSubsequence reports whether a's names appear in b in a's order.
func isSubsequence(a, b []string) bool {
	j := 0
	for _, s := range b {
		if j < len(a) && a[j] == s {
			j++
		}
	}
	return j == len(a)
}
