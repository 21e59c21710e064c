package dominator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/internal/strict"
	"jgym/sandbox"
)

// kitDir is the repository's copy of the kit (the one package kit
// embeds).
const kitDir = "../../kit/dominator"

// testCache is the compile cache of one test binary, so that every bot
// is compiled once; TestMain removes it.
var testCache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jgym-dominator-test-")
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

// needGxx skips (fails under strict) where there is no g++.
func needGxx(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		strict.Skip(t, "g++ not found: "+err.Error())
	}
}

// needCpp skips (fails under strict) where C++ bots cannot be compiled
// and contained.
func needCpp(t testing.TB) {
	t.Helper()
	needGxx(t)
	if _, err := sandbox.Default(); errors.Is(err, sandbox.ErrUnavailable) {
		strict.Skip(t, err.Error())
	}
}

// cppOpts uses the test cache and a generous round timeout, so that a
// loaded machine does not make the tests flaky.
func cppOpts() cppbot.Options {
	return cppbot.Options{CacheDir: testCache, RoundTimeout: 10 * time.Second, StderrLimit: 1 << 20}
}

func testKit(t testing.TB) *cppbot.Kit {
	t.Helper()
	k, err := Def.CppKit()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var compileCache sync.Map // source path -> *compileResult

type compileResult struct {
	once sync.Once
	exe  string
	err  error
}

// compiled compiles src once per test binary and returns its program,
// closed at the end of the test.
func compiled(t testing.TB, src string) *cppbot.Program {
	t.Helper()
	needCpp(t)
	v, _ := compileCache.LoadOrStore(src, &compileResult{})
	r := v.(*compileResult)
	r.once.Do(func() { r.exe, r.err = cppbot.Compile(src, testKit(t), cppOpts()) })
	if r.err != nil {
		t.Fatalf("compile %s: %v", src, r.err)
	}
	p := cppbot.NewProgram(r.exe, src, testKit(t), cppOpts())
	t.Cleanup(func() { p.Close() })
	return p
}

// seatBots seats a line-up: "cpp:Name" plays kit/dominator/AIName.cc,
// Null and Demo are the Go bots, any other name replays its recorded
// commands from log.
func seatBots(t *testing.T, seed int, lineup [NumPlayers]string, log *CommandLog) [NumPlayers]Bot {
	t.Helper()
	var bots [NumPlayers]Bot
	for p, n := range lineup {
		switch {
		case strings.HasPrefix(n, "cpp:"):
			b := Def.NewCppBot(compiled(t, filepath.Join(kitDir, "AI"+n[4:]+".cc")), p, seed)
			t.Cleanup(func() { b.Close() })
			bots[p] = b
		case n == "Null" || n == "Demo":
			f, err := Def.Bots.Lookup(n)
			if err != nil {
				t.Fatal(err)
			}
			bots[p] = f(p, seed)
		default:
			if log == nil {
				t.Fatalf("seat %d: %s needs a command log", p, n)
			}
			bots[p] = replayBot{log, p}
		}
	}
	return bots
}

// playTrace plays a whole game and returns its trace.
func playTrace(cfg Config, seed int, names [NumPlayers]string, bots [NumPlayers]Bot) ([]byte, error) {
	m, err := Def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	err = m.Run(context.Background())
	return buf.Bytes(), err
}

// findCase returns the reference trace named base (without .res.gz).
func findCase(t *testing.T, base string) traceCase {
	t.Helper()
	for _, c := range traceCases(t) {
		if c.name == base+".res.gz" {
			return c
		}
	}
	t.Fatalf("no reference trace %s", base)
	return traceCase{}
}

// The C++ Demo and Null, run through the runner in the sandbox, reproduce
// the course's reference traces byte for byte: all four seats C++, C++
// mixed with Go Demos, and beside the Dummy replayed from its commands.
func TestCppDemoReproducesReference(t *testing.T) {
	needCpp(t)
	tests := []struct {
		seed   int
		names  [NumPlayers]string // as in the trace
		lineup [NumPlayers]string
	}{
		{1, [4]string{"Demo", "Demo", "Demo", "Demo"}, [4]string{"cpp:Demo", "cpp:Demo", "cpp:Demo", "cpp:Demo"}},
		{6, [4]string{"Demo", "Demo", "Demo", "Demo"}, [4]string{"cpp:Demo", "cpp:Demo", "cpp:Demo", "cpp:Demo"}},
		{3, [4]string{"Demo", "Null", "Demo", "Null"}, [4]string{"cpp:Demo", "cpp:Null", "cpp:Demo", "cpp:Null"}},
		{9, [4]string{"Null", "Null", "Null", "Null"}, [4]string{"cpp:Null", "cpp:Null", "cpp:Null", "cpp:Null"}},
		{2, [4]string{"Demo", "Demo", "Demo", "Demo"}, [4]string{"Demo", "cpp:Demo", "Demo", "cpp:Demo"}},
		{11, [4]string{"Demo", "Null", "Demo", "Null"}, [4]string{"cpp:Demo", "Null", "Demo", "cpp:Null"}},
		{4, [4]string{"Dummy", "Demo", "Null", "Demo"}, [4]string{"Dummy", "cpp:Demo", "cpp:Null", "cpp:Demo"}},
		{12, [4]string{"Dummy", "Demo", "Null", "Demo"}, [4]string{"Dummy", "Demo", "Null", "cpp:Demo"}},
	}
	for _, tc := range tests {
		base := fmt.Sprintf("dominator_s%d_%s", tc.seed, strings.Join(tc.names[:], "-"))
		t.Run(fmt.Sprintf("s%d_%s", tc.seed, strings.Join(tc.lineup[:], "-")), func(t *testing.T) {
			t.Parallel()
			c := findCase(t, base)
			var log *CommandLog
			if c.cmdPath != "" {
				log = loadLog(t, c.cmdPath)
			}
			got, err := playTrace(DefaultConfig(), tc.seed, tc.names, seatBots(t, tc.seed, tc.lineup, log))
			if err != nil {
				t.Fatal(err)
			}
			if want := coursetest.ReadGz(t, c.path); !bytes.Equal(want, got) {
				t.Fatal(coursetest.FirstDiff(want, got))
			}
		})
	}
}

// The C++ Demo reproduces edge traces: the other generators and a FIXED
// map, crowded boxes with lost units (one witch each: the course's Demo
// then reads past its witch list, which changes nothing in the trace),
// eight witches, weak units; the other seats (Dummy, Chaos) replay their
// recorded commands.
func TestCppDemoReproducesEdgeTraces(t *testing.T) {
	needCpp(t)
	for _, base := range []string{
		"generator1_s21_Demo-Dummy-Demo-Chaos",
		"generator3_s23_Demo-Dummy-Demo-Chaos",
		"fixed4_s27_Demo-Dummy-Demo-Chaos",
		"crowd3_s2_Chaos-Demo-Dummy-Chaos",
		"crowd3_s5_Chaos-Demo-Dummy-Chaos",
		"manywitch_s7_Chaos-Demo-Dummy-Chaos",
		"weak_s7_Chaos-Demo-Dummy-Chaos",
	} {
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			c := findCase(t, base)
			var lineup [NumPlayers]string
			for p, n := range c.names {
				lineup[p] = n
				if n == "Demo" {
					lineup[p] = "cpp:Demo"
				}
			}
			got, err := playTrace(c.cfg, c.seed, c.names, seatBots(t, c.seed, lineup, loadLog(t, c.cmdPath)))
			if err != nil {
				t.Fatal(err)
			}
			if want := coursetest.ReadGz(t, c.path); !bytes.Equal(want, got) {
				t.Fatal(coursetest.FirstDiff(want, got))
			}
		})
	}
}
