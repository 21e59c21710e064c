package server

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestDeltaRoundTrip encodes random changes of random env subsets and
// checks that ApplyDelta rebuilds every tensor, and that the encoding is
// small when little changed.
func TestDeltaRoundTrip(t *testing.T) {
	for _, n := range []int{5, 40} { // 40: encoded by several goroutines
		testDeltaRoundTrip(t, n)
	}
}

func testDeltaRoundTrip(t *testing.T, n int) {
	const per = 96
	rng := rand.New(rand.NewPCG(1, 2))
	truth := make([]byte, n*per)
	srvRef, cliRef := make([]byte, n*per), make([]byte, n*per)
	dst := make([]byte, 0, deltaCap(n, per))
	for round := 0; round < 200; round++ {
		var ids []int32
		for id := int32(0); id < int32(n); id++ {
			if rng.IntN(6) > 0 {
				ids = append(ids, id)
			}
		}
		cur := make([]byte, len(ids)*per)
		changes := rng.IntN(4)
		if round%10 == 0 {
			changes = per // sometimes everything
		}
		for k, id := range ids {
			env := truth[int(id)*per : int(id+1)*per]
			for c := 0; c < changes; c++ {
				env[rng.IntN(per)] = byte(rng.Uint32())
			}
			copy(cur[k*per:], env)
		}
		data := encodeDelta(dst, cur, ids, srvRef, per)
		if changes < 4 && len(data) > len(ids)*(2+4*8) {
			t.Fatalf("round %d: %d bytes for %d envs with at most 3 changed bytes each", round, len(data), len(ids))
		}
		out := make([]byte, len(ids)*per)
		if err := ApplyDelta(out, data, ids, cliRef, per); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !bytes.Equal(out, cur) {
			t.Fatalf("round %d: decoded tensor differs from the encoded one", round)
		}
	}
}

func TestApplyDeltaRejectsBadData(t *testing.T) {
	ref := make([]byte, 2*16)
	out := make([]byte, 16)
	for name, data := range map[string][]byte{
		"short bitmap":   {},
		"missing word":   {0b01},
		"trailing bytes": {0b00, 1, 2, 3},
	} {
		if err := ApplyDelta(out, data, []int32{1}, ref, 16); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := ApplyDelta(out, []byte{0}, []int32{2}, ref, 16); err == nil {
		t.Error("env id out of range: no error")
	}
}
