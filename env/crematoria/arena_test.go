package crematoria

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"jgym/arena"
	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/env"
	"jgym/game"
	"jgym/policy"
)

// TestArenaPlayAndVerify plays a game through Arena: the trace is the
// course engine's, the command log replays it, and a broken command log
// is a *arena.CommandsError.
func TestArenaPlayAndVerify(t *testing.T) {
	g := Def.Arena()
	if g.Name() != "Crematoria" || g.DefaultConfig().Rounds() != 120 {
		t.Fatalf("Arena: name %q, %d rounds", g.Name(), g.DefaultConfig().Rounds())
	}
	var players []arena.Player
	for _, n := range []string{"Demo", "Null", "Demo", "Null"} {
		p, err := g.NewPlayer(n, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		players = append(players, p)
	}
	var trace, cmds bytes.Buffer
	tb := &arena.Table{Config: g.DefaultConfig(), Seed: 4, Players: players, Trace: &trace, Commands: &cmds}
	if err := g.Play(context.Background(), tb); err != nil {
		t.Fatal(err)
	}
	want := coursetest.ReadGz(t, filepath.Join(referenceTraces, "crematoria_s4_Demo-Null-Demo-Null.res.gz"))
	if !bytes.Equal(trace.Bytes(), want) {
		t.Errorf("trace differs from the course engine's: %s", coursetest.FirstDiff(want, trace.Bytes()))
	}
	if fmt.Sprint(tb.Scores) != "[235 29 357 33]" {
		t.Errorf("scores %v, want [235 29 357 33]", tb.Scores)
	}
	if err := g.Verify(trace.Bytes(), cmds.Bytes(), nil); err != nil {
		t.Errorf("Verify with the command log: %v", err)
	}
	if err := g.Verify(trace.Bytes(), nil, g.DefaultConfig()); err != nil {
		t.Errorf("Verify against the rules: %v", err)
	}
	var ce *arena.CommandsError
	if err := g.Verify(trace.Bytes(), []byte("0 0 x\n"), nil); !errors.As(err, &ce) || !errors.Is(err, game.ErrCommandFile) {
		t.Errorf("Verify with a broken command log: %v, want a *arena.CommandsError", err)
	}
	if err := g.Verify([]byte("hello\n"), nil, nil); !errors.Is(err, ErrTrace) {
		t.Errorf("Verify of garbage: %v, want ErrTrace", err)
	}
	cfg, err := g.ParseConfig(strings.NewReader(DefaultConfigText))
	if err != nil || cfg.Rounds() != 120 {
		t.Errorf("ParseConfig(default) = %v, %v", cfg, err)
	}
	if _, err := g.ParseConfig(strings.NewReader("Dominator 4.0\n")); !errors.Is(err, ErrConfig) {
		t.Errorf("ParseConfig(Dominator) = %v, want ErrConfig", err)
	}
}

type otherPlayer struct{}

func (otherPlayer) Name() string { return "Other" }
func (otherPlayer) Close() error { return nil }

func TestArenaPlayErrors(t *testing.T) {
	g := Def.Arena()
	demo, err := g.NewPlayer("Demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	four := []arena.Player{demo, demo, demo, demo}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := g.Play(ctx, &arena.Table{Config: DefaultConfig(), Seed: 1, Players: four}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	for name, tb := range map[string]*arena.Table{
		"three players":  {Config: DefaultConfig(), Seed: 1, Players: four[:3]},
		"another player": {Config: DefaultConfig(), Seed: 1, Players: []arena.Player{demo, otherPlayer{}, demo, demo}},
		"no config":      {Seed: 1, Players: four},
	} {
		if err := g.Play(context.Background(), tb); err == nil {
			t.Errorf("%s: played", name)
		}
	}
}

// recordingLoader records what it is asked to load and fails with err.
type recordingLoader struct {
	asked []string
	err   error
}

func (l *recordingLoader) Policy(ref string, sig policy.Signature) (*policy.Model, error) {
	l.asked = append(l.asked, "policy "+ref+" "+sig.ObservationVersion)
	return nil, l.err
}

func (l *recordingLoader) Cpp(ref string, k *cppbot.Kit) (*cppbot.Program, error) {
	l.asked = append(l.asked, "cpp "+ref+" "+k.Game)
	return nil, l.err
}

func TestResolveBot(t *testing.T) {
	if _, _, err := Def.ResolveBot("Demo", nil); err != nil {
		t.Errorf("Demo: %v", err)
	}
	for _, name := range []string{"Nobody", "exec:x"} {
		if _, _, err := Def.ResolveBot(name, nil); !errors.Is(err, game.ErrUnknownBot) {
			t.Errorf("%s: %v, want game.ErrUnknownBot", name, err)
		}
	}
	if _, _, err := Def.ResolveBot("policy:x.onnx", nil); !errors.Is(err, arena.ErrNoLoader) {
		t.Errorf("policy:x.onnx without a loader: %v, want ErrNoLoader", err)
	}
	boom := errors.New("boom")
	l := &recordingLoader{err: boom}
	for _, name := range []string{"policy:dir/x.onnx", "cpp:AIMine.cc"} {
		if _, _, err := Def.ResolveBot(name, l); !errors.Is(err, boom) {
			t.Errorf("%s: %v, want the loader's error", name, err)
		}
	}
	want := []string{"policy dir/x.onnx " + ObservationVersion, "cpp AIMine.cc Crematoria"}
	if fmt.Sprint(l.asked) != fmt.Sprint(want) {
		t.Errorf("the loader was asked %q, want %q", l.asked, want)
	}
}

// An Env WithLoader offers the prefixes and seats them through the
// loader; a loader's "no such file" is an unknown bot.
func TestEnvWithLoader(t *testing.T) {
	l := &recordingLoader{err: fmt.Errorf("%w: no file", env.ErrUnknownBot)}
	e := Def.Host(Def.WithLoader(l))
	if _, prefixes := e.Bots(); fmt.Sprint(prefixes) != fmt.Sprint(arena.Prefixes) {
		t.Errorf("prefixes %v, want %v", prefixes, arena.Prefixes)
	}
	_, err := e.NewFactory(env.Setup{Seats: []string{"", "Demo", "policy:x.onnx", "Null"}})
	if !errors.Is(err, env.ErrUnknownBot) || len(l.asked) != 1 {
		t.Errorf("NewFactory = %v (loader asked %q), want env.ErrUnknownBot", err, l.asked)
	}
	f, err := e.NewFactory(env.Setup{Seats: []string{"", "Demo", "Riddick", "Null"}})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
