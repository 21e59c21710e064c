package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/server"
)

func TestListGamesAndBots(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn")
	g, err := ts.client.ListGames(context.Background(), &jgymv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Games) != 1 || g.Games[0].Id != game || g.Games[0].ObservationVersion != "crematoria-obs-3" || len(g.Games[0].Observation) != 6 {
		t.Fatalf("ListGames = %v", g)
	}
	b, err := ts.client.ListBots(context.Background(), &jgymv1.ListBotsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(b.Bots, ","); !strings.Contains(got, "Demo") || !strings.Contains(got, "Null") {
		t.Errorf("ListBots = %v, want Demo and Null among them", b.Bots)
	}
	_, err = ts.client.ListBots(context.Background(), &jgymv1.ListBotsRequest{Game: "Chess-v0"})
	wantCode(t, "ListBots(unknown game)", err, codes.NotFound)
}

// TestEpisodes plays whole episodes in batches and checks the tensors'
// shapes, the end of the game and the autoreset, over both transports.
func TestEpisodes(t *testing.T) {
	checkLeaks(t)
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			ts := start(t, tr)
			const n = 8
			cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: n})
			if cr.NumLearners != 1 || cr.BatchSize != n || cr.MaxResponseBytes < n*21744 {
				t.Fatalf("CreateSession = %v", cr)
			}
			s := ts.open(t, cr.SessionId, 1)
			r := s.must(resetReq(3))
			shapes := map[string]string{}
			for name, x := range r.Observation {
				shapes[name] = fmt.Sprint(x.Shape)
			}
			want := map[string]string{"board": "[8 1 3 40 80]", "units": "[8 1 80 8]", "globals": "[8 1 16]", "action_mask": "[8 1 80 11]", "paths": "[8 1 80 132]", "sun_paths": "[8 1 80 44]"}
			if fmt.Sprint(shapes) != fmt.Sprint(want) {
				t.Fatalf("observation shapes = %v, want %v", shapes, want)
			}
			var sum [n]float32
			for step := 1; step <= 121; step++ {
				r = s.must(stepReq(nil, policy(r, 1), n, 1))
				rw := r.Reward.Data
				for i := 0; i < n; i++ {
					sum[i] += float32frombits(rw[4*i:])
					term := r.Terminated.Data[i] == 1
					if term != (step == 120) {
						t.Fatalf("step %d env %d: terminated %v", step, i, term)
					}
				}
				if step == 120 {
					sc := int32s(r.Info.Scores.Data)
					for i := 0; i < n; i++ {
						if got, want := sum[i], float32(sc[i*4]-15); got != want {
							t.Errorf("env %d: rewards sum to %v, want %v", i, got, want)
						}
					}
				}
			}
			if got := int32s(r.Info.Episode.Data); got[0] != 1 || int32s(r.Info.Round.Data)[0] != 0 {
				t.Errorf("after the autoreset step: episode %v round %v, want 1 and 0", got, int32s(r.Info.Round.Data))
			}
			if _, err := ts.client.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: cr.SessionId}); err != nil {
				t.Fatal(err)
			}
			_, err := s.do(stepReq(nil, policy(r, 1), n, 1))
			wantCode(t, "step after close", err, codes.NotFound)
		})
	}
}

func float32frombits(b []byte) float32 {
	return mathFloat32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}

// TestAsyncStream: with batch_size 3 a step answers the first 3 envs
// ready; recv collects the rest; every env plays whole episodes.
func TestAsyncStream(t *testing.T) {
	checkLeaks(t)
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			ts := start(t, tr)
			const n, bs = 7, 3
			cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: n, BatchSize: bs})
			if cr.BatchSize != bs {
				t.Fatalf("batch size %d, want %d", cr.BatchSize, bs)
			}
			s := ts.open(t, cr.SessionId, 1)
			r := s.must(resetReq(9))
			if len(r.EnvIds) != n {
				t.Fatalf("reset answered %d envs, want all %d", len(r.EnvIds), n)
			}
			rounds := make([]int, n)
			r = s.must(stepReq(r.EnvIds, policy(r, 1), n, 1))
			for total := 0; total < 3*n*20; {
				if len(r.EnvIds) != bs {
					t.Fatalf("async step answered %d envs, want %d", len(r.EnvIds), bs)
				}
				for k, id := range r.EnvIds {
					rounds[id]++
					if got := int(int32s(r.Info.Round.Data)[k]); got != rounds[id]%121 {
						t.Fatalf("env %d: round %d, want %d", id, got, rounds[id]%121)
					}
				}
				total += len(r.EnvIds)
				r = s.must(stepReq(r.EnvIds, policy(r, 1), len(r.EnvIds), 1))
			}
			// Drain: recv until nothing is pending.
			for {
				r2, err := s.do(recvReq())
				if err != nil {
					wantCode(t, "recv with nothing pending", err, codes.FailedPrecondition)
					break
				}
				if len(r2.EnvIds) == 0 {
					t.Fatal("recv answered no env")
				}
			}
		})
	}
}

// TestSameStepAutoreset: the final observation arrives beside the new
// game's first one.
func TestSameStepAutoreset(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn")
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2, AutoresetMode: jgymv1.AutoresetMode_AUTORESET_MODE_SAME_STEP})
	s := ts.open(t, cr.SessionId, 1)
	r := s.must(resetReq(1))
	for step := 1; step <= 120; step++ {
		r = s.must(stepReq(nil, policy(r, 1), 2, 1))
		if (len(r.FinalEnvIndex) > 0) != (step == 120) {
			t.Fatalf("step %d: final_env_index %v", step, r.FinalEnvIndex)
		}
	}
	if got := fmt.Sprint(r.FinalObservation["board"].Shape, r.FinalScores.Shape, r.Terminated.Data); got != "[2 1 3 40 80] [2 4] [1 1]" {
		t.Errorf("final observation shapes and terminated = %s", got)
	}
}

// TestSeatMixes covers learner counts, shuffling and reward modes.
func TestSeatMixes(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn")
	for _, c := range []struct {
		seats   []string
		shuffle bool
		reward  jgymv1.RewardMode
		l       int
	}{
		{[]string{"", "", "", ""}, false, jgymv1.RewardMode_REWARD_MODE_SCORE_DELTA, 4},
		{[]string{"Null", "", "Demo", ""}, true, jgymv1.RewardMode_REWARD_MODE_RELATIVE, 2},
		{[]string{"Demo", "Demo", "", "Null"}, true, jgymv1.RewardMode_REWARD_MODE_RANK, 1},
	} {
		t.Run(fmt.Sprint(c.seats, c.shuffle), func(t *testing.T) {
			cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 5, Seats: seats(c.seats...), ShuffleSeats: c.shuffle, RewardMode: c.reward})
			if int(cr.NumLearners) != c.l {
				t.Fatalf("num_learners %d, want %d", cr.NumLearners, c.l)
			}
			s := ts.open(t, cr.SessionId, c.l)
			r := s.must(resetReq(11))
			if got, want := fmt.Sprint(r.Observation["units"].Shape), fmt.Sprintf("[5 %d 80 8]", c.l); got != want {
				t.Fatalf("units shape %s, want %s", got, want)
			}
			seen := map[string]bool{}
			seatsOf := int32s(r.Info.LearnerSeats.Data)
			for i := 0; i < 5; i++ {
				seen[fmt.Sprint(seatsOf[i*c.l:(i+1)*c.l])] = true
			}
			if c.shuffle != (len(seen) > 1) {
				t.Errorf("learner seats over 5 envs: %v (shuffle %v)", seen, c.shuffle)
			}
			for step := 0; step < 120; step++ {
				r = s.must(stepReq(nil, policy(r, c.l), 5, c.l))
			}
			if c.reward == jgymv1.RewardMode_REWARD_MODE_RANK {
				for i, x := range r.Reward.Data {
					_ = x
					if i%4 == 0 {
						v := float32frombits(r.Reward.Data[i:])
						if v < -1 || v > 1 || v == 0 {
							t.Errorf("rank reward %v at the end", v)
						}
					}
				}
			}
		})
	}
}

// TestDeterminism: the same session over TCP gives the same bytes for 1
// and 2 workers, and across runs.
func TestDeterminism(t *testing.T) {
	checkLeaks(t)
	var want string
	for _, w := range []int{1, 2, 1} {
		ts := start(t, "tcp", server.WithWorkers(w))
		cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 6, Seats: seats("", "Demo", "", "Null"), ShuffleSeats: true,
			AutoresetMode: jgymv1.AutoresetMode_AUTORESET_MODE_SAME_STEP})
		got := play(t, ts.open(t, cr.SessionId, 2), 21, 125)
		if want == "" {
			want = got
		} else if got != want {
			t.Fatalf("workers %d: digest %s, want %s", w, got, want)
		}
		ts.stop()
	}
}

func TestIdleTimeout(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn", server.WithReapInterval(20*time.Millisecond))
	// 3 s of idle time: a loaded machine (CI shares two cores) can take
	// more than a second between the create and the first reset.
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2, IdleTimeoutSeconds: 3})
	s := ts.open(t, cr.SessionId, 1)
	s.must(resetReq(1))
	time.Sleep(3 * time.Second)
	eventually(t, "the idle session to close", func() bool {
		return strings.Contains(scrape(t, ts), `jgym_sessions_closed_total{reason="idle"} 1`)
	})
	_, err := s.do(resetReq(1))
	wantCode(t, "reset after the idle timeout", err, codes.NotFound)
}

// TestClientVanishes: a stream cancelled by its client closes its session.
func TestClientVanishes(t *testing.T) {
	checkLeaks(t)
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			ts := start(t, tr)
			cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 4})
			ctx, cancel := context.WithCancel(context.Background())
			st, err := ts.client.Stream(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Send(&jgymv1.StreamRequest{SessionId: cr.SessionId, Kind: resetReq(1).Kind}); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Recv(); err != nil {
				t.Fatal(err)
			}
			cancel()
			eventually(t, "the session to close", func() bool {
				return strings.Contains(scrape(t, ts), `jgym_sessions_closed_total{reason="vanished"} 1`)
			})
			_, err = ts.client.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: cr.SessionId})
			wantCode(t, "close after the client vanished", err, codes.NotFound)
		})
	}
}

// TestGracefulShutdown: cancelling Serve's context closes sessions, fails
// the next request with Unavailable or NotFound, and Serve returns.
func TestGracefulShutdown(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "tcp", server.WithShutdownGrace(2*time.Second))
	h := healthpb.NewHealthClient(ts.conn)
	hr, err := h.Check(context.Background(), &healthpb.HealthCheckRequest{Service: "jgym.v1.JgymService"})
	if err != nil || hr.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health = %v, %v; want SERVING", hr, err)
	}
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 3})
	s := ts.open(t, cr.SessionId, 1)
	s.must(resetReq(1))
	begin := time.Now()
	stopped := make(chan struct{})
	go func() { ts.stop(); close(stopped) }()
	eventually(t, "the session to close", func() bool {
		_, err := ts.client.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: cr.SessionId})
		return err != nil
	})
	_, err = s.do(resetReq(1))
	if c := statusCode(err); c != codes.NotFound && c != codes.Unavailable {
		t.Errorf("request during shutdown: %v, want NotFound or Unavailable", err)
	}
	<-stopped
	t.Logf("Serve returned %v after cancel", time.Since(begin).Round(time.Millisecond))
}

func TestMetrics(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn")
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 4})
	play(t, ts.open(t, cr.SessionId, 1), 1, 10)
	// A request's latency is observed once its answer is sent, which may
	// be after the client has it: wait for the last step's.
	var out string
	eventually(t, "the last step's latency in the metrics", func() bool {
		out = scrape(t, ts)
		return strings.Contains(out, `jgym_request_duration_seconds_count{kind="step"} 10`)
	})
	for _, want := range []string{
		"jgym_env_steps_total 40", "jgym_sessions 1", "jgym_envs 4", "jgym_streams 1",
		`jgym_requests_total{kind="step"} 10`, `jgym_request_duration_seconds_count{kind="step"} 10`,
		"# TYPE jgym_request_duration_seconds histogram",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %q:\n%s", want, out)
		}
	}
}

func scrape(t testing.TB, ts *testServer) string {
	t.Helper()
	rec := httptest.NewRecorder()
	ts.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

// TestTraceEnv0 records env 0's games as .res files under the server's
// trace directory, and refuses directories outside it, by path or by a
// symbolic link.
func TestTraceEnv0(t *testing.T) {
	checkLeaks(t)
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	ts := start(t, "bufconn", server.WithTraceDir(root))
	for _, dir := range []string{"../elsewhere", "/tmp", "a/../../b", ".hidden", strings.Repeat("x", 200)} {
		_, err := ts.client.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1,
			Seats: seats("", "Demo", "Demo", "Demo"), TraceEnv0: dir})
		wantCode(t, "trace_env0 "+dir, err, codes.InvalidArgument)
	}
	for _, dir := range []string{"link", "link/sub"} {
		_, err := ts.client.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1,
			Seats: seats("", "Demo", "Demo", "Demo"), TraceEnv0: dir})
		wantCode(t, "trace_env0 through a symlink out", err, codes.PermissionDenied)
	}
	if ents, _ := os.ReadDir(outside); len(ents) > 0 {
		t.Errorf("the symlinked folder outside the trace directory got %d entries", len(ents))
	}
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2, TraceEnv0: "run1"})
	s := ts.open(t, cr.SessionId, 1)
	r := s.must(resetReq(10))
	for step := 0; step < 121; step++ {
		r = s.must(stepReq(nil, policy(r, 1), 2, 1))
	}
	files, err := filepath.Glob(filepath.Join(root, "run1", "*.res"))
	if err != nil || len(files) != 2 {
		t.Fatalf("trace files %v (%v), want two: the finished game and the new one", files, err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "Game\n\nSeed 10\n") || !strings.Contains(string(b), "Learner Demo Demo Demo") || !strings.Contains(string(b), "round 120") {
		t.Errorf("%s does not look like a whole game of seed 10 with the learner in seat 0:\n%.300s", files[0], b)
	}
}
