package server

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEncodeDelta encodes 64 envs of Crematoria-sized board tensors
// (9,600 bytes) of which about a quarter of the words changed.
func BenchmarkEncodeDelta(b *testing.B) {
	const n, per = 64, 9600
	rng := rand.New(rand.NewPCG(1, 2))
	ref := make([]byte, n*per)
	cur := make([]byte, n*per)
	for i := range cur {
		cur[i] = byte(rng.IntN(4))
	}
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	// Two observations that differ in a quarter of their words: the
	// encoder alternates between them.
	alt := append([]byte(nil), cur...)
	for w := 0; w < n*per/8; w++ {
		if rng.IntN(4) == 0 {
			alt[w*8] ^= 1
		}
	}
	dst := make([]byte, 0, deltaCap(n, per))
	b.SetBytes(n * per)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		src := cur
		if i%2 == 1 {
			src = alt
		}
		dst = encodeDelta(dst, src, ids, ref, per)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/env")
}
