package dominator

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"jgym/course/coursetest"
)

// referenceTraces is the copy of the course program's reference traces kept
// in the repository; JGYM_DOMINATOR_TRACES may point to another folder of
// the same layout (index.tsv, commands/, edge/, edge/aborts/).
const referenceTraces = "../../testdata/dominator/traces"

func traceRoot() string {
	if r := os.Getenv("JGYM_DOMINATOR_TRACES"); r != "" {
		return r
	}
	return referenceTraces
}

var traceName = regexp.MustCompile(`^(\w+?)_s(\d+)_([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)\.(res|partial\.res)\.gz$`)

type traceCase struct {
	name    string // file name
	path    string
	cmdPath string
	seed    int
	names   [NumPlayers]string
	cfg     Config
	cfgName string
	edge    bool
	abort   bool // a partial trace of an aborted game
}

// native reports whether jgym can play every seat itself.
func (tc traceCase) native() bool {
	for _, n := range tc.names {
		if n != "Null" && n != "Demo" {
			return false
		}
	}
	return true
}

// traceCases lists the reference traces: the main ones, the edge ones and
// the aborted ones.
func traceCases(t testing.TB) []traceCase {
	t.Helper()
	root := traceRoot()
	var out []traceCase
	for _, dir := range []string{root, filepath.Join(root, "edge"), filepath.Join(root, "edge", "aborts")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.res.gz"))
		for _, f := range files {
			base := filepath.Base(f)
			m := traceName.FindStringSubmatch(base)
			if m == nil {
				t.Fatalf("unexpected trace name %s", f)
			}
			seed, _ := strconv.Atoi(m[2])
			tc := traceCase{name: base, path: f, seed: seed, names: [4]string{m[3], m[4], m[5], m[6]},
				cfgName: m[1], edge: dir != root, abort: m[7] == "partial.res"}
			if m[1] == "dominator" || m[1] == "default" {
				tc.cfg = DefaultConfig()
			} else {
				b, err := os.ReadFile(filepath.Join(root, "edge", m[1]+".cnf"))
				if err != nil {
					t.Fatal(err)
				}
				if tc.cfg, err = ParseConfig(bytes.NewReader(b)); err != nil {
					t.Fatalf("%s: %v", m[1], err)
				}
			}
			stem := strings.TrimSuffix(strings.TrimSuffix(base, ".gz"), ".res")
			stem = strings.TrimSuffix(stem, ".partial")
			for _, c := range []string{filepath.Join(dir, "commands", stem+".cmd.gz"), filepath.Join(dir, stem+".cmd.gz")} {
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

func loadLog(t testing.TB, path string) *CommandLog {
	t.Helper()
	log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	return log
}

// TestDemoMatchesCommandFiles replays every reference game that has Demo
// seats from its command log and checks that, every round, jgym's Demo in
// each of them gives the list the course's Demo gave (the log's, in its
// view): on the edge configurations too, beside Dummy and Chaos, which
// jgym cannot play. (The conformance suite, contract_test.go, checks that
// the replays reproduce the traces byte for byte.)
func TestDemoMatchesCommandFiles(t *testing.T) {
	n := 0
	for _, tc := range traceCases(t) {
		// With fewer than two witches the kit's Demo reads past its
		// witch list (undefined behaviour); jgym's gives no order.
		if tc.cmdPath == "" || tc.abort || tc.cfg.NbWitches < 2 || !slices.Contains(tc.names[:], "Demo") {
			continue
		}
		n++
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			log := loadLog(t, tc.cmdPath)
			var bots [NumPlayers]Bot
			for p, name := range tc.names {
				if name == "Demo" {
					bots[p] = NewDemo(p, tc.seed)
				}
			}
			m, err := Def.NewMatch(tc.cfg, tc.seed, tc.names, [NumPlayers]Bot{})
			if err != nil {
				t.Fatal(err)
			}
			var o Orders
			var view State
			for r := 0; !m.Done(); r++ {
				cmds := log.Round(r)
				for p, b := range bots {
					if b == nil {
						continue
					}
					o.Reset(len(m.Game.Units))
					m.State().View(p, &view)
					b.Play(&view, &o)
					if got, want := o.List(), cmds[p]; !slices.Equal(got, want) {
						t.Fatalf("round %d: Demo in seat %d gave %v, the log says %v", r, p, got, want)
					}
				}
				if err := m.Step(cmds); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	if n < 40 {
		t.Errorf("%d games with Demo seats, want at least 40", n)
	}
}
