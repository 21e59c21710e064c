package crematoria

import (
	"math/rand/v2"
	"testing"
)

// TestAndTwice checks andTwice (AVX-512 where the CPU has it) against
// the words and'ed one by one.
func TestAndTwice(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 10 {
		var x, y, b, c, want bitboard
		for k := range x {
			for j := range x[k] {
				x[k][j], y[k][j] = rng.Uint64(), rng.Uint64()
				want[k][j] = x[k][j] & y[k][j]
			}
		}
		b.andTwice(&c, &x, &y)
		if b != want || c != want {
			t.Fatal("andTwice differs from the words and'ed one by one")
		}
	}
}
