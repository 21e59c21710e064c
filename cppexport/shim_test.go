package cppexport

import (
	"os/exec"
	"testing"

	"jgym/internal/strict"
)

// Internals for the package's external tests (package cppexport_test,
// which play the exported players of a game).

// Emitters are the operator translators.
var Emitters = emitters

// WithDump returns opts with the debug dump of every round's inputs and
// logits (dumpCC).
func WithDump(opts Options) Options {
	opts.dump = true
	return opts
}

// NeedGXX skips a test without g++ (fails under strict).
func NeedGXX(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		strict.Skip(t, "g++ not found")
	}
}

var needGXX = NeedGXX
