package pandemic

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"jgym/arena"
	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/env"
	"jgym/game"
	"jgym/policy"
)

// testLoader loads "cpp:PATH" by compiling PATH, and "policy:tiny" as the
// tiny test policy.
type testLoader struct{ t *testing.T }

func (l testLoader) Policy(ref string, sig policy.Signature) (*policy.Model, error) {
	if ref != "tiny" {
		return nil, errors.New("no policy " + ref)
	}
	return policy.Parse(tinyPolicy(70, 60), sig)
}

func (l testLoader) Cpp(ref string, k *cppbot.Kit) (*cppbot.Program, error) {
	return compiled(l.t, ref), nil
}

// newTable resolves the seats of a table.
func newTable(t *testing.T, g arena.Game, l arena.Loader, cfg arena.Config, seed int, seats ...string) *arena.Table {
	t.Helper()
	tb := &arena.Table{Config: cfg, Seed: seed}
	for _, s := range seats {
		p, err := g.NewPlayer(s, l)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		tb.Players = append(tb.Players, p)
	}
	return tb
}

// Arena plays the reference game with a C++ Demo, a Go Demo and Nulls,
// writes its trace and command log and the final scores, and both verify.
func TestArenaPlaysReferenceGame(t *testing.T) {
	needCpp(t)
	g := Def.Arena()
	if g.Name() != "Pandemic" || g.DefaultConfig().Rounds() != 200 || len(g.Bots()) == 0 {
		t.Fatalf("Def.Arena() = %s, %d rounds, bots %v", g.Name(), g.DefaultConfig().Rounds(), g.Bots())
	}
	tb := newTable(t, g, testLoader{t}, g.DefaultConfig(), 3, "cpp:"+filepath.Join(kitDir, "AIDemo.cc"), "Null", "Demo", "Null")
	var trace, cmds bytes.Buffer
	tb.Trace, tb.Commands = &trace, &cmds
	if err := g.Play(context.Background(), tb); err != nil {
		t.Fatal(err)
	}
	if want := coursetest.ReadGz(t, filepath.Join(tracesRoot(), "pandemic_s3_Demo-Null-Demo-Null.res.gz")); !bytes.Equal(want, trace.Bytes()) {
		t.Fatal(coursetest.FirstDiff(want, trace.Bytes()))
	}
	tr, err := ParseTrace(bytes.NewReader(trace.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	final := tr.States[len(tr.States)-1].Scores
	if !slices.Equal(tb.Scores, final[:]) {
		t.Errorf("Scores = %v, want %v", tb.Scores, final)
	}
	if n := strings.Count(cmds.String(), "\n"); n != 200*NumPlayers {
		t.Errorf("the command log has %d lines, want %d", n, 200*NumPlayers)
	}
	if err := g.Verify(trace.Bytes(), cmds.Bytes(), nil); err != nil {
		t.Errorf("Verify with commands: %v", err)
	}
	if err := g.Verify(trace.Bytes(), nil, DefaultConfig()); err != nil {
		t.Errorf("Verify against the rules: %v", err)
	}
	var ce *arena.CommandsError
	if err := g.Verify(trace.Bytes(), []byte("0 9 0\n"), nil); !errors.As(err, &ce) {
		t.Errorf("Verify with a bad log = %v, want a *arena.CommandsError", err)
	}
}

// Seat names: registered bots, the policy: and cpp: prefixes through the
// loader, refusals without one.
func TestResolveBot(t *testing.T) {
	if _, _, err := Def.ResolveBot("Pasteur", nil); err != nil {
		t.Errorf("Def.ResolveBot(Pasteur) = %v", err)
	}
	if _, _, err := Def.ResolveBot("Nobody", nil); !errors.Is(err, game.ErrUnknownBot) {
		t.Errorf("Def.ResolveBot(Nobody) = %v, want game.ErrUnknownBot", err)
	}
	if _, _, err := Def.ResolveBot("zip:x", testLoader{t}); !errors.Is(err, game.ErrUnknownBot) {
		t.Errorf("Def.ResolveBot(zip:x) = %v, want game.ErrUnknownBot", err)
	}
	for _, name := range []string{"policy:tiny", "cpp:AIMine.cc"} {
		if _, _, err := Def.ResolveBot(name, nil); !errors.Is(err, arena.ErrNoLoader) {
			t.Errorf("Def.ResolveBot(%s, nil) = %v, want ErrNoLoader", name, err)
		}
	}
	f, closer, err := Def.ResolveBot("policy:tiny", testLoader{t})
	if err != nil || closer != nil {
		t.Fatalf("Def.ResolveBot(policy:tiny) = %v, %v", closer, err)
	}
	if _, ok := f(2, 1).(*PolicyBot); !ok {
		t.Errorf("policy:tiny seats a %T", f(2, 1))
	}
	if _, _, err := Def.ResolveBot("policy:other", testLoader{t}); err == nil {
		t.Error("Def.ResolveBot(policy:other) loaded a policy the loader does not have")
	}
	// The env seats the same names through WithLoader.
	e := Def.Host(Def.WithLoader(testLoader{t}))
	if _, prefixes := e.Bots(); strings.Join(prefixes, ",") != "cpp,policy" {
		t.Errorf("Bots() prefixes = %v", prefixes)
	}
	if f, err := e.NewFactory(env.Setup{Seats: []string{"", "policy:tiny", "Demo", "Null"}}); err != nil {
		t.Errorf("NewFactory with policy:tiny: %v", err)
	} else {
		f.Close()
	}
}

// A game the course engine aborts (no cell for a mask) returns the
// engine's error with the trace and the log written up to there, and they
// verify; a C++ bot that crashes ends the game with its error.
func TestArenaAbortedGames(t *testing.T) {
	g := Def.Arena()
	cfg := noMaskConfig(t)
	tb := newTable(t, g, nil, cfg, 1, "Null", "Demo", "Null", "Demo")
	var trace, cmds bytes.Buffer
	tb.Trace, tb.Commands = &trace, &cmds
	err := g.Play(context.Background(), tb)
	if !errors.Is(err, ErrNoMaskCell) {
		t.Fatalf("Play() = %v, want ErrNoMaskCell", err)
	}
	if !bytes.HasSuffix(trace.Bytes(), []byte("\n-1\n")) || strings.Count(cmds.String(), "\n") != 5*NumPlayers {
		t.Errorf("partial trace ends %q, log has %d lines", trace.Bytes()[trace.Len()-20:], strings.Count(cmds.String(), "\n"))
	}
	if len(tb.Scores) != NumPlayers {
		t.Errorf("Scores = %v", tb.Scores)
	}
	if err := g.Verify(trace.Bytes(), cmds.Bytes(), cfg); err != nil {
		t.Errorf("Verify of the aborted game with its log: %v", err)
	}

	needCpp(t)
	tb = newTable(t, g, testLoader{t}, DefaultConfig(), 3, "Null", "cpp:testdata/AICrash.cc", "Null", "Null")
	trace.Reset()
	tb.Trace = &trace
	err = g.Play(context.Background(), tb)
	if !errors.Is(err, cppbot.ErrCrashed) || !strings.Contains(err.Error(), "player 1 (Crash)") {
		t.Fatalf("Play() = %v, want the crash of player 1", err)
	}
	if n := bytes.Count(trace.Bytes(), []byte("\nround ")); n != 6 {
		t.Errorf("the trace has %d states, want 6 (the crash comes in the turn after state 5)", n)
	}
}

// noMaskConfig is a 20 x 20 map with grass only on the spawn ring: the
// mask of round 5 finds no cell.
func noMaskConfig(t *testing.T) Config {
	return fixedConfig(t, 2, 100, func(i, j int) byte {
		switch {
		case border(i, j):
			return 'W'
		case i == 1 || j == 1 || i == 18 || j == 18:
			return '.'
		}
		return ','
	})
}
