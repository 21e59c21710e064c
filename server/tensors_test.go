package server_test

import (
	"bytes"
	"slices"
	"testing"

	jgymv1 "jgym/api/jgym/v1"
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
