package server_test

import (
	"context"
	"io"
	"runtime"
	"sync"
	"testing"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/server"
)

// TestLoad runs waves of many concurrent sessions over TCP, each created,
// reset, stepped and closed, and prints the goroutine count and heap after
// every wave: both must come back to the same level (no timing asserts).
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	checkLeaks(t)
	ts := start(t, "tcp", server.WithClientLimits(server.ClientLimits{Sessions: 1000, Envs: 100000, Streams: 1000, Uploads: 1, UploadBytes: 1, TraceBytes: 1}))
	const waves, sessions, envs, steps = 3, 32, 4, 15
	var base int
	for w := 0; w <= waves; w++ {
		var wg sync.WaitGroup
		errs := make(chan error, sessions)
		for i := 0; i < sessions; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cr, err := ts.client.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: envs, Seats: seats("", "Demo", "Null", "Demo")})
				if err != nil {
					errs <- err
					return
				}
				st, err := ts.client.Stream(context.Background())
				if err != nil {
					errs <- err
					return
				}
				s := &stream{t: t, id: cr.SessionId, st: st, l: 1}
				r, err := s.do(resetReq(int64(i)))
				for k := 0; err == nil && k < steps; k++ {
					r, err = s.do(stepReq(nil, policy(r, 1), envs, 1))
				}
				st.CloseSend()
				if err == nil {
					_, err = st.Recv() // io.EOF: the server ended the stream
					if err == io.EOF {
						err = nil
					}
				}
				if err != nil {
					errs <- err
					return
				}
				if _, err := ts.client.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: cr.SessionId}); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		var g int
		eventually(t, "goroutines to come back to the first wave's level", func() bool {
			g = runtime.NumGoroutine()
			return w == 0 || g <= base+2
		})
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("wave %d: %d sessions x %d envs x %d steps; goroutines %d, heap %.1f MiB, sys %.1f MiB",
			w, sessions, envs, steps, g, float64(ms.HeapAlloc)/(1<<20), float64(ms.Sys)/(1<<20))
		if w == 0 {
			base = g
		}
	}
}
