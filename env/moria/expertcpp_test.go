package moria

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/cppexport"
	"jgym/game/gametest"
	"jgym/internal/race"
	"jgym/policy"
)

// botFunc is a Bot of a function of the state and the orders.
type botFunc func(s *State, o *Orders)

func (f botFunc) Play(s *State, o *Orders) { f(s, o) }

// The Go policy bot of a model whose metadata tensors names expert feeds
// it Balin's orders: the test model, which weighs the tensor heavily,
// gives Balin's order to nearly every unit, round after round of a game
// against Balin and Demos.
func TestPolicyBotFeedsExpert(t *testing.T) {
	cfg := DefaultConfig()
	m, err := policy.Parse(tinyPolicyExpert(NumSlots(&cfg), 4), Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Tensors, []string{"board", "units", "globals", "action_mask", ExpertTensor}) {
		t.Fatalf("model tensors %v", m.Tensors)
	}
	const seed, seat = 4, 2
	cfg.NbRounds = 60
	bot := Def.NewPolicyBot(m, seat)
	balin := NewBalin(seat, seed)
	agree, units := 0, 0
	spy := botFunc(func(s *State, o *Orders) {
		want := Def.NewOrders()
		want.Reset(len(s.Units))
		balin.Play(s, want)
		dirs := make([]Dir, len(s.Units))
		for id := range dirs {
			dirs[id] = None
		}
		for _, c := range want.List() {
			dirs[c.ID] = c.Dir
		}
		got, err := bot.Decide(s, seat)
		if err != nil {
			t.Fatal(err)
		}
		for id := range NumSlots(s.Cfg) {
			if s.Units[id].Player == seat {
				units++
				if got[id] == dirs[id] {
					agree++
				}
			}
		}
		bot.Play(s, o)
	})
	mt, err := Def.NewMatch(cfg, seed, [NumPlayers]string{"Balin", "Demo", "Tiny", "Demo"},
		[NumPlayers]Bot{NewBalin(0, seed), NewDemo(1, seed), spy, NewDemo(3, seed)})
	if err != nil {
		t.Fatal(err)
	}
	for !mt.Done() {
		if err := mt.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("the policy gave Balin's order to %d of %d units", agree, units)
	if units == 0 || agree < units*9/10 {
		t.Errorf("the policy gave Balin's order to %d of %d units, want 90%%: is expert fed?", agree, units)
	}
}

// dumpExpert, added to the orders of the exported player, writes the
// expert tensor of every round to stderr: "jgym-expert seat round hex".
const dumpExpert = `
{
  const char* hx = "0123456789abcdef";
  ostringstream o;
  o << "jgym-expert " << me() << " " << round() << " ";
  for (int k = 0; k < U * 9; ++k) o << hx[in_expert_[k] >> 4] << hx[in_expert_[k] & 15];
  cerr << o.str() << endl;
}
`

// expertSpy plays a policy bot and records the Go encoder's expert
// tensor of its seat every round, in hex, by "seat round".
type expertSpy struct {
	*PolicyBot
	me   int // the seat, for Play
	ob   Observer
	seen map[string]string
}

func (e *expertSpy) Play(s *State, o *Orders) { e.PlaySeat(s, e.me, o) }

// PlaySeat is what a Match calls (PolicyBot is a SeatBot).
func (e *expertSpy) PlaySeat(s *State, me int, o *Orders) {
	x := make([]byte, NumSlots(s.Cfg)*NumDirs)
	obs := make([][]byte, 6)
	obs[5] = x
	e.ob.Encode(s, me, obs)
	e.seen[fmt.Sprintf("%d %d", me, s.Round)] = hex.EncodeToString(x)
	e.PolicyBot.PlaySeat(s, me, o)
}

// The exported player of a model that takes the expert tensor carries the
// C++ twin of Balin's decision (expertCC), and only such a player does:
// it plays the same games as the Go policy bot, trace for trace, in two
// seats among Balin and Demos or DummyClones, or among Demos or
// DummyClones alone, and its expert tensor is
// the Go encoder's every round. The test model weighs the tensor heavily
// (it plays Balin's order for most units), so a twin that decides
// otherwise for one unit changes a trace, and the dump compares every
// element.
func TestCppExportExpertPlaysAsPolicyBot(t *testing.T) {
	needCpp(t)
	cfg := DefaultConfig()
	model := tinyPolicyExpert(NumSlots(&cfg), 4)
	tg, _ := Def.Export()
	tg.Act += dumpExpert
	dir := t.TempDir()
	src, m := exportedModel(t, dir, "Expert", tg, model)
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("void encode_expert()")) || !bytes.Contains(raw, []byte("encode_expert();")) {
		t.Fatal("the exported player of an expert model has no encode_expert")
	}
	if out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
		"-I", kitDir, src).CombinedOutput(); err != nil {
		t.Fatalf("the exported player does not compile cleanly: %v\n%s", err, out)
	}
	plain, err := cppexport.Export(tinyPolicyTargets(NumSlots(&cfg), 4), exportTarget(), cppexport.Options{Name: "Plain", Source: "tiny.onnx"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("encode_expert")) || bytes.Contains(plain, []byte("in_expert_")) {
		t.Error("the exported player of a model without expert has its code")
	}
	// Each process keeps its own stderr (gametest.ExpertDumps).
	opts := cppOpts()
	opts.StderrLimit = 16 << 20
	prog := compiled(t, src, opts)
	// The other seats: Balin in the first free one (it captures most of
	// the player's units within 100 rounds), then Demos or DummyClones;
	// in the last two games no Balin, and the player, which plays
	// Balin's orders, keeps its units.
	games := []struct {
		seed  int
		seats []int
		other string
		balin bool
	}{{6, []int{1, 3}, "Demo", true}, {7, []int{0, 2}, "Demo", true}, {8, []int{0, 1}, "DummyClone", true},
		{9, []int{2, 3}, "DummyClone", true}, {10, []int{0, 2}, "Demo", false}, {11, []int{1, 3}, "DummyClone", false}}
	if race.Enabled {
		cfg.NbRounds = 20
		games = games[:1]
	}
	goExpert := map[string]string{} // "seat round": the Go encoder's expert tensor, in hex
	total := 0
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
		balinSeat := 0 // the first seat not in g.seats
		for slices.Contains(g.seats, balinSeat) {
			balinSeat++
		}
		if g.balin {
			names[balinSeat] = "Balin"
			cpp[balinSeat], gob[balinSeat] = NewBalin(balinSeat, g.seed), NewBalin(balinSeat, g.seed)
		} else {
			balinSeat = -1
		}
		var bots []*CppBot
		for _, p := range g.seats {
			names[p] = "Expert"
			b := Def.NewCppBot(prog, p, g.seed)
			bots = append(bots, b)
			cpp[p] = b
			gob[p] = &expertSpy{PolicyBot: Def.NewPolicyBot(m, p), me: p, seen: goExpert}
		}
		want, orders := playCounting(t, cfg, g.seed, names, gob, g.seats)
		got, _ := playCounting(t, cfg, g.seed, names, cpp, g.seats)
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
		others := g.other + "s"
		if balinSeat >= 0 {
			others = fmt.Sprintf("Balin in seat %d, %s", balinSeat, others)
		}
		t.Logf("seed %d, seats %v (%s): %d rounds, %d orders, traces and tensors equal",
			g.seed, g.seats, others, cfg.NbRounds, orders)
		total += orders
	}
	t.Logf("%d orders in all", total)
}

// testdata/tiny_expert.onnx is the expert test model of the default
// configuration, for the commands of the documentation (jgym export-cpp
// -g moria env/moria/testdata/tiny_expert.onnx --name TinyExpert --bench);
// go test ./env/moria -run TestTinyExpertPolicyFile -update rewrites it.
func TestTinyExpertPolicyFile(t *testing.T) {
	const path = "testdata/tiny_expert.onnx"
	cfg := DefaultConfig()
	want := tinyPolicyExpert(NumSlots(&cfg), 4)
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
		t.Fatalf("%s differs from tinyPolicyExpert: go test ./env/moria -run TestTinyExpertPolicyFile -update", path)
	}
	m, err := policy.Load(path, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Tensors, ExpertTensor) {
		t.Errorf("tensors %v", m.Tensors)
	}
}
