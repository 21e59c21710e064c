package vec_test

import (
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"jgym/vec"
)

// processCPU is the process's CPU time so far, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStep steps N Crematoria envs with one learner seat (three Demo
// bots) and full observations, synchronously, in process. One op is one
// batch; env-steps/s counts envs times batches; p50-us/batch is the
// median batch's wall time.
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
			took := make([]time.Duration, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := p.Step(ctx, nil, act, nil); err != nil {
					b.Fatal(err)
				}
				took[i] = time.Since(t0)
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "env-steps/s")
			// The median batch's wall time, for a p50 of one env's step.
			slices.Sort(took)
			b.ReportMetric(float64(took[b.N/2])/float64(time.Microsecond), "p50-us/batch")
			// The CPU time of the whole process (every worker, the GC)
			// per env-step: what the machine spends, whatever its load.
			b.ReportMetric(float64(processCPU()-cpu0)/float64(time.Microsecond)/float64(b.N*n), "cpu-us/env-step")
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
