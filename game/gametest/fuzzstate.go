package gametest

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"

	"jgym/env"
	"jgym/game"
)

// FuzzState feeds bytes to RestoreState of an instance (two learners, the
// Demo and the strong bot, shuffled seats): a state is refused with
// env.ErrBadState or restored, never a panic; a restored game steps. Each
// input is also tried with a good checksum in its last 4 bytes. The
// corpus starts with states saved at a few rounds.
func FuzzState[C game.Config, G, S any, D game.Dir](f *testing.F, d *game.Def[C, G, S, D]) {
	setup := env.Setup{Seats: []string{"", "Demo", "", d.StrongBot}, Shuffle: true}
	fac, err := d.Host().NewFactory(setup)
	if err != nil {
		f.Fatal(err)
	}
	defer fac.Close()
	in, err := fac.NewInstance()
	if err != nil {
		f.Fatal(err)
	}
	defer in.Close()
	spec, l := fac.Spec(), fac.Learners()
	act := make([]byte, l*spec.Action.Bytes())
	rew := make([]float32, l)
	if err := in.Reset(5); err != nil {
		f.Fatal(err)
	}
	sv := in.(env.Saver)
	for r := range 6 {
		st, err := sv.SaveState(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(st)
		for range r {
			if _, err := in.Step(act, nil, rew); err != nil {
				f.Fatal(err)
			}
		}
	}
	f.Fuzz(func(t *testing.T, state []byte) {
		// The bytes as they are, and with their last 4 replaced by a
		// good checksum (so that the fuzzer reaches the decoding and the
		// replay behind it).
		sealed := state
		if len(state) >= 4 {
			body := state[: len(state)-4 : len(state)-4]
			sealed = binary.LittleEndian.AppendUint32(body, crc32.ChecksumIEEE(body))
		}
		for _, st := range [][]byte{state, sealed} {
			err := sv.RestoreState(st)
			if err != nil {
				if !errors.Is(err, env.ErrBadState) {
					t.Fatalf("RestoreState: %v, want an error wrapping env.ErrBadState", err)
				}
				continue
			}
			if _, err := in.Step(act, nil, rew); err != nil && !errors.Is(err, env.ErrGameOver) {
				t.Fatalf("a restored game does not step: %v", err)
			}
		}
	})
}
