package vec_test

import (
	"fmt"
	"testing"

	"jgym/vec"
)

// BenchmarkStep steps N Crematoria envs with one learner seat (three Demo
// bots) and full observations, synchronously, in process. One op is one
// batch; env-steps/s counts envs times batches.
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1, 16, 64, 256} {
		b.Run(fmt.Sprintf("envs=%d", n), func(b *testing.B) {
			f := factory(b, oneLearner)
			p := newPool(b, f, n)
			batch, err := p.Reset(ctx, nil, 1)
			if err != nil {
				b.Fatal(err)
			}
			act := policy(batch, 1)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := p.Step(ctx, nil, act, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "env-steps/s")
		})
	}
}

// BenchmarkAsync is BenchmarkStep with asynchronous stepping: batches of
// N/4 envs are received and sent back, so some envs always run.
func BenchmarkAsync(b *testing.B) {
	for _, n := range []int{16, 64, 256} {
		b.Run(fmt.Sprintf("envs=%d", n), func(b *testing.B) {
			f := factory(b, oneLearner)
			p := newPool(b, f, n, vec.WithBatchSize(n/4))
			batch, err := p.Reset(ctx, nil, 1)
			if err != nil {
				b.Fatal(err)
			}
			act := policy(batch, 1)
			if err := p.Send(nil, act, nil); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			steps := 0
			for i := 0; i < b.N; i++ {
				got, err := p.Recv(ctx)
				if err != nil {
					b.Fatal(err)
				}
				steps += len(got.EnvIDs)
				if err := p.Send(got.EnvIDs, act[:len(got.EnvIDs)*slots], nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "env-steps/s")
		})
	}
}
