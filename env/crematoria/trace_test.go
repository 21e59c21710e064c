package crematoria

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var traceName = regexp.MustCompile(`crematoria_s(\d+)_([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)(?:_(\w+))?\.res\.gz$`)

type traceCase struct {
	path, cmdPath string
	seed          int
	names         [NumPlayers]string
	cfg           Config
}

// referenceTraces is the copy of the course engine's reference traces kept
// in the repository; JGYM_TRACES may point to another folder of the same
// layout (traces, commands/, edge/).
const referenceTraces = "../../testdata/crematoria/traces"

// traceCases lists the reference traces.
func traceCases(t testing.TB) []traceCase {
	var out []traceCase
	root := os.Getenv("JGYM_TRACES")
	if root == "" {
		root = referenceTraces
	}
	dirs := []string{root, filepath.Join(root, "edge")}
	seen := map[string]bool{}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.res.gz"))
		for _, f := range files {
			m := traceName.FindStringSubmatch(filepath.Base(f))
			if m == nil || seen[filepath.Base(f)] {
				continue
			}
			seen[filepath.Base(f)] = true
			seed, _ := strconv.Atoi(m[1])
			tc := traceCase{path: f, seed: seed, names: [4]string{m[2], m[3], m[4], m[5]}, cfg: DefaultConfig()}
			if m[6] != "" {
				b, err := os.ReadFile(filepath.Join(dir, m[6]+".cnf"))
				if err != nil {
					t.Fatal(err)
				}
				tc.cfg, err = ParseConfig(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
			}
			base := strings.TrimSuffix(filepath.Base(f), ".res.gz")
			for _, c := range []string{filepath.Join(dir, "commands", base+".cmd.gz"), filepath.Join(dir, base+".cmd.gz")} {
				if _, err := os.Stat(c); err == nil {
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
