package gametest

import (
	"bytes"
	"testing"

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
