package server_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env/crematoria"
)

// pipelineScript is a fixed sequence of requests for a session of 6 envs:
// steps of two halves and of all envs (the same half twice in a row too),
// with a reset of all envs and one of some envs in the middle. The actions
// are fixed (a direction per slot from the request's index), so that the
// whole script can be sent before any answer is read.
func pipelineScript() []*jgymv1.StreamRequest {
	halves := [][]int32{{0, 1, 2}, {3, 4, 5}}
	var reqs []*jgymv1.StreamRequest
	step := func(ids []int32) {
		b := len(ids)
		if ids == nil {
			b = 6
		}
		act := make([]byte, b*slots)
		for k := range act {
			act[k] = byte((k*7 + len(reqs)*3) % dirs)
		}
		reqs = append(reqs, stepReq(ids, act, b, 1))
	}
	reqs = append(reqs, resetReq(5))
	for r := 0; r < 30; r++ {
		switch {
		case r == 12:
			reqs = append(reqs, resetReq(9))
		case r == 20:
			reqs = append(reqs, &jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{
				Reset_: &jgymv1.ResetRequest{EnvIds: []int32{1, 4}}}})
		case r%5 == 4:
			step(nil)
		case r%7 == 3:
			step(halves[0]) // the same half twice in a row
			step(halves[0])
		default:
			step(halves[r%2])
		}
	}
	return reqs
}

// TestPipelinedRequests sends a whole script of requests before reading
// any answer, and checks that every request gets its answer, in order,
// equal to the answer it gets when each request waits for the previous
// answer; for raw and delta sessions, and over 6-round games (autoreset
// within the script).
func TestPipelinedRequests(t *testing.T) {
	checkLeaks(t)
	cfg := strings.Replace(crematoria.DefaultConfigText, "nb_rounds            120", "nb_rounds              6", 1)
	for _, transport := range []string{"bufconn", "tcp"} {
		for _, delta := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/delta=%v", transport, delta), func(t *testing.T) {
				ts := start(t, transport)
				run := func(pipelined bool) []string {
					cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 6, Seats: seats("", "Demo", "Demo", "Null"),
						Config: cfg, ObservationDelta: delta})
					s := ts.open(t, cr.SessionId, 1)
					var dc *deltaClient
					if delta {
						dc = newDeltaClient(cr.GetGame(), 6)
					}
					script := pipelineScript()
					var out []string
					answer := func(r *jgymv1.StepResult) {
						if dc != nil {
							dc.decode(t, r)
						}
						h := sha256.New()
						digest(h, r)
						out = append(out, fmt.Sprintf("%v %x", r.GetEnvIds(), h.Sum(nil)[:8]))
					}
					if !pipelined {
						for _, req := range script {
							answer(s.must(req))
						}
						return out
					}
					for _, req := range script {
						req.SessionId = cr.SessionId
						if err := s.st.Send(req); err != nil {
							t.Fatalf("send: %v", err)
						}
					}
					// Nothing accepted is lost: the stream ends after the
					// answers of everything sent before CloseSend.
					if err := s.st.CloseSend(); err != nil {
						t.Fatal(err)
					}
					for range script {
						resp, err := s.st.Recv()
						if err != nil {
							t.Fatalf("answer %d of %d: %v", len(out), len(script), err)
						}
						answer(resp.GetResult())
					}
					if resp, err := s.st.Recv(); err == nil {
						t.Fatalf("an answer too many: env ids %v", resp.GetResult().GetEnvIds())
					}
					return out
				}
				want, got := run(false), run(true)
				if len(got) != len(want) {
					t.Fatalf("%d answers, want %d", len(got), len(want))
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("answer %d pipelined: %s, want %s (one request at a time)", i, got[i], want[i])
					}
				}
			})
		}
	}
}
