package gametest

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"jgym/course"
	"jgym/course/coursetest"
	"jgym/game"
)

// Trace is one reference trace of a game's fixtures.
type Trace[C any] struct {
	Path     string // the .res.gz file
	Commands string // its command file, or ""
	Seed     int
	Names    [game.NumSeats]string
	Config   C
	// Configured says the trace was played with a configuration file, not
	// the default.
	Configured bool
	// Partial says the trace is partial (NAME....partial.res.gz): the
	// course program aborted the game where the trace ends, or a player
	// crashed in the round its command file leaves incomplete.
	Partial bool
}

// traceName is NAME_sSEED_P0-P1-P2-P3[_CONFIG][.partial].res.gz.
var traceName = regexp.MustCompile(`^([A-Za-z0-9]+)_s(\d+)_([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9]+)(?:_(\w+))?(\.partial)?\.res\.gz$`)

// Traces lists the reference traces of dir (and its subfolders; see
// Options.Traces), failing the test when there are none.
func Traces[C game.Config, G, S any, D game.Dir](t testing.TB, d *game.Def[C, G, S, D], dir string) []Trace[C] {
	t.Helper()
	if env := os.Getenv("JGYM_TRACES_" + strings.ToUpper(d.Name)); env != "" {
		dir = env
	}
	var out []Trace[C]
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		m := traceName.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			return nil
		}
		seed, _ := strconv.Atoi(m[2])
		tr := Trace[C]{Path: path, Seed: seed, Names: [game.NumSeats]string{m[3], m[4], m[5], m[6]}, Config: d.DefaultConfig(),
			Partial: m[8] != ""}
		folder := filepath.Dir(path)
		base := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".res.gz"), ".partial")
		cnf := ""
		switch {
		case fileExists(filepath.Join(folder, base+".cnf")):
			cnf = base + ".cnf"
		case m[7] != "":
			cnf = m[7] + ".cnf"
		case !strings.EqualFold(m[1], d.Name) && m[1] != "default":
			cnf = m[1] + ".cnf"
		}
		if cnf != "" {
			b, err := os.ReadFile(findConfig(dir, folder, cnf))
			if err != nil {
				return err
			}
			if tr.Config, err = d.ParseConfig(bytes.NewReader(b)); err != nil {
				return err
			}
			tr.Configured = true
		}
		for _, c := range []string{filepath.Join(folder, "commands", base+".cmd.gz"), filepath.Join(folder, base+".cmd.gz")} {
			if fileExists(c) {
				tr.Commands = c
			}
		}
		out = append(out, tr)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no reference traces in %s", dir)
	}
	return out
}

// findConfig returns the configuration file name of a trace in folder:
// beside the trace, else in the nearest folder above it up to root (the
// traces of aborted games may sit in a subfolder of the edge traces
// whose configurations they share).
func findConfig(root, folder, name string) string {
	for dir := folder; ; dir = filepath.Dir(dir) {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err == nil {
			return path
		}
		if rel, err := filepath.Rel(root, dir); err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			return filepath.Join(folder, name)
		}
	}
}

// fileExists reports whether path names a file.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// short keeps every k-th trace under Options.Short.
func short[C any](o Options, trs []Trace[C], k int) []Trace[C] {
	if !o.short {
		return trs
	}
	var out []Trace[C]
	for i, tr := range trs {
		if i%k == 0 {
			out = append(out, tr)
		}
	}
	return out
}

// testTraces checks the reference traces: native matches and command
// replays reproduce them, Verify accepts them and, with commands, rejects
// mutations. The trace of a game the course engine aborted (its replay
// ends with game.ErrAbort) may be refused without its commands with an
// error wrapping game.ErrTruncated: only the commands tell an abort from
// a cut file. A partial trace (a player crashed, or the course program
// aborted where jgym's engine does not) is reproduced, not verified: a
// verifier checks whole games.
func testTraces[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	trs := short(o, Traces(t, d, o.Traces), 4)
	bots := d.Bots.Names()
	withCommands := 0
	for _, tr := range trs {
		t.Run(filepath.Base(tr.Path), func(t *testing.T) {
			t.Parallel()
			want := coursetest.ReadGz(t, tr.Path)
			native := true
			for _, n := range tr.Names {
				native = native && slices.Contains(bots, n)
			}
			aborted := false
			if native {
				m, err := d.NewBotMatch(tr.Config, tr.Seed, tr.Names)
				if err != nil {
					t.Fatal(err)
				}
				aborted = checkPlay(t, "native match", want, m, func() error { return m.PlayRound() })
			}
			var log *game.CommandLog[D]
			if tr.Commands != "" {
				var err error
				if log, err = d.ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, tr.Commands))); err != nil {
					t.Fatal(err)
				}
				m, err := d.NewMatch(tr.Config, tr.Seed, tr.Names, [game.NumSeats]game.Bot[S, D]{})
				if err != nil {
					t.Fatal(err)
				}
				aborted = checkPlay(t, "command replay", want, m, func() error {
					if k := m.Round(); k < len(log.Rounds) && !log.Complete(k) {
						return errCrashed
					}
					return m.Step(log.Round(m.Round()))
				}) || aborted
			}
			if tr.Partial {
				return
			}
			cfg := &tr.Config
			if !tr.Configured {
				cfg = nil
			}
			if err := d.Verify(want, nil, cfg); err != nil && !(aborted && errors.Is(err, game.ErrTruncated)) {
				t.Errorf("Verify without commands: %v", err)
			}
			if log == nil {
				return
			}
			if err := d.Verify(want, log, cfg); err != nil {
				t.Fatalf("Verify with commands: %v", err)
			}
			var buf bytes.Buffer
			if err := log.Write(&buf); err != nil {
				t.Fatal(err)
			}
			again, err := d.ParseCommandLog(&buf)
			if err != nil || !equalLogs(log, again) {
				t.Errorf("the command log does not survive Write and ParseCommandLog (%v)", err)
			}
			mutations(t, d, want, log, cfg, tr.Seed)
		})
		if tr.Commands != "" {
			withCommands++
		}
	}
	if withCommands == 0 {
		t.Error("no reference trace has a command file")
	}
}

// errCrashed stops a command replay at a round whose command file lines
// are not all there: a player crashed in it, and the course program with
// it.
var errCrashed = errors.New("a player never finished the round")

// checkPlay plays m round by round with round, writing its trace, and
// compares the trace with want byte for byte. A game the course engine
// aborted ends with an error wrapping game.ErrAbort where its trace ends,
// or errCrashed; checkPlay reports whether it did.
func checkPlay[C game.Config, G, S any, D game.Dir](t *testing.T, what string, want []byte, m *game.Match[C, G, S, D], round func() error) (aborted bool) {
	t.Helper()
	var buf bytes.Buffer
	if err := m.WriteTrace(&buf); err != nil {
		t.Fatal(err)
	}
	for !m.Done() {
		if err := round(); err != nil {
			if !errors.Is(err, game.ErrAbort) && !errors.Is(err, errCrashed) {
				t.Fatalf("%s: %v", what, err)
			}
			aborted = true
			break
		}
	}
	if !bytes.Equal(want, buf.Bytes()) {
		t.Fatalf("%s: %s", what, coursetest.FirstDiff(want, buf.Bytes()))
	}
	return aborted
}

// equalLogs reports whether two command logs hold the same lists.
func equalLogs[D game.Dir](a, b *game.CommandLog[D]) bool {
	if len(a.Rounds) != len(b.Rounds) {
		return false
	}
	for k := range a.Rounds {
		if a.Complete(k) != b.Complete(k) {
			return false
		}
		for p := range a.Rounds[k] {
			if !slices.Equal(a.Rounds[k][p], b.Rounds[k][p]) {
				return false
			}
		}
	}
	return true
}

// mutations changes single digits of the rounds of a trace (after its
// header) and checks that Verify with the command log rejects every one:
// a replay compares every byte the engine writes.
func mutations[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], trace []byte, log *game.CommandLog[D], cfg *C, seed int) {
	t.Helper()
	start := bytes.Index(trace, []byte("\nround "))
	if start < 0 {
		// Traces whose states say their round otherwise: after the
		// header's names line.
		start = bytes.Index(trace, []byte("names"))
	}
	var digits []int
	for i := start + 1; i < len(trace); i++ {
		if c := trace[i]; c >= '0' && c <= '9' {
			digits = append(digits, i)
		}
	}
	if len(digits) == 0 {
		t.Fatal("no digit to mutate")
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	for range 8 {
		i := digits[rng.IntN(len(digits))]
		mut := bytes.Clone(trace)
		mut[i] = '0' + (mut[i]-'0'+1+byte(rng.IntN(9)))%10
		err := d.Verify(mut, log, cfg)
		if err == nil {
			line := bytes.Count(trace[:i], []byte("\n")) + 1
			t.Errorf("Verify with commands accepts the trace with byte %d (line %d) changed from %q to %q", i, line, trace[i], mut[i])
			continue
		}
		var div *course.Divergence
		var perr *course.ParseError
		if !errors.As(err, &div) && !errors.As(err, &perr) && !errors.Is(err, course.ErrTrace) {
			t.Logf("mutation at byte %d: %v", i, err)
		}
	}
}
