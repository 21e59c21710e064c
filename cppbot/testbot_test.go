package cppbot_test

import (
	"bytes"
	"jgym/cppbot"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"jgym/env/crematoria"
)

// twin is testdata/AITestBot.cc's commands written in Go.
type twin struct {
	me  int
	rng crematoria.Rand
}

func newTwin(me, seed int) crematoria.Bot {
	t := &twin{me: me}
	t.rng.Seed(seed + me + 1)
	return t
}

func (t *twin) Play(s *crematoria.State, o *crematoria.Orders) {
	for _, id := range s.Furyans[t.me] {
		o.Command(id, crematoria.Dir(t.rng.Int(0, 10)))
		o.Command(id, crematoria.Dir(t.rng.Int(0, 9)))
	}
	for _, id := range s.Pioneers[t.me] {
		o.Command(id, 12)
		o.Command(id, 15)
		o.Command(id, crematoria.Dir(t.rng.Int(0, 8)))
	}
	o.Command(-1, crematoria.Top)
	o.Command(s.Hellhounds[0], crematoria.Top)
	if e := s.Furyans[(t.me+1)%4]; len(e) > 0 {
		o.Command(e[0], crematoria.Bottom)
	}
	o.Command(len(s.Units)+5, crematoria.Top)
	t.rng.Perm(5)
}

// An object compiled on its own with plain g++ -c against the headers (as
// the course's AIDummy.o was against the course kit's) links through
// Compile and plays: it checks the consistency of every state it sees, and
// its commands, warnings included, give the same trace as its Go twin.
func TestPrebuiltObjectLinksAndPlays(t *testing.T) {
	obj := filepath.Join(t.TempDir(), "AITestBot.o")
	out, err := exec.Command("g++", "-c", "-std=c++11", "-O2", "-I", kitDir, "-o", obj, "testdata/AITestBot.cc").CombinedOutput()
	if err != nil {
		t.Fatalf("g++ -c AITestBot.cc: %v\n%s", err, out)
	}
	opts := testOpts()
	opts.StderrLimit = 16 << 20 // keep the warnings of round 0
	prog, err := cppbot.Open(obj, testKit(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	if prog.Name != "TestBot" {
		t.Errorf("Name = %q, want TestBot", prog.Name)
	}
	progs := map[string]*cppbot.Program{
		"cpp:TestBot": prog,
		"cpp:Demo":    compiled(t, filepath.Join(kitDir, "AIDemo.cc"), testOpts()),
	}
	names := [4]string{"TestBot", "Demo", "TestBot", "Null"}
	for _, seed := range []int{4, 9} {
		bots := seats(t, seed, progs, [4]string{"cpp:TestBot", "cpp:Demo", "cpp:TestBot", "Null"})
		got, err := playMatch(seed, names, bots)
		if err != nil {
			t.Fatal(err)
		}
		twins := [4]crematoria.Bot{newTwin(0, seed), crematoria.NewDemo(1, seed), newTwin(2, seed), crematoria.Null{}}
		want, err := playMatch(seed, names, twins)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, got) {
			t.Fatalf("seed %d: C++ test bot vs Go twin: %s", seed, firstDiff(want, got))
		}
		b := bots[0].(*crematoria.CppBot)
		if b.Process().Player() != "TestBot" {
			t.Errorf("registered name %q, want TestBot", b.Process().Player())
		}
		stderr, _ := b.Process().Stderr()
		for _, w := range []string{
			"warning: cell requested for position (-1, 0, 0)",
			"warning: unit requested for identifier -1",
			"warning: num_cells requested for player 4",
			"warning: gems requested for player -1",
			"warning: status requested for player 9",
			"warning: furyans requested for player 7",
			"warning: pioneers requested for player -2",
			"warning: action already requested for unit",
			"warning: wrong direction 12",
			"TestBot 0 writes to cout in round 119",
		} {
			if !strings.Contains(string(stderr), w) {
				t.Errorf("seed %d: stderr lacks %q", seed, w)
			}
		}
	}
}
