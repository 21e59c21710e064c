package gametest

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
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

// textConfig is what every game's configuration offers beyond
// [game.Config]: its validation and its text, which ParseConfig reads.
type textConfig interface {
	Validate() error
	String() string
}

// FuzzConfig is the body of a game's fuzz target of configuration files:
// ParseConfig never panics; a configuration it accepts is valid, has a
// spec or a clear error, and its text parses back to the same value.
//
//	func FuzzConfig(f *testing.F) { gametest.FuzzConfig(f, Def, []byte(DefaultConfigText)) }
func FuzzConfig[C game.Config, G, S any, D game.Dir](f *testing.F, d *game.Def[C, G, S, D], seeds ...[]byte) {
	if _, ok := any(new(C)).(textConfig); !ok {
		f.Fatalf("%s: *Config has no Validate() error and String() string", d.Name)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := d.ParseConfig(bytes.NewReader(b))
		if err != nil {
			return
		}
		tc := any(&cfg).(textConfig)
		if err := tc.Validate(); err != nil {
			t.Fatalf("ParseConfig accepted a configuration Validate rejects: %v", err)
		}
		again, err := d.ParseConfig(strings.NewReader(tc.String()))
		if err != nil {
			t.Fatalf("String() of an accepted configuration does not parse: %v", err)
		}
		if !reflect.DeepEqual(again, cfg) {
			t.Fatalf("round trip: got %+v, want %+v", again, cfg)
		}
		d.EnvSpec(&cfg)
	})
}

// FuzzCommandLog is the body of a game's fuzz target of command files:
// ParseCommandLog never panics, and a log it accepts is written back to
// a file that parses to the same commands, rounds complete or not alike.
func FuzzCommandLog[C game.Config, G, S any, D game.Dir](f *testing.F, d *game.Def[C, G, S, D], seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		log, err := d.ParseCommandLog(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := log.Write(&out); err != nil {
			t.Fatal(err)
		}
		again, err := d.ParseCommandLog(&out)
		if err != nil {
			t.Fatalf("written log does not parse: %v", err)
		}
		if got, want := fmt.Sprint(again.Rounds), fmt.Sprint(log.Rounds); got != want {
			t.Fatalf("round trip: got %s, want %s", got, want)
		}
		for r := range log.Rounds {
			if again.Complete(r) != log.Complete(r) {
				t.Fatalf("round %d: complete %v after the round trip, want %v", r, again.Complete(r), log.Complete(r))
			}
		}
	})
}

// FuzzTrace is the body of a game's fuzz target of traces and command
// files: Verify never panics on any pair of inputs, with or without
// commands, nor does a start from a round of the trace without them.
func FuzzTrace[C game.Config, G, S any, D game.Dir](f *testing.F, d *game.Def[C, G, S, D], seeds ...[2][]byte) {
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, trace, cmds []byte) {
		d.Verify(trace, nil, nil)
		if log, err := d.ParseCommandLog(bytes.NewReader(cmds)); err == nil {
			d.Verify(trace, log, nil)
		}
		// A start without the command file: the position rebuilt from
		// the trace, at a round the commands' length picks.
		names := [game.NumSeats]string{"a", "b", "c", "d"}
		d.StartFromTrace(d.DefaultConfig(), trace, nil, len(cmds)%8, names, [game.NumSeats]game.Bot[S, D]{})
	})
}
