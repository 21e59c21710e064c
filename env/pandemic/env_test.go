package pandemic

import (
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/env"
)

// Pandemic's env specifics; the env's contract is gametest's (TestContract).

// TestSpec checks the spaces: the board's size is part of the spec, so a
// configuration changes the shapes.
func TestSpec(t *testing.T) {
	sp := Def.Host().Spec()
	got := map[string][]int{}
	for _, ts := range sp.Observation {
		got[ts.Name] = ts.Shape
	}
	want := map[string][]int{"board": {6, 70, 70}, "units": {60, 13}, "globals": {24}, "action_mask": {60, 5}, "targets": {60, 35}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("observation shapes = %v, want %v", got, want)
	}
	if got, want := sp.ObservationBytes(), 6*4900+60*13+4*24+60*5+60*35; got != want {
		t.Errorf("ObservationBytes() = %d, want %d", got, want)
	}
	if sp.ID != EnvID || sp.ObservationVersion != "pandemic-obs-2" || sp.NumRounds != 200 {
		t.Errorf("spec = %s %s %d rounds", sp.ID, sp.ObservationVersion, sp.NumRounds)
	}
	if sp.Action.Dtype != env.Int8 || sp.ActionOrder.Dtype != env.Int16 || sp.NumActions != 5 {
		t.Errorf("action spec = %+v / %+v / %d", sp.Action, sp.ActionOrder, sp.NumActions)
	}
	// A configuration changes the shapes.
	f, err := Def.Host().NewFactory(env.Setup{Seats: []string{"", "Null", "Null", "Null"},
		Config: strings.Replace(strings.Replace(strings.Replace(DefaultConfigText, "70", "30", 2), "nb_units                    15", "nb_units 4", 1), "200", "50", 1)})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Spec().Observation[0].Shape; !reflect.DeepEqual(got, []int{6, 30, 30}) {
		t.Errorf("board shape of a 30 x 30 configuration = %v", got)
	}
	if got := f.Spec().Action.Shape; !reflect.DeepEqual(got, []int{16}) {
		t.Errorf("action shape with 4 units each = %v, want [16]", got)
	}
}

// TestDecode checks that actions become orders: only owned slots, None and
// bad values dropped, in increasing order value, ties by slot.
func TestDecode(t *testing.T) {
	g := newTestGame(t, 4)
	u := NumSlots(&g.cfg)
	dirs := make([]byte, u)
	for i := range dirs {
		dirs[i] = byte(None)
	}
	dirs[0], dirs[5], dirs[6], dirs[20], dirs[7] = byte(Right), byte(Bottom), byte(Top), byte(Top), 9
	order := make([]byte, 2*u)
	put := func(id int, v int16) { binary.LittleEndian.PutUint16(order[2*id:], uint16(v)) }
	put(0, 3)
	put(5, -1)
	put(6, 3)
	put(20, -5) // not mine: ignored whatever its order
	for _, c := range []struct {
		name  string
		order []byte
		want  []Command
	}{
		{"slot order", nil, []Command{{ID: 0, Dir: Right}, {ID: 5, Dir: Bottom}, {ID: 6, Dir: Top}}},
		{"given order", order, []Command{{ID: 5, Dir: Bottom}, {ID: 0, Dir: Right}, {ID: 6, Dir: Top}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Def.NewOrders()
			o.Reset(len(g.Units))
			Def.Decode(&g.State, 0, dirs, c.order, o)
			if got := o.List(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Decode = %v, want %v", got, c.want)
			}
		})
	}
}

// TestEnvWithPasteur plays a whole game of a learner that takes its
// actions from the masks (the first legal direction) against Pasteur, and
// checks the episode's bookkeeping.
func TestEnvWithPasteur(t *testing.T) {
	in, _, f := coursetest.NewInstance[env.Table[Bot]](t, Def.Host(), env.Setup{Seats: []string{"Pasteur", "", "Demo", "Null"}, Reward: env.Relative})
	if err := in.Reset(21); err != nil {
		t.Fatal(err)
	}
	sp := f.Spec()
	out := env.NewOut(sp, 1)
	act := make([]byte, sp.Action.Bytes())
	reward := make([]float32, 1)
	rounds := 0
	for done := false; !done; rounds++ {
		in.Observe(out)
		mask := out.Obs[3]
		for id := range act {
			act[id] = byte(None)
			for d := 0; d < NumDirs-1; d++ {
				if mask[id*NumDirs+(id+d+rounds)%4] == 1 {
					act[id] = byte((id + d + rounds) % 4)
					break
				}
			}
		}
		var err error
		if done, err = in.Step(act, nil, reward); err != nil {
			t.Fatal(err)
		}
	}
	in.Observe(out)
	if rounds != 200 || out.Round[0] != 200 {
		t.Errorf("episode of %d rounds, round %d, want 200", rounds, out.Round[0])
	}
	if out.Rank[0] == 1 || out.Scores[0] <= out.Scores[1] {
		t.Errorf("the mask-walker outscored Pasteur: scores %v", out.Scores)
	}
}
