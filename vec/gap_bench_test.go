package vec_test

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// BenchmarkStepGap is BenchmarkStep at 64 envs with the caller blocked
// between batches, as a server's connection is while its client works:
// the gap is a read of a pipe that a goroutine writes after sleeping
// (gap=0: no pipe, BenchmarkStep). cpu-us/env-step against gap=0 is what
// the process pays for going idle and waking between batches.
func BenchmarkStepGap(b *testing.B) {
	for _, gap := range []time.Duration{0, 100 * time.Microsecond, 300 * time.Microsecond, 1000 * time.Microsecond} {
		b.Run(fmt.Sprintf("gap=%v", gap), func(b *testing.B) {
			const n = 64
			f := factory(b, oneLearner)
			p := newPool(b, f, n)
			batch, err := p.Reset(ctx, nil, 1)
			if err != nil {
				b.Fatal(err)
			}
			act := policy(batch, 1)
			r, w, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			kick := make(chan struct{})
			go func() {
				for range kick {
					time.Sleep(gap)
					w.Write([]byte{1})
				}
			}()
			defer close(kick)
			var one [1]byte
			b.ResetTimer()
			cpu0 := processCPU()
			busy := time.Duration(0)
			for i := 0; i < b.N; i++ {
				if gap > 0 {
					kick <- struct{}{}
					if _, err := r.Read(one[:]); err != nil {
						b.Fatal(err)
					}
				}
				t0 := time.Now()
				if _, err := p.Step(ctx, nil, act, nil); err != nil {
					b.Fatal(err)
				}
				busy += time.Since(t0)
			}
			b.ReportMetric(float64(b.N*n)/busy.Seconds(), "busy-env-steps/s")
			b.ReportMetric(float64(processCPU()-cpu0)/float64(time.Microsecond)/float64(b.N*n), "cpu-us/env-step")
		})
	}
}
