package gametest

import (
	"strings"
	"testing"

	"jgym/cppbot"
)

// ExpertDumps closes the exported players' processes (waiting for the last
// of their stderr) and checks the expert tensors their test build printed,
// one line each: "jgym-expert SEAT ROUND HEX". Each line's HEX must be
// want["SEAT ROUND"] (the Go encoder's tensor, in hex). It returns the
// number of lines, for the caller to compare with seats x rounds.
//
// Each process's own stderr is read (cppbot.Options.StderrLimit must keep
// it whole: a player that wrote more fails the test). Several processes
// must not share one Options.Stderr writer for this: it receives their
// pipes in chunks, and one process's chunk can split another's line.
func ExpertDumps(t testing.TB, seed int, procs []*cppbot.Process, want map[string]string) int {
	t.Helper()
	lines := 0
	for _, p := range procs {
		p.Close()
		out, total := p.Stderr()
		if int64(len(out)) != total {
			t.Fatalf("seed %d: the player wrote %d bytes to stderr, more than the %d kept", seed, total, len(out))
		}
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) != 4 || f[0] != "jgym-expert" {
				continue
			}
			lines++
			key := f[1] + " " + f[2]
			if w := want[key]; f[3] != w {
				t.Fatalf("seed %d, seat and round %s: the C++ expert tensor\n%s\nthe Go encoder's\n%s", seed, key, f[3], w)
			}
		}
	}
	return lines
}
