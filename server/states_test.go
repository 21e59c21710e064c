package server_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/grpc/codes"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/server"
)

// getStates asks for the saved states of every env.
func (s *stream) getStates() ([][]byte, error) {
	req := &jgymv1.StreamRequest{SessionId: s.id, Kind: &jgymv1.StreamRequest_GetState{GetState: &jgymv1.GetStateRequest{}}}
	if err := s.st.Send(req); err != nil {
		_, err = s.st.Recv()
		return nil, err
	}
	resp, err := s.st.Recv()
	if err != nil {
		return nil, err
	}
	return resp.GetStates(), nil
}

func setStateReq(states [][]byte) *jgymv1.StreamRequest {
	return &jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_SetState{SetState: &jgymv1.SetStateRequest{States: states}}}
}

// gameDigest hashes what a step gives of the game (not the episode
// counter, which a restore advances).
func gameDigest(h io.Writer, r *jgymv1.StepResult) {
	fmt.Fprint(h, r.GetEnvIds())
	for _, name := range []string{"board", "units", "globals", "action_mask"} {
		h.Write(r.GetObservation()[name].GetData())
	}
	for _, x := range []*jgymv1.Tensor{r.GetReward(), r.GetTerminated(), r.GetInfo().GetScores(), r.GetInfo().GetRank(),
		r.GetInfo().GetRound(), r.GetInfo().GetLearnerSeats()} {
		h.Write(x.GetData())
	}
}

// playOn plays steps steps from r with policy, returning a digest of each.
func playOn(s *stream, r *jgymv1.StepResult, steps int) []string {
	var out []string
	for range steps {
		r = s.must(stepReq(nil, policy(r, s.l), len(r.GetEnvIds()), s.l))
		h := sha256.New()
		gameDigest(h, r)
		out = append(out, fmt.Sprintf("%x", h.Sum(nil)))
	}
	return out
}

// TestSaveRestore saves the games of a session's envs over the stream,
// plays on, restores them and plays the same actions: the same answers.
// A damaged state fails its request with INVALID_ARGUMENT.
func TestSaveRestore(t *testing.T) {
	ts := start(t, "bufconn")
	resp := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 3, ShuffleSeats: true, ObservationDelta: false})
	s := ts.open(t, resp.SessionId, 1)
	r := s.must(resetReq(5))
	for range 4 {
		r = s.must(stepReq(nil, policy(r, 1), 3, 1))
	}
	states, err := s.getStates()
	if err != nil || len(states) != 3 {
		t.Fatalf("get_state: %d states, %v", len(states), err)
	}
	want := playOn(s, r, 6)
	r2 := s.must(setStateReq(states))
	if !bytes.Equal(r2.GetInfo().GetRound().GetData(), r.GetInfo().GetRound().GetData()) {
		t.Fatal("set_state: the rounds are not the saved ones")
	}
	got := playOn(s, r2, 6)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("step %d after set_state differs from the original's", i)
		}
	}
	bad := bytes.Clone(states[1])
	bad[len(bad)/2] ^= 1
	_, err = s.do(setStateReq([][]byte{states[0], bad, states[2]}))
	wantCode(t, "a damaged state", err, codes.InvalidArgument)
}

// TestTraceStart starts a session's envs from a round of a trace the
// client sends and of one the operator offers by name, with and without
// its command file; names that are paths, unknown names and a server
// without --start-traces are refused.
func TestTraceStart(t *testing.T) {
	dir := t.TempDir()
	base := "crematoria_s10_Demo-Demo-Demo-Demo"
	src := "../testdata/crematoria/traces/"
	files := [][2]string{{base + ".res.gz", "game1.res.gz"}, {"commands/" + base + ".cmd.gz", "game1.cmd.gz"}, {base + ".res.gz", "alone.res.gz"}}
	for _, f := range files {
		from, to := src+f[0], f[1]
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ts := start(t, "bufconn", server.WithStartTraces(dir))
	resp := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2, Seats: seats("", "Demo", "Demo", "Demo")})
	traceReq := func(st *jgymv1.TraceStart) *jgymv1.StreamRequest {
		return &jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{TraceStart: st}}}
	}
	s := ts.open(t, resp.SessionId, 1)
	r := s.must(traceReq(&jgymv1.TraceStart{Name: "game1", Round: 17}))
	if rounds := int32s(r.GetInfo().GetRound().GetData()); rounds[0] != 17 || rounds[1] != 17 {
		t.Fatalf("trace start at round 17: rounds %v", rounds)
	}
	playOn(s, r, 3)
	// Without a command file (one the client sends or the operator's
	// trace without its .cmd): the position rebuilt from the trace.
	src0, err := os.ReadFile(src + base + ".res.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(src0))
	if err != nil {
		t.Fatal(err)
	}
	plainTrace, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []*jgymv1.TraceStart{{Name: "alone", Round: 30}, {Trace: plainTrace, Round: 30}} {
		r = s.must(traceReq(st))
		if rounds := int32s(r.GetInfo().GetRound().GetData()); rounds[0] != 30 || rounds[1] != 30 {
			t.Fatalf("trace start without commands at round 30: rounds %v", rounds)
		}
		playOn(s, r, 3)
	}
	for _, c := range []struct {
		what string
		st   *jgymv1.TraceStart
	}{
		{"a path", &jgymv1.TraceStart{Name: "../game1"}},
		{"an unknown name", &jgymv1.TraceStart{Name: "game2"}},
		{"a round past the end", &jgymv1.TraceStart{Name: "game1", Round: 100000}},
		{"garbage bytes", &jgymv1.TraceStart{Trace: []byte("Crematoria\n"), Commands: []byte("0 0 0\n")}},
	} {
		_, err := s.do(traceReq(c.st)) // an error ends the stream
		wantCode(t, c.what, err, codes.InvalidArgument)
		s = ts.open(t, resp.SessionId, 1)
	}
	plain := start(t, "bufconn")
	resp = plain.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 1})
	_, err = plain.open(t, resp.SessionId, 1).do(traceReq(&jgymv1.TraceStart{Name: "game1"}))
	wantCode(t, "a name without --start-traces", err, codes.PermissionDenied)
}
