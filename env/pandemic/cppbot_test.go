package pandemic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
const kitDir = "../../kit/pandemic"

// testCache is the compile cache of one test binary, so that every bot
// is compiled once; TestMain removes it.
var testCache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jgym-pandemic-test-")
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
	return compiledWith(t, src, cppOpts())
}

// compiledWith is compiled with the program's options opts (the cache
// stays the test binary's).
func compiledWith(t testing.TB, src string, opts cppbot.Options) *cppbot.Program {
	t.Helper()
	needCpp(t)
	v, _ := compileCache.LoadOrStore(src, &compileResult{})
	r := v.(*compileResult)
	r.once.Do(func() { r.exe, r.err = cppbot.Compile(src, testKit(t), cppOpts()) })
	if r.err != nil {
		t.Fatalf("compile %s: %v", src, r.err)
	}
	p := cppbot.NewProgram(r.exe, src, testKit(t), opts)
	t.Cleanup(func() { p.Close() })
	return p
}

// replayBot gives the commands a player gave in a reference game
// (SPEC §15.4).
type replayBot struct {
	log *CommandLog
	me  int
}

func (r replayBot) Play(s *State, o *Orders) {
	for _, c := range r.log.Round(s.Round)[r.me] {
		o.Move(c.ID, c.Dir)
	}
}

// seatBots seats a line-up: "cpp:Name" plays kit/pandemic/AIName.cc, a
// name with a log plays its recorded commands, others are Go bots.
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

// The C++ Demo and Null, run through the runner in the sandbox, reproduce
// the course's reference traces byte for byte: all four seats C++, C++
// mixed with Go Demos, and beside Dummy replayed from its commands.
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
		base := fmt.Sprintf("pandemic_s%d_%s", tc.seed, strings.Join(tc.names[:], "-"))
		t.Run(fmt.Sprintf("s%d_%s", tc.seed, strings.Join(tc.lineup[:], "-")), func(t *testing.T) {
			t.Parallel()
			root := tracesRoot()
			var log *CommandLog
			if slices.Contains(tc.names[:], "Dummy") {
				var err error
				if log, err = ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, filepath.Join(root, "commands", base+".cmd.gz")))); err != nil {
					t.Fatal(err)
				}
			}
			got, err := playTrace(DefaultConfig(), tc.seed, tc.names, seatBots(t, tc.seed, tc.lineup, log))
			if err != nil {
				t.Fatal(err)
			}
			if want := coursetest.ReadGz(t, filepath.Join(root, base+".res.gz")); !bytes.Equal(want, got) {
				t.Fatal(coursetest.FirstDiff(want, got))
			}
		})
	}
}

// The C++ Demo reproduces the edge traces: other board sizes (20 x 20,
// 100 x 100), fractional infection settings, a FIXED map with virus and
// masks, and games where Chaos and Dummy, replayed from their commands,
// give commands the engine drops.
func TestCppDemoReproducesEdgeTraces(t *testing.T) {
	needCpp(t)
	for _, base := range []string{
		"pandemic_s110_Dummy-Demo-Dummy-Demo",  // small: 20 x 20, 4 units each
		"pandemic_s202_Demo-Demo-Demo-Demo",    // virulent
		"pandemic_s301_Dummy-Demo-Dummy-Null",  // fractional: 7.5 / 2.5
		"pandemic_s501_Dummy-Demo-Null-Dummy",  // big: 100 x 100
		"pandemic_s701_Dummy-Demo-Null-Demo",   // fixed
		"pandemic_s801_Chaos-Demo-Dummy-Chaos", // Chaos
	} {
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			var tc traceCase
			for _, c := range traceCases(t) {
				if filepath.Base(c.path) == base+".res.gz" {
					tc = c
				}
			}
			if tc.path == "" || tc.cmdPath == "" {
				t.Fatalf("%s: no trace and command file", base)
			}
			log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, tc.cmdPath)))
			if err != nil {
				t.Fatal(err)
			}
			var lineup [NumPlayers]string
			for p, n := range tc.names {
				lineup[p] = n
				if n == "Demo" || n == "Null" {
					lineup[p] = "cpp:" + n
				}
			}
			got, err := playTrace(tc.cfg, tc.seed, tc.names, seatBots(t, tc.seed, lineup, log))
			if err != nil {
				t.Fatal(err)
			}
			if want := coursetest.ReadGz(t, tc.path); !bytes.Equal(want, got) {
				t.Fatal(coursetest.FirstDiff(want, got))
			}
		})
	}
}

// The kit, its runner, the official bots and the test bots compile
// without a warning.
func TestCppKitCompilesCleanly(t *testing.T) {
	needGxx(t)
	srcs := []string{
		filepath.Join(kitDir, "runner.cc"), filepath.Join(kitDir, "AIDemo.cc"), filepath.Join(kitDir, "AINull.cc"),
		"testdata/AITestBot.cc", "testdata/AICrash.cc", "testdata/AIFlood.cc", "testdata/AIThrow.cc",
	}
	for _, src := range srcs {
		t.Run(filepath.Base(src), func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
				"-I", kitDir, src).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
		})
	}
}

// The kit's files are its headers and the runner; the runner reports the
// course kit's memory layout (SPEC §11.7) and the registered player.
func TestCppKitLayout(t *testing.T) {
	k := testKit(t)
	want := []string{"Action.hh", "Info.hh", "Player.hh", "Random.hh", "Registry.hh", "Settings.hh", "State.hh",
		"Structs.hh", "Utils.hh", "runner.cc"}
	if got := k.Files(); !slices.Equal(got, want) {
		t.Errorf("Files() = %v, want %v", got, want)
	}
	p := compiled(t, filepath.Join(kitDir, "AINull.cc"))
	out, err := exec.Command(p.Path, "--layout").Output()
	if err != nil || strings.Contains(string(out), "MISMATCH") || !strings.Contains(string(out), "sizeof(Player) 432\n") {
		t.Fatalf("runner --layout: %v\n%s", err, out)
	}
	out, err = exec.Command(p.Path, "--list").Output()
	if err != nil || string(out) != "Null\n" {
		t.Fatalf("runner --list: %v %q", err, out)
	}
}
