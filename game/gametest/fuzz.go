package gametest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"

	"jgym/env"
	"jgym/game"
)

// FuzzStep is the body of a game's fuzz target of the env's actions:
// arbitrary action and order bytes never make the decoder command a unit
// the seat does not own or in an illegal direction, nor fail the step.
//
//	func FuzzStep(f *testing.F) { gametest.FuzzStep(f, Def) }
func FuzzStep[C game.Config, G, S any, D game.Dir](f *testing.F, d *game.Def[C, G, S, D]) {
	f.Add([]byte{0, 1, 2, 3, 10, 9, 8}, []byte{1, 0, 255, 255})
	f.Add([]byte{255, 128, 11, 127}, []byte(nil))
	f.Fuzz(func(t *testing.T, act, order []byte) { CheckStep(t, d, act, order) })
}

// FuzzConfig is the body of a game's fuzz target of configuration files:
// ParseConfig never panics, and a configuration it accepts has a spec or
// a clear error.
func FuzzConfig[C game.Config, G, S any, D game.Dir](f *testing.F, d *game.Def[C, G, S, D], seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := d.ParseConfig(bytes.NewReader(b))
		if err != nil {
			return
		}
		d.EnvSpec(&cfg)
	})
}

// FuzzTrace is the body of a game's fuzz target of traces and command
// files: Verify never panics on any pair of inputs, with or without
// commands.
func FuzzTrace[C game.Config, G, S any, D game.Dir](f *testing.F, d *game.Def[C, G, S, D], seeds ...[2][]byte) {
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, trace, cmds []byte) {
		d.Verify(trace, nil, nil)
		if log, err := d.ParseCommandLog(bytes.NewReader(cmds)); err == nil {
			d.Verify(trace, log, nil)
		}
	})
}

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
			body := state[:len(state)-4:len(state)-4]
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
