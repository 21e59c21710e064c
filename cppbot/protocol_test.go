package cppbot

import (
	"errors"
	"testing"
)

func TestParseReady(t *testing.T) {
	tests := []struct {
		line, name string
		err        error
	}{
		{"ready Demo\n", "Demo", nil},
		{"ready\n", "", ErrProtocol},
		{"ready a b\n", "", ErrProtocol},
		{"error registry want exactly one registered player, found 0\n", "", ErrRunner},
	}
	for _, tc := range tests {
		name, err := parseReady([]byte(tc.line), nil)
		if name != tc.name || !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("%q: got %q, %v; want %q, %v", tc.line, name, err, tc.name, tc.err)
		}
	}
}

// The runner's error lines map to the game's errors (Kit.Errors), to
// ErrProtocol, or to ErrRunner.
func TestParseRunnerError(t *testing.T) {
	errTooMany := errors.New("too many commands")
	k := &Kit{Errors: map[string]error{"too-many-commands": errTooMany}}
	for line, want := range map[string]error{
		"error too-many-commands 1001 commands in round 7 (max 1000)\n": errTooMany,
		"error exception play() threw boom\n":                           ErrRunner,
		"error protocol bad grid row\n":                                 ErrProtocol,
	} {
		if err := parseRunnerError([]byte(line), k); !errors.Is(err, want) {
			t.Errorf("%q: %v, want %v", line, err, want)
		}
	}
}
