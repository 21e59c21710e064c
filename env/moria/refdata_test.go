package moria

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// referenceTraces is the copy of the course engine's reference traces kept
// in the repository; JGYM_MORIA_TRACES may point to another folder of the
// same layout (traces, commands/, edge/).
const referenceTraces = "../../testdata/moria/traces"

func traceRoot() string {
	if r := os.Getenv("JGYM_MORIA_TRACES"); r != "" {
		return r
	}
	return referenceTraces
}

var traceName = regexp.MustCompile(`moria_s(\d+)_([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)(?:_(\w+))?\.res\.gz$`)

// traceCase is one reference trace: its file, command file (if any), seed,
// players and configuration (the default, or <dir>/<suffix>.cnf for a
// trace named ..._<suffix>.res.gz).
type traceCase struct {
	path, cmdPath string
	seed          int
	names         [NumPlayers]string
	cfg           Config
}

func (tc traceCase) native() bool {
	for _, n := range tc.names {
		if n != "Null" && n != "Demo" {
			return false
		}
	}
	return true
}

// traceCases lists the reference traces.
func traceCases(t testing.TB) []traceCase {
	t.Helper()
	var out []traceCase
	root := traceRoot()
	seen := map[string]bool{}
	for _, dir := range []string{root, filepath.Join(root, "edge")} {
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
				if tc.cfg, err = ParseConfig(bytes.NewReader(b)); err != nil {
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

func refTraceNamed(t testing.TB, base string) traceCase {
	t.Helper()
	for _, tc := range traceCases(t) {
		if filepath.Base(tc.path) == base {
			return tc
		}
	}
	t.Fatalf("no reference trace %s", base)
	return traceCase{}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// indexEntry is one line of traces/index.tsv: a reference trace of the
// default configuration with its final scores.
type indexEntry struct {
	file   string
	seed   int
	names  [NumPlayers]string
	scores [NumPlayers]int
}

// indexEntries reads traces/index.tsv, in seed order.
func indexEntries(t testing.TB) []indexEntry {
	t.Helper()
	var out []indexEntry
	for i, line := range strings.Split(string(mustRead(t, filepath.Join(traceRoot(), "index.tsv"))), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) != 4 {
			continue // the header, the last empty line
		}
		var e indexEntry
		var err error
		e.file = f[0]
		if e.seed, err = strconv.Atoi(f[1]); err != nil {
			t.Fatalf("index.tsv line %d: %v", i+1, err)
		}
		names, scores := strings.Split(f[2], "-"), strings.Fields(f[3])
		if len(names) != NumPlayers || len(scores) != NumPlayers {
			t.Fatalf("index.tsv line %d: %q", i+1, line)
		}
		for p := range e.names {
			e.names[p] = names[p]
			if e.scores[p], err = strconv.Atoi(scores[p]); err != nil {
				t.Fatalf("index.tsv line %d: %v", i+1, err)
			}
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].seed < out[b].seed })
	if len(out) == 0 {
		t.Fatal("no entries in index.tsv")
	}
	return out
}
