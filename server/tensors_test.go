package server_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
	"jgym/env/crematoria"
	"jgym/env/pandemic"
)

// TestTensors: a session that asks for a subset of the observation
// tensors serves only those (and the action mask), in the game's order,
// with the bytes a session of the whole observation sends for the same
// games.
func TestTensors(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn")
	const n = 3
	whole := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: n})
	sub := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: n, Tensors: []string{"globals", "board"}})
	var names []string
	for _, o := range sub.GetGame().GetObservation() {
		names = append(names, o.GetName())
	}
	if want := []string{"board", "globals", "action_mask"}; !slices.Equal(names, want) {
		t.Fatalf("session spec tensors = %v, want %v", names, want)
	}
	ws, ss := ts.open(t, whole.SessionId, 1), ts.open(t, sub.SessionId, 1)
	rw, rs := ws.must(resetReq(5)), ss.must(resetReq(5))
	for step := 0; step < 130; step++ {
		if len(rs.GetObservation()) != len(names) {
			t.Fatalf("step %d: observation has %d tensors, want %d", step, len(rs.GetObservation()), len(names))
		}
		for _, name := range names {
			if !bytes.Equal(rs.GetObservation()[name].GetData(), rw.GetObservation()[name].GetData()) {
				t.Fatalf("step %d: tensor %s of the subset session differs from the whole session's", step, name)
			}
		}
		if !bytes.Equal(rs.GetReward().GetData(), rw.GetReward().GetData()) {
			t.Fatalf("step %d: rewards differ", step)
		}
		act := policy(rw, 1)
		rw, rs = ws.must(stepReq(nil, act, n, 1)), ss.must(stepReq(nil, act, n, 1))
	}
}

// TestOptInSpec: ListGames lists each game's opt-in tensors (GameSpec.opt_in,
// env.Spec.OptIn) as it lists the observation's: Pandemic's expert, bool
// [U, 5]; Crematoria has none. A session's spec lists none: the opt-in
// tensors it named are in its observation.
func TestOptInSpec(t *testing.T) {
	checkLeaks(t)
	reg, err := env.NewRegistry(crematoria.Def.Host(), pandemic.Def.Host())
	if err != nil {
		t.Fatal(err)
	}
	ts := startWith(t, "bufconn", reg, "")
	lg, err := ts.client.ListGames(context.Background(), &jgymv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]*jgymv1.GameSpec{}
	for _, g := range lg.GetGames() {
		specs[g.GetId()] = g
	}
	if got := specs["Crematoria-v0"].GetOptIn(); len(got) != 0 {
		t.Errorf("Crematoria-v0 opt_in = %v, want none", got)
	}
	want := pandemic.Def.Host().Spec().OptIn
	got := specs["Pandemic-v0"].GetOptIn()
	if len(want) != 1 || len(got) != len(want) {
		t.Fatalf("Pandemic-v0 opt_in = %v, want the %d tensors of env.Spec.OptIn (expert)", got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.GetName() != w.Name || g.GetDtype() != jgymv1.Dtype(w.Dtype) || fmt.Sprint(g.GetShape()) != fmt.Sprint(w.Shape) ||
			g.GetHigh() != w.High || g.GetDescription() != w.Description {
			t.Errorf("Pandemic-v0 opt_in[%d] = %v, want %+v", i, g, w)
		}
	}
	if g := got[0]; g.GetName() != "expert" || g.GetDtype() != jgymv1.Dtype_DTYPE_BOOL || fmt.Sprint(g.GetShape()) != "[60 5]" {
		t.Errorf("Pandemic-v0 opt_in[0] = %v, want expert bool [60 5]", g)
	}
	cr := ts.create(t, &jgymv1.CreateSessionRequest{Game: "Pandemic-v0", NumEnvs: 1, Tensors: []string{"units", "expert"}})
	var names []string
	for _, o := range cr.GetGame().GetObservation() {
		names = append(names, o.GetName())
	}
	if want := []string{"units", "action_mask", "expert"}; !slices.Equal(names, want) || len(cr.GetGame().GetOptIn()) != 0 {
		t.Errorf("session spec: observation %v opt_in %v, want %v and none", names, cr.GetGame().GetOptIn(), want)
	}
}
