package gametest

import (
	"runtime"
	"testing"
)

// BenchmarkThreadCPU measures what BenchmarkEncoder's clock adds to each
// part of an env-step: an empty interval, two reads of the thread clock
// one after the other, holds the end of the first read and the start of
// the second, as the round's and the encoder's intervals do. One op is one
// interval; empty-ns/interval is its mean length on the thread's clock.
func BenchmarkThreadCPU(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var sum int64
	for b.Loop() {
		t1 := threadCPU()
		t2 := threadCPU()
		sum += (t2 - t1).Nanoseconds()
	}
	b.ReportMetric(float64(sum)/float64(b.N), "empty-ns/interval")
}
