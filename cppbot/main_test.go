package cppbot_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"jgym/cppbot"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"jgym/env/crematoria"
	"jgym/sandbox"
)

// Paths of the repository's kit and reference traces.
const (
	kitDir    = "../kit/crematoria"
	tracesDir = "../testdata/crematoria/traces"
)

// testCache is the compile cache shared by the tests of one test binary,
// so that every bot is compiled once.
var testCache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jgym-cppbot-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	sandbox.Release() // the control groups and shared files of its sandboxes
	os.Exit(code)
}

// testKit returns the kit the test bots are written for: Crematoria's.
func testKit(t testing.TB) *cppbot.Kit {
	t.Helper()
	k, err := crematoria.Def.CppKit()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// testOpts returns options using the test cache, with a generous round
// timeout so that a loaded machine does not make the tests flaky.
func testOpts() cppbot.Options {
	return cppbot.Options{CacheDir: testCache, RoundTimeout: 10 * time.Second}
}

var (
	compileMu   sync.Mutex
	compileOnce = map[string]*compileResult{}
)

type compileResult struct {
	once sync.Once
	exe  string
	err  error
}

// compiled compiles src once per test binary and returns its program.
func compiled(t testing.TB, src string, opts cppbot.Options) *cppbot.Program {
	t.Helper()
	compileMu.Lock()
	r, ok := compileOnce[src]
	if !ok {
		r = &compileResult{}
		compileOnce[src] = r
	}
	compileMu.Unlock()
	r.once.Do(func() { r.exe, r.err = cppbot.Compile(src, testKit(t), testOpts()) })
	if r.err != nil {
		t.Fatalf("compile %s: %v", src, r.err)
	}
	p := cppbot.NewProgram(r.exe, src, testKit(t), opts)
	t.Cleanup(func() { p.Close() })
	return p
}

func readGz(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func referenceTrace(t testing.TB, seed int, names [4]string) []byte {
	t.Helper()
	name := fmt.Sprintf("crematoria_s%d_%s-%s-%s-%s.res.gz", seed, names[0], names[1], names[2], names[3])
	return readGz(t, filepath.Join(tracesDir, name))
}

// playMatch plays a whole game with the default configuration and returns
// its trace.
func playMatch(seed int, names [4]string, bots [4]crematoria.Bot) ([]byte, error) {
	return playMatchCfg(crematoria.DefaultConfig(), seed, names, bots)
}

// playMatchCfg plays a whole game and returns its trace.
func playMatchCfg(cfg crematoria.Config, seed int, names [4]string, bots [4]crematoria.Bot) ([]byte, error) {
	m, err := crematoria.Def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	err = m.Run(context.Background())
	return buf.Bytes(), err
}

// seat makes the bots of a line-up: "cpp:" names are C++ programs, others
// are Go bots.
func seats(t testing.TB, seed int, progs map[string]*cppbot.Program, names [4]string) [4]crematoria.Bot {
	t.Helper()
	var bots [4]crematoria.Bot
	for p, n := range names {
		if prog, ok := progs[n]; ok {
			b := crematoria.Def.NewCppBot(prog, p, seed)
			t.Cleanup(func() { b.Close() })
			bots[p] = b
			continue
		}
		f, err := crematoria.Def.Bots.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = f(p, seed)
	}
	return bots
}

func firstDiff(want, got []byte) string {
	n := min(len(want), len(got))
	for i := 0; i < n; i++ {
		if want[i] != got[i] {
			line := bytes.Count(want[:i], []byte("\n")) + 1
			s := max(0, i-60)
			return "first difference at line " + strconv.Itoa(line) + ":\nwant: " +
				strconv.Quote(string(want[s:min(len(want), i+30)])) + "\n got: " + strconv.Quote(string(got[s:min(len(got), i+30)]))
		}
	}
	return fmt.Sprintf("lengths differ: want %d, got %d", len(want), len(got))
}
