package gametest

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/env"
	"jgym/game"
	"jgym/internal/strict"
	"jgym/policy"
	"jgym/sandbox"
)

// testPolicyBot seats the model as a bot and checks it plays the game a
// learner plays with the model's greedy actions on the env's
// observations: the policy bot encodes, decides and orders as the env.
// It does so for the model as it is, and for the same weights with each
// other order of the opponents and of the commands the game offers
// (Def.OpponentOrders, Def.ActionOrders) in its metadata, which the env
// applies as session options.
func testPolicyBot[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	raw, err := os.ReadFile(o.Model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := policy.Parse(raw, d.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	// A whole game, or its first rounds under -short and the race detector
	// (a network's forward pass is slow there).
	rounds := d.DefaultConfig().Rounds()
	if o.short {
		rounds = min(rounds, 12)
	}
	t.Run("model", func(t *testing.T) { policyGame(t, d, m, rounds) })
	t.Run("Copy", func(t *testing.T) { policyCopy(t, d, m) })
	variants := []struct {
		key, own string
		offered  []string
	}{
		{policy.KeyOpponentOrder, m.OpponentOrder, append([]string{policy.OpponentsBySeat}, slices.Sorted(maps.Keys(d.OpponentOrders))...)},
		{policy.KeyActionOrder, m.ActionOrder, append([]string{policy.OrderSlot}, slices.Sorted(maps.Keys(d.ActionOrders))...)},
	}
	for _, v := range variants {
		for _, order := range v.offered {
			if order == v.own {
				continue
			}
			mv, err := policy.Parse(coursetest.WithMetadata(raw, v.key, order), d.PolicySignature())
			if err != nil {
				t.Fatalf("%s %s: %v", v.key, order, err)
			}
			t.Run(v.key+"="+order, func(t *testing.T) { policyGame(t, d, mv, rounds) })
		}
	}
}

// PolicyGame is the check of the PolicyBot test for a model the test
// builds (a policy of a subset of the tensors, say): the policy bot of m
// at seat 0 and three Demos play the game, for rounds rounds, that a
// learner of an env set up as m's metadata says (orders, tensors) plays
// with m's greedy actions.
func PolicyGame[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], m *policy.Model, rounds int) {
	t.Helper()
	policyGame(t, d, m, rounds)
}

// policyGame plays rounds of a game with the policy bot of m at seat 0
// and Demos, then the same with a learner at seat 0 of the env, whose
// options are m's orders and tensors, playing m's greedy actions: the
// traces must be equal.
func policyGame[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], m *policy.Model, rounds int) {
	const seed = 3
	names := [game.NumSeats]string{"Learner", "Demo", "Demo", "Demo"}
	bots := [game.NumSeats]game.Bot[S, D]{d.NewPolicyBot(m, 0)}
	for p := 1; p < game.NumSeats; p++ {
		f, _ := d.Bots.Lookup("Demo")
		bots[p] = f(p, seed)
	}
	match, err := d.NewMatch(d.DefaultConfig(), seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	match.WriteTrace(&want)
	for match.Round() < rounds {
		if err := match.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}

	// The env orders the opponents and the commands as the model's
	// metadata says: the learner sends the greedy directions only.
	in, f := newInstance(t, d, env.Setup{Seats: []string{"", "Demo", "Demo", "Demo"},
		OpponentOrder: m.OpponentOrder, ActionOrder: m.ActionOrder, Tensors: m.Tensors})
	var got bytes.Buffer
	in.(env.Tracer).SetTrace(func(int, int64) (io.WriteCloser, error) { return coursetest.NopCloser{Writer: &got}, nil })
	if err := in.Reset(seed); err != nil {
		t.Fatal(err)
	}
	spec := f.Spec()
	out := env.NewOut(spec, 1)
	var feed [][]byte
	for _, input := range m.Signature.Inputs {
		for i, ts := range spec.Observation {
			if ts.Name == input.Name {
				feed = append(feed, out.Obs[i])
			}
		}
	}
	action := make([]byte, spec.Action.Bytes())
	reward := make([]float32, 1)
	for r := 0; r < rounds; r++ {
		in.Observe(out)
		logits, err := m.Logits(nil, feed)
		if err != nil {
			t.Fatal(err)
		}
		for id, a := range policy.Argmax(logits, len(action), spec.NumActions) {
			action[id] = byte(a)
		}
		if _, err = in.Step(action, nil, reward); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(want.Bytes(), got.Bytes()) {
		t.Fatalf("the policy bot's game differs from the learner's: %s", coursetest.FirstDiff(want.Bytes(), got.Bytes()))
	}
}

// testCppBot compiles the kit's C++ Demo (AIDemo.cc) and checks that, at
// seats 0 and 2 beside two Go Demos, it plays the game of four Go Demos
// byte for byte.
func testCppBot[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	if _, err := exec.LookPath("g++"); err != nil {
		strict.Skip(t, "g++ not found: "+err.Error())
	}
	if _, err := sandbox.Default(); errors.Is(err, sandbox.ErrUnavailable) {
		strict.Skip(t, err.Error())
	}
	k, err := d.CppKit()
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := d.Kit()
	if err != nil {
		t.Fatal(err)
	}
	src, err := fs.ReadFile(fsys, "AIDemo.cc")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "AIDemo.cc")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := cppbot.Open(path, k, cppbot.Options{CacheDir: dir, RoundTimeout: 20 * time.Second, StderrLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	seeds := []int{1, 2}
	if o.short {
		seeds = seeds[:1]
	}
	demo, _ := d.Bots.Lookup("Demo")
	names := [game.NumSeats]string{"Demo", "Demo", "Demo", "Demo"}
	for _, seed := range seeds {
		want := playTrace(t, d, seed, names, [game.NumSeats]game.Bot[S, D]{demo(0, seed), demo(1, seed), demo(2, seed), demo(3, seed)})
		cpp := [game.NumSeats]game.Bot[S, D]{d.NewCppBot(prog, 0, seed), demo(1, seed), d.NewCppBot(prog, 2, seed), demo(3, seed)}
		got := playTrace(t, d, seed, names, cpp)
		for _, b := range cpp {
			if c, ok := b.(io.Closer); ok {
				c.Close()
			}
		}
		if !bytes.Equal(want, got) {
			t.Fatalf("seed %d: the C++ Demo's game differs from the Go Demo's: %s", seed, coursetest.FirstDiff(want, got))
		}
	}
}

// playTrace plays a game of the bots and returns its trace.
func playTrace[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], seed int, names [game.NumSeats]string, bots [game.NumSeats]game.Bot[S, D]) []byte {
	t.Helper()
	m, err := d.NewMatch(d.DefaultConfig(), seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	if err := m.Run(t.Context()); err != nil && !errors.Is(err, game.ErrAbort) {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// policyCopy copies (Match.Copy) a game of the policy bot and Demos after
// a few rounds and plays the copy and the original on at once: the same
// trace.
func policyCopy[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], m *policy.Model) {
	const seed = 5
	names := [game.NumSeats]string{"Policy", "Demo", "Demo", "Demo"}
	bots := [game.NumSeats]game.Bot[S, D]{d.NewPolicyBot(m, 0)}
	for p := 1; p < game.NumSeats; p++ {
		f, _ := d.Bots.Lookup("Demo")
		bots[p] = f(p, seed)
	}
	a, err := d.NewMatch(d.DefaultConfig(), seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	a.Record()
	var want, got bytes.Buffer
	if err := a.WriteTrace(&want); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := a.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}
	c, err := a.Copy(nil)
	if err != nil {
		t.Fatalf("copy of a policy bot's game: %v", err)
	}
	if err := c.WriteTraceFrom(&got, names); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		var err error
		for range 3 {
			if err = c.PlayRound(); err != nil {
				break
			}
		}
		done <- err
	}()
	for range 3 {
		if err := a.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatal("the copy of a policy bot's game played on gives another trace than the original's")
	}
}
