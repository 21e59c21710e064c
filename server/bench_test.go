package server_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/server"
)

// BenchmarkStream steps N Crematoria envs (one learner, three Demo bots,
// full observations) through the server from a Go client over TCP
// loopback, synchronously: one request and one answer per batch.
func BenchmarkStream(b *testing.B) {
	for _, n := range []int{1, 16, 64, 256} {
		b.Run(fmt.Sprintf("envs=%d", n), func(b *testing.B) {
			ts := start(b, "tcp")
			cr := ts.create(b, &jgymv1.CreateSessionRequest{NumEnvs: int32(n)})
			s := ts.open(b, cr.SessionId, 1)
			r := s.must(resetReq(1))
			req := stepReq(nil, policy(r, 1), n, 1)
			bytes := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r = s.must(req)
				bytes += len(r.Observation["board"].Data)
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "env-steps/s")
			b.ReportMetric(float64(bytes)/float64(b.N), "board-bytes/op")
		})
	}
}

// BenchmarkFairness measures the step rate of a small client (one session
// of 4 envs) alone and while a big client steps 4 sessions of 256 envs
// each as fast as it can. It reports both clients' env-steps/s.
func BenchmarkFairness(b *testing.B) {
	toks := []server.Token{
		{Name: "small", Secret: "small-secret-0123456789", Limits: server.DefaultClientLimits()},
		{Name: "big", Secret: "big-secret-0123456789", Limits: server.ClientLimits{Sessions: 8, Envs: 2048, Streams: 8, Uploads: 1, UploadBytes: 1, TraceBytes: 1}},
	}
	for _, tc := range []struct {
		name string
		big  int // sessions of the big client
	}{{"alone", 0}, {"loaded", 4}} {
		b.Run(tc.name, func(b *testing.B) {
			ts := startWith(b, "tcp", registry(b), toks[0].Secret, server.WithTokens(toks))
			big := ts.dial(b, toks[1].Secret)
			stop := make(chan struct{})
			var wg sync.WaitGroup
			var bigSteps atomic.Int64
			for k := 0; k < tc.big; k++ {
				cr, err := big.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 256, Seats: seats("", "Demo", "Demo", "Demo")})
				if err != nil {
					b.Fatal(err)
				}
				st, err := big.Stream(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				s := &stream{t: b, id: cr.SessionId, st: st, l: 1}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer st.CloseSend()
					r, err := s.do(resetReq(int64(k)))
					for err == nil {
						select {
						case <-stop:
							return
						default:
						}
						r, err = s.do(stepReq(nil, policy(r, 1), 256, 1))
						bigSteps.Add(256)
					}
				}()
			}
			cr := ts.create(b, &jgymv1.CreateSessionRequest{NumEnvs: 4})
			s := ts.open(b, cr.SessionId, 1)
			r := s.must(resetReq(1))
			for bigSteps.Load() < int64(tc.big*256*3) { // every big session reset and stepping
				time.Sleep(10 * time.Millisecond)
			}
			bigStart := bigSteps.Load()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r = s.must(stepReq(nil, policy(r, 1), 4, 1))
			}
			b.StopTimer()
			bigRate := float64(bigSteps.Load()-bigStart) / b.Elapsed().Seconds()
			close(stop)
			wg.Wait()
			small := float64(4*b.N) / b.Elapsed().Seconds()
			b.ReportMetric(small, "small-env-steps/s")
			b.ReportMetric(bigRate, "big-env-steps/s")
		})
	}
}
