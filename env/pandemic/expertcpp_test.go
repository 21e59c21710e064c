package pandemic

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/game/gametest"
	"jgym/internal/race"
	"jgym/policy"
)

// The Go policy bot of a model whose metadata tensors names expert feeds
// it Pasteur's orders: the test model, which weighs the tensor heavily,
// gives Pasteur's order to nearly every unit, round after round of a game
// against Pasteur and Demos.
func TestPolicyBotFeedsExpert(t *testing.T) {
	m, err := policy.Parse(exportPolicyExpert(60, 3), Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Tensors, ExpertTensor) || len(m.Signature.Inputs) != 5 {
		t.Fatalf("model tensors %v, want board, units, globals, action_mask, expert", m.Tensors)
	}
	const seed, seat = 4, 2
	cfg := DefaultConfig()
	cfg.NbRounds = 60
	bot := Def.NewPolicyBot(m, seat)
	pasteur := NewPasteur(seat, seed)
	agree, units := 0, 0
	spy := botFunc(func(s *State, o *Orders) {
		want := Def.NewOrders()
		want.Reset(len(s.Units))
		pasteur.Play(s, want)
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
		for _, id := range s.PlayerUnits[seat] {
			units++
			if got[id] == dirs[id] {
				agree++
			}
		}
		bot.Play(s, o)
	})
	bots := [NumPlayers]Bot{NewPasteur(0, seed), NewDemo(1, seed), spy, NewDemo(3, seed)}
	if _, err := playTrace(cfg, seed, [4]string{"Pasteur", "Demo", "Tiny", "Demo"}, bots); err != nil {
		t.Fatal(err)
	}
	t.Logf("the policy gave Pasteur's order to %d of %d units", agree, units)
	if units == 0 || agree < units*9/10 {
		t.Errorf("the policy gave Pasteur's order to %d of %d units, want 90%%: is expert fed?", agree, units)
	}
}

// dumpExpert, added to the orders of the exported player, writes the
// expert tensor of every round to stderr: "jgym-expert me round hex".
const dumpExpert = `
{
  const char* hx = "0123456789abcdef";
  string s = "jgym-expert " + int_to_string(me()) + " " + int_to_string(round()) + " ";
  for (int k = 0; k < U * 5; ++k) {
    s += hx[in_expert_[k] >> 4];
    s += hx[in_expert_[k] & 15];
  }
  cerr << s << endl;
}
`

// expertSpy plays Bot and records the Go encoder's expert tensor of its
// seat every round, in hex, by "seat round".
type expertSpy struct {
	Bot
	me   int
	ob   Observer
	seen map[string]string
}

func (e *expertSpy) Play(s *State, o *Orders) {
	x := make([]byte, len(s.Units)*NumDirs)
	obs := make([][]byte, 6)
	obs[5] = x
	e.ob.Encode(s, e.me, obs)
	e.seen[fmt.Sprintf("%d %d", e.me, s.Round)] = hex.EncodeToString(x)
	e.Bot.Play(s, o)
}

// botFunc is a Bot of a function.
type botFunc func(s *State, o *Orders)

func (f botFunc) Play(s *State, o *Orders) { f(s, o) }

// The exported player of a model that takes the expert tensor carries the
// C++ twin of Pasteur's decision (expertCC), and only such a player does:
// it plays the same game as the Go policy bot, trace for trace, in two
// seats among Pasteur and Demos, and its expert tensor is the Go
// encoder's every round. The test
// model weighs the tensor heavily (it plays Pasteur's order for most
// units), so a twin that decides otherwise for one unit changes a trace.
func TestCppExportExpertPlaysAsPolicyBot(t *testing.T) {
	needCpp(t)
	dir := t.TempDir()
	tg := exportTarget()
	tg.Act += dumpExpert
	src, m := exportedModel(t, dir, "Expert", tg, exportPolicyExpert(60, 3))
	code, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(code, []byte("void encode_expert()")) || !bytes.Contains(code, []byte("encode_expert();")) {
		t.Fatal("the exported player of an expert model has no encode_expert")
	}
	plain, _ := exported(t, dir, "Plain", exportTarget(), 60, 1)
	if code, _ := os.ReadFile(plain); bytes.Contains(code, []byte("encode_expert")) || bytes.Contains(code, []byte("in_expert_")) {
		t.Error("the exported player of a model without expert has its code")
	}
	// Each process keeps its own stderr (gametest.ExpertDumps).
	opts := cppOpts()
	opts.StderrLimit = 16 << 20
	prog := compiledWith(t, src, opts)
	games := []struct {
		seed  int
		seats []int
	}{{6, []int{1, 3}}}
	cfg := DefaultConfig()
	if race.Enabled {
		cfg.NbRounds = 20
	}
	goExpert := map[string]string{} // "seat round": the Go encoder's expert tensor, in hex
	for _, g := range games {
		var names [NumPlayers]string
		var cpp, gob [NumPlayers]Bot
		for p := range names {
			names[p] = "Demo"
			cpp[p], gob[p] = NewDemo(p, g.seed), NewDemo(p, g.seed)
		}
		names[2] = "Pasteur"
		cpp[2], gob[2] = NewPasteur(2, g.seed), NewPasteur(2, g.seed)
		for _, p := range g.seats {
			names[p] = "Expert"
			b := Def.NewCppBot(prog, p, g.seed)
			defer b.Close()
			cpp[p], gob[p] = b, &expertSpy{Bot: Def.NewPolicyBot(m, p), me: p, seen: goExpert}
		}
		want, orders := playCounting(t, cfg, g.seed, names, gob, g.seats)
		got, _ := playCounting(t, cfg, g.seed, names, cpp, g.seats)
		var procs []*cppbot.Process
		for _, p := range g.seats {
			procs = append(procs, cpp[p].(*CppBot).Process())
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
		t.Logf("seed %d, seats %v: %d rounds, %d orders, traces equal", g.seed, g.seats, cfg.NbRounds, orders)
	}
	if strings.Contains(string(code), "JGYM_SKIP_EXPERT") {
		t.Error("the player skips the tensor it takes")
	}
}

// testdata/tiny_expert.onnx is the expert test model (60 slots), for the
// commands of the documentation (jgym export-cpp -g pandemic
// env/pandemic/testdata/tiny_expert.onnx --name TinyExpert --bench);
// go test ./env/pandemic -run TestTinyExpertPolicyFile -update rewrites it.
func TestTinyExpertPolicyFile(t *testing.T) {
	m := policyFile(t, "testdata/tiny_expert.onnx", exportPolicyExpert(60, 3), "exportPolicyExpert(60, 3)")
	if want := []string{"board", "units", "globals", "action_mask", ExpertTensor}; !slices.Equal(m.Tensors, want) {
		t.Errorf("tensors %v, want %v", m.Tensors, want)
	}
}
