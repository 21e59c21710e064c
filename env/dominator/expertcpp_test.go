package dominator

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/cppexport"
	"jgym/game/gametest"
	"jgym/internal/race"
	"jgym/policy"
)

// seatFunc is a SeatBot of a function: a Match gives it the real state.
type seatFunc func(s *State, me int, o *Orders)

func (f seatFunc) PlaySeat(s *State, me int, o *Orders) { f(s, me, o) }

func (f seatFunc) Play(*State, *Orders) { panic("a Match plays a SeatBot with PlaySeat") }

// The Go policy bot of a model whose metadata tensors names expert feeds
// it Khan's orders: the test model, which weighs the tensor heavily,
// gives Khan's order to nearly every unit, round after round of a game
// against Khan and Demos.
func TestPolicyBotFeedsExpert(t *testing.T) {
	cfg := DefaultConfig()
	m, err := policy.Parse(tinyPolicyExpert(NumSlots(&cfg), cfg.Rows), Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Tensors, []string{"board", "units", "globals", "action_mask", "move_mask", ExpertTensor}) {
		t.Fatalf("model tensors %v", m.Tensors)
	}
	const seed, seat = 4, 2
	cfg.NbRounds = 60
	bot := Def.NewPolicyBot(m, seat)
	khan := newKhan(t)(seat, seed)
	var scratch State
	agree, units := 0, 0
	spy := seatFunc(func(real *State, me int, o *Orders) {
		v := view(real, me, &scratch)
		want := Def.NewOrders()
		want.Reset(len(v.Units))
		khan.Play(v, want)
		dirs := make([]Dir, len(v.Units))
		for id := range dirs {
			dirs[id] = None
		}
		for _, c := range want.List() {
			dirs[c.ID] = c.Dir
		}
		got, err := bot.Decide(real, seat)
		if err != nil {
			t.Fatal(err)
		}
		for id := range v.Units {
			if mine(real, seat, id) {
				units++
				if got[id] == dirs[id] {
					agree++
				}
			}
		}
		bot.PlaySeat(real, me, o)
	})
	mt, err := Def.NewMatch(cfg, seed, [NumPlayers]string{"Khan", "Demo", "Tiny", "Demo"},
		[NumPlayers]Bot{newKhan(t)(0, seed), NewDemo(1, seed), spy, NewDemo(3, seed)})
	if err != nil {
		t.Fatal(err)
	}
	for !mt.Done() {
		if err := mt.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("the policy gave Khan's order to %d of %d units", agree, units)
	if units == 0 || agree < units*9/10 {
		t.Errorf("the policy gave Khan's order to %d of %d units, want 90%%: is expert fed?", agree, units)
	}
}

// dumpExpert, added to the orders of the exported player, writes the
// expert tensor of every round to stderr: "jgym-expert seat round hex"
// (the seat is the block of ids of its first witch, SPEC §5.1).
const dumpExpert = `
{
  const char* hx = "0123456789abcdef";
  const int seat = witches(0)[0] / (nb_witches() + nb_knights() + nb_farmers());
  string s = "jgym-expert " + int_to_string(seat) + " " + int_to_string(round()) + " ";
  for (int k = 0; k < U * 9; ++k) {
    s += hx[in_expert_[k] >> 4];
    s += hx[in_expert_[k] & 15];
  }
  cerr << s << endl;
}
`

// expertSpy plays a policy bot and records the Go encoder's expert
// tensor of its seat every round, in hex, by "seat round".
type expertSpy struct {
	*PolicyBot
	ob   Observer
	seen map[string]string
}

func (e *expertSpy) PlaySeat(s *State, me int, o *Orders) {
	x := make([]byte, len(s.Units)*NumDirs)
	obs := make([][]byte, 7)
	obs[6] = x
	e.ob.Encode(s, me, obs)
	e.seen[fmt.Sprintf("%d %d", me, s.Round)] = hex.EncodeToString(x)
	e.PolicyBot.PlaySeat(s, me, o)
}

// playMatch plays a match and returns its trace and the number of orders
// the given seats gave.
func playMatch(t *testing.T, cfg Config, seed int, names [NumPlayers]string, bots [NumPlayers]Bot, seats []int) ([]byte, int) {
	t.Helper()
	m, err := Def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	n := 0
	for !m.Done() {
		if err := m.PlayRound(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, p := range seats {
			n += len(m.Orders(p))
		}
	}
	return buf.Bytes(), n
}

// The exported player of a model that takes the expert tensor carries the
// C++ twin of Khan's decision (expertCC), and only such a player does:
// it plays the same games as the Go policy bot, trace for trace, in two
// or three seats among Khan and Demos or DummyClones, and its expert
// tensor is the Go encoder's every round. The test model weighs the tensor heavily (it plays Khan's
// order for most units), so a twin that decides otherwise for one unit
// changes a trace, and the dump compares every element.
func TestCppExportExpertPlaysAsPolicyBot(t *testing.T) {
	needCpp(t)
	cfg := DefaultConfig()
	model := tinyPolicyExpert(NumSlots(&cfg), cfg.Rows)
	tg, _ := Def.Export()
	tg.Act += dumpExpert
	raw, err := cppexport.Export(model, tg, cppexport.Options{Name: "Expert", Source: "tiny_expert.onnx"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "AIExpert.cc")
	if err := os.WriteFile(src, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("void encode_expert()")) || !bytes.Contains(raw, []byte("encode_expert();")) {
		t.Fatal("the exported player of an expert model has no encode_expert")
	}
	if out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
		"-I", kitDir, src).CombinedOutput(); err != nil {
		t.Fatalf("the exported player does not compile cleanly: %v\n%s", err, out)
	}
	plain, err := exportTiny(t, tinyPolicyTargets(NumSlots(&cfg), cfg.Rows))
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := os.ReadFile(plain); bytes.Contains(code, []byte("encode_expert")) || bytes.Contains(code, []byte("in_expert_")) {
		t.Error("the exported player of a model without expert has its code")
	}
	m, err := policy.Parse(model, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	// Each process keeps its own stderr (a shared writer would receive
	// the two processes' pipes in chunks that can split lines).
	opts := cppOpts()
	opts.StderrLimit = 16 << 20
	compiled(t, src) // compiles once
	v, _ := compileCache.Load(src)
	prog := cppbot.NewProgram(v.(*compileResult).exe, src, testKit(t), opts)
	defer prog.Close()
	// The other seats: Khan in the first free one, then Demos or
	// DummyClones (whose moves Khan's forecast models exactly).
	games := []struct {
		seed  int
		seats []int
		other string
	}{{6, []int{1, 3}, "Demo"}, {7, []int{0, 2}, "Demo"}, {8, []int{0, 1}, "DummyClone"}, {9, []int{2, 3}, "DummyClone"}}
	if race.Enabled {
		cfg.NbRounds = 20
		games = games[:1]
	}
	goExpert := map[string]string{} // "seat round": the Go encoder's expert tensor, in hex
	for _, g := range games {
		var names [NumPlayers]string
		var cpp, gob [NumPlayers]Bot
		for p := range names {
			names[p] = g.other
			if g.other == "Demo" {
				cpp[p], gob[p] = NewDemo(p, g.seed), NewDemo(p, g.seed)
			} else {
				cpp[p], gob[p] = NewDummyClone(p, g.seed), NewDummyClone(p, g.seed)
			}
		}
		khanSeat := 0 // the first seat not in g.seats
		for slices.Contains(g.seats, khanSeat) {
			khanSeat = (khanSeat + 1) % NumPlayers
		}
		names[khanSeat] = "Khan"
		cpp[khanSeat], gob[khanSeat] = newKhan(t)(khanSeat, g.seed), newKhan(t)(khanSeat, g.seed)
		var bots []*CppBot
		for _, p := range g.seats {
			names[p] = "Expert"
			b := Def.NewCppBot(prog, p, g.seed)
			bots = append(bots, b)
			cpp[p] = b
			gob[p] = &expertSpy{PolicyBot: Def.NewPolicyBot(m, p), seen: goExpert}
		}
		want, orders := playMatch(t, cfg, g.seed, names, gob, g.seats)
		got, _ := playMatch(t, cfg, g.seed, names, cpp, g.seats)
		var procs []*cppbot.Process
		for _, b := range bots {
			procs = append(procs, b.Process())
		}
		lines := gametest.ExpertDumps(t, g.seed, procs, goExpert)
		if lines != len(g.seats)*cfg.NbRounds {
			t.Fatalf("seed %d: %d expert tensors dumped, want %d", g.seed, lines, len(g.seats)*cfg.NbRounds)
		}
		clear(goExpert)
		if !bytes.Equal(want, got) {
			t.Errorf("seed %d, seats %v: the exported player's trace differs from the policy bot's: %s", g.seed, g.seats, coursetest.FirstDiff(want, got))
			continue
		}
		if orders < cfg.NbRounds {
			t.Errorf("seed %d: %d orders in %d rounds: the comparison proves little", g.seed, orders, cfg.NbRounds)
		}
		t.Logf("seed %d, seats %v (Khan in seat %d, %ss): %d rounds, %d orders, traces and tensors equal",
			g.seed, g.seats, khanSeat, g.other, cfg.NbRounds, orders)
	}
}

// testdata/tiny_expert.onnx is the expert test model of the default
// configuration, for the commands of the documentation (jgym export-cpp
// -g dominator env/dominator/testdata/tiny_expert.onnx --name TinyExpert
// --bench); go test ./env/dominator -run TestTinyExpertPolicyFile -update
// rewrites it.
func TestTinyExpertPolicyFile(t *testing.T) {
	const path = "testdata/tiny_expert.onnx"
	cfg := DefaultConfig()
	want := tinyPolicyExpert(NumSlots(&cfg), cfg.Rows)
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from tinyPolicyExpert: go test ./env/dominator -run TestTinyExpertPolicyFile -update", path)
	}
	m, err := policy.Load(path, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Tensors, ExpertTensor) {
		t.Errorf("tensors %v", m.Tensors)
	}
}
