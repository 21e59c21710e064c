// Package strict is for tests that need a tool the machine may lack
// (g++, nm, Chromium): they skip on a developer's machine without it, and
// fail where a skip would hide a missing check, under JGYM_TEST_STRICT=1
// (which .ci/run sets, as it does for the Python tests) or CI=true.
package strict

import (
	"os"
	"testing"
)

// On reports whether skipped tests must fail.
func On() bool { return os.Getenv("JGYM_TEST_STRICT") == "1" || os.Getenv("CI") == "true" }

// Skip skips the test with reason, or fails it when On.
func Skip(t testing.TB, reason string) {
	t.Helper()
	if On() {
		t.Fatalf("%s (a skip fails under JGYM_TEST_STRICT=1 or CI=true)", reason)
	}
	t.Skip(reason)
}
