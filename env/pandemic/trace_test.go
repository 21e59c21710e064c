package pandemic

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"jgym/internal/race"
)

var traceName = regexp.MustCompile(`pandemic_s(\d+)_([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)\.res\.gz$`)

type traceCase struct {
	path, cmdPath string
	seed          int
	names         [NumPlayers]string
	cfg           Config
	edge          bool
}

// referenceTraces is the copy of the course engine's reference traces kept
// in the repository; JGYM_PANDEMIC_TRACES may point to another folder of
// the same layout (traces, commands/, edge/ with a .cnf beside each trace).
const referenceTraces = "../../testdata/pandemic/traces"

func tracesRoot() string {
	if root := os.Getenv("JGYM_PANDEMIC_TRACES"); root != "" {
		return root
	}
	return referenceTraces
}

// traceCases lists the reference traces.
func traceCases(t testing.TB) []traceCase {
	var out []traceCase
	root := tracesRoot()
	for _, dir := range []string{root, filepath.Join(root, "edge")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.res.gz"))
		for _, f := range files {
			m := traceName.FindStringSubmatch(filepath.Base(f))
			if m == nil {
				continue
			}
			seed, _ := strconv.Atoi(m[1])
			base := strings.TrimSuffix(filepath.Base(f), ".res.gz")
			tc := traceCase{path: f, seed: seed, names: [4]string{m[2], m[3], m[4], m[5]}, cfg: DefaultConfig(), edge: dir != root}
			if cnf := filepath.Join(dir, base+".cnf"); fileExists(cnf) {
				b, err := os.ReadFile(cnf)
				if err != nil {
					t.Fatal(err)
				}
				if tc.cfg, err = ParseConfig(bytes.NewReader(b)); err != nil {
					t.Fatalf("%s: %v", cnf, err)
				}
			}
			for _, c := range []string{filepath.Join(dir, "commands", base+".cmd.gz"), filepath.Join(dir, base+".cmd.gz")} {
				if fileExists(c) {
					tc.cmdPath = c
				}
			}
			out = append(out, tc)
		}
	}
	if len(out) == 0 {
		t.Fatal("no reference traces found")
	}
	return out
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// sampled reports whether a heavy test checks trace number i: every trace
// normally, one in three under the race detector, which slows the
// single-goroutine engine tenfold.
func sampled(i int) bool { return !race.Enabled || i%3 == 0 }
