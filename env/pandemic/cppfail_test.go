package pandemic

import (
	"bytes"
	"errors"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/game"
)

// twin is testdata/AITestBot.cc written in Go.
type twin struct {
	me  int
	rng Rand
	h   uint32
}

func newTwin(me, seed int) *twin {
	t := &twin{me: me}
	t.rng.Seed(seed + me + 1)
	return t
}

func (t *twin) add(x int) {
	t.h ^= uint32(x)
	t.h *= 16777619
}

func (t *twin) addFloat(x float64) {
	b := math.Float64bits(x)
	t.add(int(uint32(b)))
	t.add(int(uint32(b >> 32)))
}

// digest hashes the state as AITestBot's digest() sees it.
func (t *twin) digest(s *State) uint32 {
	t.h = 2166136261
	c := s.Cfg
	for _, x := range c.intFields() {
		t.add(*x)
	}
	t.addFloat(c.InfectionFactor)
	t.addFloat(c.MaskProtection)
	t.add(t.me)
	t.add(s.Round)
	t.add(len(s.Units))
	for i := 0; i < s.Rows; i++ {
		for j := 0; j < s.Cols; j++ {
			x := s.Cell(Pos{i, j})
			for _, v := range []int{int(x.Type), x.UnitID, x.CityID, x.PathID, x.Virus, b2i(x.Mask)} {
				t.add(v)
			}
		}
	}
	for _, u := range s.Units {
		for _, v := range []int{u.ID, u.Player, u.Pos.I, u.Pos.J, u.Health, u.Damage, u.Turns, b2i(u.Immune), b2i(u.Mask)} {
			t.add(v)
		}
	}
	for pl := 0; pl < NumPlayers; pl++ {
		t.add(len(s.PlayerUnits[pl]))
		for _, id := range s.PlayerUnits[pl] {
			t.add(id)
		}
		t.add(s.Scores[pl])
		t.addFloat(0) // status
	}
	t.add(len(s.Cities))
	for k, city := range s.Cities {
		t.add(len(city))
		for _, p := range city {
			t.add(p.I)
			t.add(p.J)
		}
		t.add(s.CityOwner[k])
	}
	t.add(len(s.Paths))
	for k, path := range s.Paths {
		t.add(path.A)
		t.add(path.B)
		t.add(len(path.Cells))
		for _, p := range path.Cells {
			t.add(p.I)
			t.add(p.J)
		}
		t.add(s.PathOwner[k])
	}
	return t.h
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (t *twin) Play(s *State, o *Orders) {
	o.Move(-1-int(t.digest(s)&0x3fffffff), None)
	mine := s.PlayerUnits[t.me]
	for _, id := range mine {
		o.Move(id, Dir(t.rng.Int(0, 5)))
	}
	for _, id := range mine {
		o.Move(id, Top)
	}
	other := s.PlayerUnits[(t.me+1)%NumPlayers]
	if len(other) > 0 {
		o.Move(other[0], Bottom)
	}
	if len(other) > 1 {
		o.Move(other[1], -1)
	}
	if len(other) > 2 {
		o.Move(other[2], clampDir(300))
	}
	o.Move(-3, Top)
	o.Move(len(s.Units)+2, Left)
	o.Move(len(s.Units)+5, 7)
	t.rng.FullPerm(3)
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

// A test bot sees, through every accessor of the API, exactly the state
// the engine has (its digest, given as a command, equals its Go twin's),
// and its commands, with those the filter or the engine drops, give the
// same command lists and the same trace as the twin. It runs once from
// source and once as an object compiled on its own with plain g++ -c (as
// the course's AIDummy.o was), with the default configuration and with
// fractional settings on a small board; its warnings and its cout reach
// its stderr.
func TestCppTestBotMatchesTwin(t *testing.T) {
	needCpp(t)
	obj := filepath.Join(t.TempDir(), "AITestBot.o")
	out, err := exec.Command("g++", "-c", "-std=c++11", "-O2", "-I", kitDir, "-o", obj, "testdata/AITestBot.cc").CombinedOutput()
	if err != nil {
		t.Fatalf("g++ -c AITestBot.cc: %v\n%s", err, out)
	}
	small := DefaultConfig()
	small.Rows, small.Cols, small.NbUnits, small.NbRounds = 24, 24, 5, 30
	small.InfectionFactor, small.MaskProtection = 7.3, 1.0/3
	for _, tc := range []struct {
		name string
		src  string
		cfg  Config
		seed int
	}{
		{"source", "testdata/AITestBot.cc", DefaultConfig(), 4},
		{"object", obj, DefaultConfig(), 9},
		{"source_small", "testdata/AITestBot.cc", small, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog := compiled(t, tc.src)
			if prog.Name != "TestBot" {
				t.Errorf("Name = %q, want TestBot", prog.Name)
			}
			names := [4]string{"TestBot", "Demo", "TestBot", "Null"}
			a, b := Def.NewCppBot(prog, 0, tc.seed), Def.NewCppBot(prog, 2, tc.seed)
			defer a.Close()
			defer b.Close()
			got, gotLog := playLog(t, tc.cfg, tc.seed, names, [4]Bot{a, NewDemo(1, tc.seed), b, Null{}})
			want, wantLog := playLog(t, tc.cfg, tc.seed, names, [4]Bot{newTwin(0, tc.seed), NewDemo(1, tc.seed), newTwin(2, tc.seed), Null{}})
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
			if a.Process().Player() != "TestBot" {
				t.Errorf("registered name %q, want TestBot", a.Process().Player())
			}
			a.Close() // waits for the process, and so for the last of its stderr
			stderr, _ := a.Process().Stderr()
			for _, w := range []string{
				"warning: cell requested for position (-1, 0)",
				"warning: cell requested for position (0, " + itoa(tc.cfg.Cols) + ")",
				"warning: unit requested for identifier -1",
				"warning: total_score requested for player 4",
				"warning: status requested for player 9",
				"warning: city requested for identifier -1",
				"warning: city_owner requested for identifier",
				"warning: path requested for identifier -2",
				"warning: path_owner requested for identifier",
				"warning: my_units requested for player 7",
				"warning: command already given for unit",
				"TestBot 0 writes to cout in round " + itoa(tc.cfg.NbRounds-1),
			} {
				if !strings.Contains(string(stderr), w) {
					t.Errorf("stderr lacks %q", w)
				}
			}
		})
	}
}

func itoa(x int) string { return string(appendInt(nil, x)) }

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
			// The match numbers the round it plays from 1; the bot's error
			// names the state's round, from 0.
			for _, s := range append(tc.text, "cpp bot "+tc.bot+" (seat 1) in round "+itoa(tc.round), "round "+itoa(tc.round+1)+": player 1 ("+tc.bot+")") {
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
