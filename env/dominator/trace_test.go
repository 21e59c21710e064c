package dominator

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
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

// TestNativeMatchesReproduceTraces plays every reference game whose seats
// are all Null or Demo and compares the trace byte for byte.
func TestNativeMatchesReproduceTraces(t *testing.T) {
	n := 0
	for _, tc := range traceCases(t) {
		if !tc.native() || tc.abort {
			continue
		}
		n++
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := coursetest.ReadGz(t, tc.path)
			m, err := NewMatch(tc.cfg, tc.seed, tc.names)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			m.WriteTrace(&buf)
			if err := m.Run(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, buf.Bytes()) {
				t.Fatal(coursetest.FirstDiff(want, buf.Bytes()))
			}
		})
	}
	if n != 36 {
		t.Errorf("%d native traces, want 36", n)
	}
}

// replayTrace replays a game from its command log, playing the Demo seats
// with jgym's Demo when live is set (and checking each of its lists
// against the log), and returns the trace and the error that stopped it.
func replayTrace(t *testing.T, tc traceCase, live bool) ([]byte, error) {
	t.Helper()
	log := loadLog(t, tc.cmdPath)
	var bots [NumPlayers]Bot
	if live && tc.cfg.NbWitches >= 2 {
		for p, n := range tc.names {
			if n == "Demo" {
				bots[p] = NewDemo(p, tc.seed)
			}
		}
	}
	m, err := NewMatchWithBots(tc.cfg, tc.seed, tc.names, [NumPlayers]Bot{})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	var o Orders
	var view State
	for r := 0; !m.Done(); r++ {
		if !log.Complete(r) {
			return buf.Bytes(), nil
		}
		cmds := *log.Round(r)
		for p, b := range bots {
			if b == nil {
				continue
			}
			o.Reset(len(m.Units))
			m.View(p, &view)
			b.Play(&view, &o)
			if got, want := o.List(), cmds[p]; !equalCommands(got, want) {
				t.Fatalf("round %d: Demo in seat %d gave %v, the log says %v", r, p, got, want)
			}
		}
		if err := m.StepTraced(&cmds); err != nil {
			return buf.Bytes(), err
		}
	}
	return buf.Bytes(), nil
}

func equalCommands(a, b []Command) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestReplayCommandFiles replays every reference game with a command log
// byte for byte, its Demo seats played live.
func TestReplayCommandFiles(t *testing.T) {
	for _, tc := range traceCases(t) {
		if tc.cmdPath == "" || tc.abort {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := coursetest.ReadGz(t, tc.path)
			got, err := replayTrace(t, tc, true)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, got) {
				t.Fatal(coursetest.FirstDiff(want, got))
			}
		})
	}
}

// TestAbortedGames replays the games the course program aborted: the
// engine must stop with ErrAbort where it did (crowd1) or the log must end
// where the crashed player stopped (crowd2), and the partial traces must
// match byte for byte.
func TestAbortedGames(t *testing.T) {
	for _, c := range []struct {
		name    string
		wantErr error
	}{
		{"crowd1_s1_Chaos-Demo-Dummy-Chaos.partial.res.gz", ErrAbort},
		{"crowd2_s1_Chaos-Demo-Dummy-Chaos.partial.res.gz", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var tc traceCase
			for _, x := range traceCases(t) {
				if x.name == c.name {
					tc = x
				}
			}
			if tc.path == "" || tc.cmdPath == "" {
				t.Fatalf("no partial trace and command file %s", c.name)
			}
			want := coursetest.ReadGz(t, tc.path)
			got, err := replayTrace(t, tc, false)
			if (c.wantErr == nil) != (err == nil) || (err != nil && !errorsIs(err, c.wantErr)) {
				t.Fatalf("replay error = %v, want %v", err, c.wantErr)
			}
			t.Logf("stopped with: %v", err)
			if !bytes.Equal(want, got) {
				t.Fatal(coursetest.FirstDiff(want, got))
			}
		})
	}
}

func errorsIs(err, target error) bool { return errors.Is(err, target) }
