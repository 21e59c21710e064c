package server_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/server"
)

// TestBadCreate: every bad CreateSession gets its status code and a
// message that says what is wrong; a session next to them keeps working.
func TestBadCreate(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn", server.WithMaxEnvsPerSession(64), server.WithMaxEnvs(100), server.WithMaxSessions(3))
	good := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2})
	gs := ts.open(t, good.SessionId, 1)
	r := gs.must(resetReq(1))
	std := func(m func(*jgymv1.CreateSessionRequest)) *jgymv1.CreateSessionRequest {
		req := &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 2, Seats: seats("", "Demo", "Demo", "Demo")}
		m(req)
		return req
	}
	for _, c := range []struct {
		name    string
		req     *jgymv1.CreateSessionRequest
		code    codes.Code
		mention string
	}{
		{"unknown game", std(func(r *jgymv1.CreateSessionRequest) { r.Game = "Chess-v0" }), codes.NotFound, "Chess-v0"},
		{"no game", std(func(r *jgymv1.CreateSessionRequest) { r.Game = "" }), codes.InvalidArgument, "game is required"},
		{"three seats", std(func(r *jgymv1.CreateSessionRequest) { r.Seats = seats("", "Demo", "Demo") }), codes.InvalidArgument, "3 seats"},
		{"five seats", std(func(r *jgymv1.CreateSessionRequest) { r.Seats = seats("", "", "", "", "") }), codes.InvalidArgument, "5 seats"},
		{"no learner", std(func(r *jgymv1.CreateSessionRequest) { r.Seats = seats("Demo", "Demo", "Null", "Null") }), codes.InvalidArgument, "no learner"},
		{"unknown bot", std(func(r *jgymv1.CreateSessionRequest) { r.Seats = seats("", "Riddik", "Demo", "Demo") }), codes.NotFound, "Riddik"},
		{"bad config", std(func(r *jgymv1.CreateSessionRequest) { r.Config = "Crematoria 1.2\nnb_players 4\nnb_rounds zero" }), codes.InvalidArgument, "nb_rounds"},
		{"config version", std(func(r *jgymv1.CreateSessionRequest) { r.Config = "Pandemic 1.0" }), codes.InvalidArgument, "Crematoria 1.2"},
		{"zero envs", std(func(r *jgymv1.CreateSessionRequest) { r.NumEnvs = 0 }), codes.InvalidArgument, "num_envs"},
		{"too many envs", std(func(r *jgymv1.CreateSessionRequest) { r.NumEnvs = 65 }), codes.ResourceExhausted, "64 per session"},
		{"server envs", std(func(r *jgymv1.CreateSessionRequest) { r.NumEnvs = 64; r.BatchSize = 0 }), codes.OK, ""},
		{"server envs full", std(func(r *jgymv1.CreateSessionRequest) { r.NumEnvs = 64 }), codes.ResourceExhausted, "free"},
		{"batch size", std(func(r *jgymv1.CreateSessionRequest) { r.BatchSize = 3 }), codes.InvalidArgument, "batch_size"},
		{"seed stride", std(func(r *jgymv1.CreateSessionRequest) { r.SeedStride = 1 }), codes.InvalidArgument, "seed_stride"},
		{"reward mode", std(func(r *jgymv1.CreateSessionRequest) { r.RewardMode = 42 }), codes.InvalidArgument, "reward_mode"},
		{"autoreset mode", std(func(r *jgymv1.CreateSessionRequest) { r.AutoresetMode = 42 }), codes.InvalidArgument, "autoreset_mode"},
		{"idle timeout", std(func(r *jgymv1.CreateSessionRequest) { r.IdleTimeoutSeconds = -1 }), codes.InvalidArgument, "idle_timeout"},
		{"idle timeout max", std(func(r *jgymv1.CreateSessionRequest) { r.IdleTimeoutSeconds = 1 << 30 }), codes.InvalidArgument, "idle_timeout"},
		{"unknown tensor", std(func(r *jgymv1.CreateSessionRequest) { r.Tensors = []string{"board", "bored"} }), codes.InvalidArgument, "sun_paths"},
		{"tensor twice", std(func(r *jgymv1.CreateSessionRequest) { r.Tensors = []string{"board", "board"} }), codes.InvalidArgument, "twice"},
		{"long tensor name", std(func(r *jgymv1.CreateSessionRequest) { r.Tensors = []string{strings.Repeat("x", 1<<16)} }), codes.InvalidArgument, "64 bytes"},
		{"too many tensors", std(func(r *jgymv1.CreateSessionRequest) { r.Tensors = make([]string, 33) }), codes.InvalidArgument, "at most 32"},
		{"trace without --trace-dir", std(func(r *jgymv1.CreateSessionRequest) { r.TraceEnv0 = "/tmp" }), codes.PermissionDenied, "trace-dir"},
		{"sessions", std(func(r *jgymv1.CreateSessionRequest) {}), codes.OK, ""},
		{"sessions full", std(func(r *jgymv1.CreateSessionRequest) {}), codes.ResourceExhausted, "sessions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ts.client.CreateSession(context.Background(), c.req)
			if c.code == codes.OK {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantCode(t, c.name, err, c.code)
			if !strings.Contains(err.Error(), c.mention) {
				t.Errorf("message %q does not mention %q", err, c.mention)
			}
			r = gs.must(stepReq(nil, policy(r, 1), 2, 1)) // the good session still works
		})
	}
	_, err := ts.client.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: "s-nope"})
	wantCode(t, "close unknown session", err, codes.NotFound)
}

// TestBadStream: every bad stream request ends its stream with the right
// code; the session survives (a new stream attaches) and so do others.
func TestBadStream(t *testing.T) {
	checkLeaks(t)
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			ts := start(t, tr, server.WithMaxEnvsPerSession(16))
			other := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2})
			os := ts.open(t, other.SessionId, 1)
			or := os.must(resetReq(5))
			cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 4})
			id := cr.SessionId
			act := make([]byte, 4*slots)
			step := func(m func(*jgymv1.StepRequest)) *jgymv1.StreamRequest {
				r := stepReq(nil, act, 4, 1)
				m(r.GetStep())
				return r
			}
			asyncID := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 4, BatchSize: 2}).SessionId
			for _, c := range []struct {
				name    string
				session string
				before  []*jgymv1.StreamRequest // sent first, must succeed
				req     *jgymv1.StreamRequest
				code    codes.Code
				mention string
			}{
				{"no session id", "", nil, resetReq(1), codes.InvalidArgument, "session_id"},
				{"unknown session", "s-0000", nil, resetReq(1), codes.NotFound, "s-0000"},
				{"step before reset", id, nil, step(func(*jgymv1.StepRequest) {}), codes.FailedPrecondition, "reset"},
				{"empty request", id, nil, &jgymv1.StreamRequest{}, codes.InvalidArgument, "none of reset"},
				{"negative seed", id, nil, resetReq(-4), codes.InvalidArgument, "seed"},
				{"reset bad env id", id, nil, &jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{EnvIds: []int32{9}}}}, codes.InvalidArgument, "env_ids"},
				{"no actions", id, []*jgymv1.StreamRequest{resetReq(1)}, step(func(s *jgymv1.StepRequest) { s.Actions = nil }), codes.InvalidArgument, "actions is required"},
				{"action dtype", id, nil, step(func(s *jgymv1.StepRequest) { s.Actions.Dtype = jgymv1.Dtype_DTYPE_INT32 }), codes.InvalidArgument, "dtype"},
				{"action shape", id, nil, step(func(s *jgymv1.StepRequest) { s.Actions.Shape = []int64{4, 80} }), codes.InvalidArgument, "shape"},
				{"action length", id, nil, step(func(s *jgymv1.StepRequest) { s.Actions.Data = act[:100] }), codes.InvalidArgument, "data bytes"},
				{"action value", id, nil, step(func(s *jgymv1.StepRequest) {
					a := make([]byte, 4*slots)
					a[2*slots+7] = 12
					s.Actions.Data = a
				}), codes.InvalidArgument, "env 2 learner 0 slot 7: value 12"},
				{"negative action", id, nil, step(func(s *jgymv1.StepRequest) {
					a := make([]byte, 4*slots)
					a[0] = 0xff
					s.Actions.Data = a
				}), codes.InvalidArgument, "value -1"},
				{"order dtype", id, nil, step(func(s *jgymv1.StepRequest) {
					s.ActionOrder = &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{4, 1, 80}, Data: act}
				}), codes.InvalidArgument, "action_order"},
				{"env id out of range", id, nil, stepReq([]int32{0, 4}, act[:2*slots], 2, 1), codes.InvalidArgument, "want 0..3"},
				{"duplicate env ids", id, nil, stepReq([]int32{1, 1}, act[:2*slots], 2, 1), codes.InvalidArgument, "twice"},
				{"ids and batch disagree", id, nil, stepReq([]int32{1, 2}, act, 4, 1), codes.InvalidArgument, "shape"},
				{"other session id", id, []*jgymv1.StreamRequest{resetReq(1)}, &jgymv1.StreamRequest{SessionId: other.SessionId, Kind: resetReq(1).Kind}, codes.InvalidArgument, "attached to session"},
				{"recv in sync mode", id, nil, recvReq(), codes.FailedPrecondition, "Recv without a Send"},
				{"reset while running", asyncID, []*jgymv1.StreamRequest{resetReq(1), stepReq(nil, act, 4, 1)}, resetReq(2), codes.FailedPrecondition, "not yet received"},
				{"step while running", asyncID, []*jgymv1.StreamRequest{recvReq(), resetReq(1), stepReq(nil, act, 4, 1)}, stepReq(nil, act, 4, 1), codes.FailedPrecondition, "not yet received"},
			} {
				t.Run(c.name, func(t *testing.T) {
					s := ts.open(t, c.session, 1)
					for _, b := range c.before {
						if _, err := s.do(b); err != nil {
							t.Fatalf("setup request: %v", err)
						}
					}
					if c.req.SessionId != "" {
						// sent as given, not with the stream's session id
						if err := s.st.Send(c.req); err != nil {
							t.Fatal(err)
						}
						_, err := s.st.Recv()
						wantCode(t, c.name, err, c.code)
						return
					}
					_, err := s.do(c.req)
					wantCode(t, c.name, err, c.code)
					if !strings.Contains(err.Error(), c.mention) {
						t.Errorf("message %q does not mention %q", err, c.mention)
					}
					or = os.must(stepReq(nil, policy(or, 1), 2, 1)) // others keep working
				})
			}
			// The session survived: a new stream resets and steps it.
			s := ts.open(t, id, 1)
			r := s.must(resetReq(2))
			s.must(stepReq(nil, policy(r, 1), 4, 1))
			// Two streams on one session.
			s2 := ts.open(t, id, 1)
			_, err := s2.do(resetReq(1))
			wantCode(t, "second stream", err, codes.FailedPrecondition)
			// Oversize message: larger than the server's receive limit.
			maxReq, _ := ts.srv.MaxMessageBytes()
			big := ts.open(t, id, 1)
			_, err = big.do(stepReq(nil, make([]byte, maxReq+1), 4, 1))
			wantCode(t, "oversize message", err, codes.ResourceExhausted)
		})
	}
}

// TestUnownedSlotsIgnored: directions for slots the learner does not own
// change nothing, as the engine ignores commands for others' units.
func TestUnownedSlotsIgnored(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn")
	var digests []string
	for _, noise := range []bool{false, true} {
		cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 3})
		s := ts.open(t, cr.SessionId, 1)
		r := s.must(resetReq(8))
		h := strings.Builder{}
		for step := 0; step < 40; step++ {
			act := policy(r, 1)
			units := r.Observation["units"].Data
			for k := range r.EnvIds {
				for slot := 0; slot < slots; slot++ {
					if units[(k*slots+slot)*8] == 0 { // not mine
						if noise {
							act[k*slots+slot] = byte((slot + step) % 10)
						} else {
							act[k*slots+slot] = 10
						}
					}
				}
			}
			r = s.must(stepReq(nil, act, 3, 1))
			h.Write(r.Observation["board"].Data)
		}
		digests = append(digests, h.String())
	}
	if digests[0] != digests[1] {
		t.Error("commands for units the seat does not own changed the game")
	}
}
