package server_test

import (
	"fmt"
	"testing"

	jgymv1 "jgym/api/jgym/v1"
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
