package moria

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/game"
	"jgym/internal/race"
)

// The kit, its runner and the course's players compile without a warning.
func TestCppKitCompilesCleanly(t *testing.T) {
	needGXX(t)
	for _, src := range []string{"runner.cc", "AIDemo.cc", "AINull.cc"} {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
				"-I", kitDir, filepath.Join(kitDir, src)).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
		})
	}
}

// The kit's files are its nine headers and the runner.
func TestCppKitFiles(t *testing.T) {
	names := testKit(t).Files()
	want := "Action.hh Info.hh Player.hh Random.hh Registry.hh Settings.hh State.hh Structs.hh Utils.hh runner.cc"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("Files() = %s, want %s", got, want)
	}
}

// The layout of Player and its parts is the course kit's (SPEC §11): the
// headers' static_asserts hold (they compiled) and the runner's own check
// passes; --list names the registered player.
func TestCppLayout(t *testing.T) {
	p := kitBot(t, "AINull.cc")
	out, err := exec.Command(p.Path, "--layout").Output()
	if err != nil || strings.Contains(string(out), "MISMATCH") || !strings.Contains(string(out), "sizeof(Player) 376") {
		t.Fatalf("runner --layout: %v\n%s", err, out)
	}
	out, err = exec.Command(p.Path, "--list").Output()
	if err != nil || string(out) != "Null\n" {
		t.Fatalf("runner --list: %v %q", err, out)
	}
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

// cppSeats makes the bots of a line-up: "cpp:" names are the kit's C++
// players, others Go bots.
func cppSeats(t testing.TB, seed int, names [NumPlayers]string) [NumPlayers]Bot {
	t.Helper()
	var bots [NumPlayers]Bot
	for p, n := range names {
		if file, ok := strings.CutPrefix(n, "cpp:"); ok {
			b := Def.NewCppBot(kitBot(t, "AI"+file+".cc"), p, seed)
			t.Cleanup(func() { b.Close() })
			bots[p] = b
			continue
		}
		f, err := Def.Bots.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = f(p, seed)
	}
	return bots
}

// The kit's C++ Demo and Null, run through the runner in the sandbox,
// reproduce the course's reference traces byte for byte, alone and mixed
// with Go Demos.
func TestCppDemoReproducesReference(t *testing.T) {
	needCpp(t)
	tests := []struct {
		seed  int
		names [NumPlayers]string // the reference game
		seats [NumPlayers]string // who plays it
	}{
		{1, [4]string{"Demo", "Demo", "Demo", "Demo"}, [4]string{"cpp:Demo", "cpp:Demo", "cpp:Demo", "cpp:Demo"}},
		{5, [4]string{"Demo", "Demo", "Demo", "Demo"}, [4]string{"cpp:Demo", "cpp:Demo", "cpp:Demo", "cpp:Demo"}},
		{2, [4]string{"Demo", "Null", "Demo", "Null"}, [4]string{"cpp:Demo", "cpp:Null", "cpp:Demo", "cpp:Null"}},
		{9, [4]string{"Demo", "Null", "Demo", "Null"}, [4]string{"cpp:Demo", "cpp:Null", "cpp:Demo", "cpp:Null"}},
		{3, [4]string{"Null", "Null", "Null", "Null"}, [4]string{"cpp:Null", "cpp:Null", "cpp:Null", "cpp:Null"}},
		{7, [4]string{"Demo", "Demo", "Demo", "Demo"}, [4]string{"Demo", "cpp:Demo", "Demo", "cpp:Demo"}},
		{12, [4]string{"Demo", "Demo", "Demo", "Demo"}, [4]string{"cpp:Demo", "Demo", "Demo", "Demo"}},
		{10, [4]string{"Demo", "Null", "Demo", "Null"}, [4]string{"Demo", "cpp:Null", "cpp:Demo", "Null"}},
	}
	if race.Enabled {
		tests = tests[:2]
	}
	for _, tc := range tests {
		name := fmt.Sprintf("s%d_%s", tc.seed, strings.Join(tc.seats[:], "-"))
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ref := refTraceNamed(t, fmt.Sprintf("moria_s%d_%s.res.gz", tc.seed, strings.Join(tc.names[:], "-")))
			got, err := playTrace(ref.cfg, tc.seed, tc.names, cppSeats(t, tc.seed, tc.seats))
			if err != nil {
				t.Fatal(err)
			}
			if want := coursetest.ReadGz(t, ref.path); !bytes.Equal(want, got) {
				t.Fatalf("C++ bots vs reference: %s", coursetest.FirstDiff(want, got))
			}
		})
	}
}

// replayBot gives the commands a player gave in a reference game (the
// course's Dummy, which jgym cannot run).
type replayBot struct {
	log *CommandLog
	me  int
}

func (r replayBot) Play(s *State, o *Orders) {
	for _, c := range r.log.Round(s.Round)[r.me] {
		o.Command(c.ID, c.Dir)
	}
}

// The reference games with the course's Dummy in seat 0 (replayed from its
// recorded commands) and the kit's C++ Demo and Null in the other seats
// reproduce the reference traces.
func TestCppDemoWithReplayedDummy(t *testing.T) {
	needCpp(t)
	seeds := []int{4, 11}
	if race.Enabled {
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			ref := refTraceNamed(t, fmt.Sprintf("moria_s%d_Dummy-Demo-Null-Demo.res.gz", seed))
			log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, ref.cmdPath)))
			if err != nil {
				t.Fatal(err)
			}
			bots := cppSeats(t, seed, [4]string{"Null", "cpp:Demo", "cpp:Null", "cpp:Demo"})
			bots[0] = replayBot{log, 0}
			got, err := playTrace(ref.cfg, seed, ref.names, bots)
			if err != nil {
				t.Fatal(err)
			}
			if want := coursetest.ReadGz(t, ref.path); !bytes.Equal(want, got) {
				t.Fatal(coursetest.FirstDiff(want, got))
			}
		})
	}
}

// On a FIXED map with other settings (fixed1.cnf of the reference data)
// the C++ Demo plays as the Go Demo.
func TestCppDemoFixedMap(t *testing.T) {
	needCpp(t)
	cfg := loadConfigFile(t, filepath.Join(traceRoot(), "fixed1.cnf"))
	names := [4]string{"Demo", "Demo", "Null", "Demo"}
	want, err := playTrace(cfg, 7, names, cppSeats(t, 7, names))
	if err != nil {
		t.Fatal(err)
	}
	got, err := playTrace(cfg, 7, names, cppSeats(t, 7, [4]string{"cpp:Demo", "Demo", "cpp:Null", "cpp:Demo"}))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Fatal(coursetest.FirstDiff(want, got))
	}
}

// A broken bot does not compile; a crashing one, one that throws and one
// that floods commands (testdata/AI*.cc) end their game with an error
// naming the bot, its seat and the round, and the trace ends with the last
// complete state: the game the other players played until then.
func TestCppBotFailures(t *testing.T) {
	needCpp(t)
	if _, err := cppbot.Compile("testdata/AIBroken.cc", testKit(t), cppOpts()); !errors.Is(err, cppbot.ErrCompile) ||
		!strings.Contains(err.Error(), "AIBroken.cc") || !strings.Contains(err.Error(), "undeclared_variable") {
		t.Errorf("compiling AIBroken.cc: %v, want a compile error naming the file and the variable", err)
	}

	tests := []struct {
		name  string
		seat  int
		round int
		want  error
		text  string
	}{
		{"Crash", 0, 5, cppbot.ErrCrashed, "crashed (signal: segmentation fault)"},
		{"Throw", 2, 3, cppbot.ErrRunner, "exception: play() threw Throw: no idea what to do"},
		{"Flood", 1, 7, game.ErrTooManyCommands, "too many commands: 1001 commands in round 7 (max 1000)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			prog := compiled(t, "testdata/AI"+tc.name+".cc", cppOpts())
			b := Def.NewCppBot(prog, tc.seat, 1)
			defer b.Close()
			names := [4]string{"Demo", "Null", "Demo", "Null"}
			bots := [4]Bot{NewDemo(0, 1), Null{}, NewDemo(2, 1), Null{}}
			names[tc.seat], bots[tc.seat] = tc.name, b
			got, err := playTrace(DefaultConfig(), 1, names, bots)
			var be *cppbot.BotError
			if !errors.Is(err, tc.want) || !errors.As(err, &be) {
				t.Fatalf("the game ended with %v, want a *cppbot.BotError wrapping %v", err, tc.want)
			}
			msg := err.Error()
			for _, s := range []string{tc.text, fmt.Sprintf("round %d: player %d (%s): cpp bot %s (seat %d) in round %d",
				tc.round, tc.seat, tc.name, tc.name, tc.seat, tc.round)} {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q lacks %q", msg, s)
				}
			}
			t.Log(msg)
			// The trace holds the states 0..round-1: the game of the other
			// players, the failing seat playing Null until then (Flood's
			// orders are all None).
			bots = [4]Bot{NewDemo(0, 1), Null{}, NewDemo(2, 1), Null{}}
			bots[tc.seat] = Null{}
			want, err := playTrace(withRounds(DefaultConfig(), tc.round-1), 1, names, bots)
			if err != nil {
				t.Fatal(err)
			}
			want = bytes.Replace(want, []byte(fmt.Sprintf("nb_rounds          %d\n", tc.round-1)), []byte("nb_rounds          200\n"), 1)
			if !bytes.Equal(want, got) {
				t.Errorf("truncated trace: %s", coursetest.FirstDiff(want, got))
			}
		})
	}
}

// withRounds returns cfg with n rounds.
func withRounds(cfg Config, n int) Config {
	cfg.NbRounds = n
	return cfg
}

// A prebuilt object (here the kit's Demo, compiled with plain g++ -c as
// the course compiles its AIDummy.o) links with the runner and plays as
// the source does: the reference trace again.
func TestCppPrebuiltObject(t *testing.T) {
	needCpp(t)
	obj := filepath.Join(t.TempDir(), "AIDemo.o")
	out, err := exec.Command("g++", "-c", "-std=c++11", "-O2", "-I", kitDir, "-o", obj, filepath.Join(kitDir, "AIDemo.cc")).CombinedOutput()
	if err != nil {
		t.Fatalf("g++ -c AIDemo.cc: %v\n%s", err, out)
	}
	prog := compiled(t, obj, cppOpts())
	const seed = 2
	names := [4]string{"Demo", "Null", "Demo", "Null"}
	bots := cppSeats(t, seed, names)
	for _, p := range []int{0, 2} {
		b := Def.NewCppBot(prog, p, seed)
		defer b.Close()
		bots[p] = b
	}
	got, err := playTrace(DefaultConfig(), seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	if want := coursetest.ReadGz(t, refTraceNamed(t, "moria_s2_Demo-Null-Demo-Null.res.gz").path); !bytes.Equal(want, got) {
		t.Fatal(coursetest.FirstDiff(want, got))
	}
}
