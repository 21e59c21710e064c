package dominator

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/game"
)

// twin is testdata/AITestBot.cc written in Go: it plays on its view, as
// the C++ player does.
type twin struct {
	rng Rand
	h   uint32
}

func newTwin(me, seed int) *twin {
	t := &twin{}
	t.rng.Seed(seed + me + 1)
	return t
}

func (t *twin) add(x int) {
	t.h ^= uint32(x)
	t.h *= 16777619
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// digest hashes the view as AITestBot's digest() sees it through the API.
func (t *twin) digest(v *State) uint32 {
	t.h = 2166136261
	for _, x := range v.Cfg.Values() {
		t.add(x)
	}
	t.add(v.Round)
	t.add(len(v.Units))
	for _, c := range v.Grid {
		t.add(int(c.Type))
		t.add(int(c.Owner))
		t.add(int(c.ID))
		t.add(b2i(c.Haunted))
	}
	for _, u := range v.Units {
		for _, x := range []int{int(u.Type), u.ID, u.Player, u.Health, u.Pos.I, u.Pos.J, b2i(u.Active)} {
			t.add(x)
		}
	}
	for pl := 0; pl < NumPlayers; pl++ {
		t.add(v.Land[pl])
		t.add(v.TotalScore[pl])
		t.add(0) // status
		for _, l := range [][]int{v.Farmers[pl], v.Knights[pl], v.Witches[pl]} {
			t.add(len(l))
			for _, id := range l {
				t.add(id)
			}
		}
	}
	return t.h
}

func (t *twin) Play(v *State, o *Orders) {
	o.Command(-1-int(t.digest(v)&0x3fffffff), None)
	for _, id := range v.Farmers[0] {
		o.Command(id, Dir(t.rng.Int(0, 9)))
	}
	for _, id := range v.Knights[0] {
		o.Command(id, Dir(t.rng.Int(-1, 8)))
	}
	for _, id := range v.Witches[0] {
		o.Command(id, Dir(t.rng.Int(0, 8)))
	}
	for _, id := range v.Farmers[0] {
		o.Command(id, Top)
	}
	if e := v.Farmers[1]; len(e) > 0 {
		o.Command(e[0], Bottom)
	}
	o.Command(len(v.Units)+3, Left)
	o.Command(-7, 100)
	t.rng.FullPerm(5)
}

// playLog plays a whole game and returns its trace and every command list
// the players handed to the engine.
func playLog(t *testing.T, cfg Config, seed int, names [NumPlayers]string, bots [NumPlayers]Bot) ([]byte, *CommandLog) {
	t.Helper()
	m, err := Def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	log := &CommandLog{}
	for !m.Done() {
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
		var cmds [NumPlayers][]Command
		for p := range cmds {
			cmds[p] = m.Orders(p)
		}
		log.Record(&cmds)
	}
	return buf.Bytes(), log
}

// A test bot sees, through every accessor of the API, exactly the view the
// engine gives it (its digest, given as a command, equals its Go twin's
// every round), and its commands, with those the filter or the engine
// drops, give the same command lists and the same trace as the twin. It
// runs from source and as an object compiled on its own with plain g++ -c
// (as the course's AIDummy.o was), in every seat (so in every rotation of
// the view), with the default configuration and with a GENERATOR3 board of
// other settings; its warnings and its cout reach its stderr.
func TestCppTestBotMatchesTwin(t *testing.T) {
	needCpp(t)
	obj := filepath.Join(t.TempDir(), "AITestBot.o")
	out, err := exec.Command("g++", "-c", "-std=c++11", "-O2", "-I", kitDir, "-o", obj, "testdata/AITestBot.cc").CombinedOutput()
	if err != nil {
		t.Fatalf("g++ -c AITestBot.cc: %v\n%s", err, out)
	}
	// Like AIDummy.o (SPEC §11.7), the object imports only
	// Registry::Register from the game program: everything else of the
	// kit is inline and compiled into it.
	if nm, err := exec.Command("nm", "-u", "-C", obj).Output(); err == nil {
		for _, line := range strings.Split(string(nm), "\n") {
			if strings.ContainsAny(line, "(") && regexp.MustCompile(`\b(Player|Info|Settings|State|Random_generator|Action|Registry)\b`).MatchString(line) &&
				strings.TrimSpace(line) != "U Registry::Register(char const*, Player* (*)())" {
				t.Errorf("AITestBot.o imports %q", strings.TrimSpace(line))
			}
		}
		if !strings.Contains(string(nm), "U Registry::Register(char const*, Player* (*)())") {
			t.Errorf("AITestBot.o does not import Registry::Register:\n%s", nm)
		}
	}
	small, err := ShippedConfig("generator3")
	if err != nil {
		t.Fatal(err)
	}
	small.Rows, small.Cols, small.NbRounds = 25, 25, 40
	small.NbFarmers, small.NbKnights, small.NbWitches = 7, 3, 1
	small.DamageMin, small.DamageMax, small.FarmersRegen = 100, 150, 0
	for _, tc := range []struct {
		name  string
		src   string
		cfg   Config
		seed  int
		names [NumPlayers]string
	}{
		{"source", "testdata/AITestBot.cc", DefaultConfig(), 4, [4]string{"TestBot", "Demo", "TestBot", "Null"}},
		{"object", obj, DefaultConfig(), 9, [4]string{"Demo", "TestBot", "Null", "TestBot"}},
		{"source_small", "testdata/AITestBot.cc", small, 7, [4]string{"TestBot", "TestBot", "TestBot", "TestBot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog := compiled(t, tc.src)
			if prog.Name != "TestBot" {
				t.Errorf("Name = %q, want TestBot", prog.Name)
			}
			var cpp, gob [NumPlayers]Bot
			var seats []*CppBot
			for p, n := range tc.names {
				switch n {
				case "TestBot":
					b := Def.NewCppBot(prog, p, tc.seed)
					defer b.Close()
					seats = append(seats, b)
					cpp[p], gob[p] = b, newTwin(p, tc.seed)
				case "Demo":
					cpp[p], gob[p] = NewDemo(p, tc.seed), NewDemo(p, tc.seed)
				default:
					cpp[p], gob[p] = Null{}, Null{}
				}
			}
			got, gotLog := playLog(t, tc.cfg, tc.seed, tc.names, cpp)
			want, wantLog := playLog(t, tc.cfg, tc.seed, tc.names, gob)
			for r := range wantLog.Rounds {
				for p := range NumPlayers {
					if g, w := gotLog.Rounds[r][p], wantLog.Rounds[r][p]; !slices.Equal(g, w) {
						t.Fatalf("round %d, player %d: C++ commands %v, want %v", r, p, g, w)
					}
				}
			}
			if !bytes.Equal(want, got) {
				t.Fatal(coursetest.FirstDiff(want, got))
			}
			for _, b := range seats {
				if b.Process().Player() != "TestBot" {
					t.Errorf("registered name %q, want TestBot", b.Process().Player())
				}
			}
			stderr, _ := seats[0].Process().Stderr()
			for _, w := range []string{
				"warning: cell requested for position (-1, 0)",
				"warning: cell requested for position (0, " + strconv.Itoa(tc.cfg.Cols) + ")",
				"warning: unit requested for identifier -1",
				"warning: unit requested for identifier " + strconv.Itoa(tc.cfg.NumUnits()),
				"warning: score requested for player 4",
				"warning: total score requested for player -1",
				"warning: status requested for player 9",
				"warning: farmers requested for player 7",
				"warning: knights requested for player -2",
				"warning: witches requested for player 4",
				"warning: action already requested for unit",
				"TestBot writes to cout in round " + strconv.Itoa(tc.cfg.NbRounds-1),
			} {
				if !strings.Contains(string(stderr), w) {
					t.Errorf("stderr lacks %q", w)
				}
			}
		})
	}
}

// tracePrefix is the trace of a game of four Nulls up to the state
// before the given round (0-based play call) is played.
func tracePrefix(t *testing.T, cfg Config, seed, round int) []byte {
	t.Helper()
	m, err := Def.NewBotMatch(cfg, seed, [4]string{"Null", "Null", "Null", "Null"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	for r := 0; r < round; r++ {
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// A bot that does not compile, crashes, throws or makes more than 1000
// command calls in a round ends its game with an error naming the bot,
// its seat and the round; the trace holds the rounds played before.
func TestCppBotFailures(t *testing.T) {
	needCpp(t)
	_, err := cppbot.Compile("testdata/AIBroken.cc", testKit(t), cppOpts())
	var ce *cppbot.CompileError
	if !errors.As(err, &ce) || !errors.Is(err, cppbot.ErrCompile) || !strings.Contains(err.Error(), "AIBroken.cc:10") ||
		!strings.Contains(err.Error(), "undeclared_variable") {
		t.Errorf("Compile(AIBroken.cc) = %v, want a compile error at AIBroken.cc:10", err)
	}
	for _, tc := range []struct {
		bot   string
		round int
		want  error
		text  []string
	}{
		{"Crash", 5, cppbot.ErrCrashed, []string{"signal: segmentation fault", "Crash: about to dereference a null pointer"}},
		{"Throw", 3, cppbot.ErrRunner, []string{"exception: play() threw Throw gives up"}},
		{"Flood", 7, game.ErrTooManyCommands, []string{"1001 commands in round 7 (max 1000)"}},
	} {
		t.Run(tc.bot, func(t *testing.T) {
			t.Parallel()
			prog := compiled(t, "testdata/AI"+tc.bot+".cc")
			b := Def.NewCppBot(prog, 1, 3)
			defer b.Close()
			names := [4]string{"Null", tc.bot, "Null", "Null"}
			got, err := playTrace(DefaultConfig(), 3, names, [4]Bot{Null{}, b, Null{}, Null{}})
			var be *cppbot.BotError
			if !errors.Is(err, tc.want) || !errors.As(err, &be) || be.Round != tc.round || be.Seat != 1 {
				t.Fatalf("game ended with %v, want %v in round %d, seat 1", err, tc.want, tc.round)
			}
			for _, s := range append(tc.text, "cpp bot "+tc.bot+" (seat 1)", "round "+strconv.Itoa(tc.round+1)+": player 1 ("+tc.bot+")") {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
			want := tracePrefix(t, DefaultConfig(), 3, tc.round)
			want = bytes.Replace(want, []byte("names          Null Null Null Null"), []byte("names          Null "+tc.bot+" Null Null"), 1)
			if !bytes.Equal(want, got) {
				t.Error(coursetest.FirstDiff(want, got))
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
	if err != nil || strings.Contains(string(out), "MISMATCH") || !strings.Contains(string(out), "sizeof(Player) 360\n") {
		t.Fatalf("runner --layout: %v\n%s", err, out)
	}
	out, err = exec.Command(p.Path, "--list").Output()
	if err != nil || string(out) != "Null\n" {
		t.Fatalf("runner --list: %v %q", err, out)
	}
}
