package moria

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
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
// course engine's, the command log (rounds from 1) replays it, and a
// broken command log is a *arena.CommandsError.
func TestArenaPlayAndVerify(t *testing.T) {
	g := Def.Arena()
	if g.Name() != "Moria" || g.DefaultConfig().Rounds() != 200 || fmt.Sprint(g.Bots()) != fmt.Sprint(Def.Bots.Names()) {
		t.Fatalf("Arena: name %q, %d rounds, bots %v", g.Name(), g.DefaultConfig().Rounds(), g.Bots())
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
	ref := refTraceNamed(t, "moria_s4_Demo-Null-Demo-Null.res.gz")
	if want := coursetest.ReadGz(t, ref.path); !bytes.Equal(trace.Bytes(), want) {
		t.Errorf("trace differs from the course engine's: %s", coursetest.FirstDiff(want, trace.Bytes()))
	}
	if fmt.Sprint(tb.Scores) != "[345 3 228 9]" {
		t.Errorf("scores %v, want [345 3 228 9] (index.tsv)", tb.Scores)
	}
	if !bytes.HasPrefix(cmds.Bytes(), []byte("1 0 ")) || !bytes.Contains(cmds.Bytes(), []byte("\n200 3 0\n")) {
		t.Errorf("the command log does not number the rounds 1..200: %.40q", cmds.String())
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
	// Another player's commands in round 5: the replay diverges.
	bad := bytes.Replace(cmds.Bytes(), []byte("\n5 1 0\n"), []byte("\n5 1 1 25 6\n"), 1)
	var d *Divergence
	if err := g.Verify(trace.Bytes(), bad, nil); !errors.As(err, &d) || d.Round != 5 {
		t.Errorf("Verify with other commands in round 5: %v, want a divergence in round 5", err)
	}
	if err := g.Verify([]byte("hello\n"), nil, nil); !errors.Is(err, ErrTrace) {
		t.Errorf("Verify of garbage: %v, want ErrTrace", err)
	}
	cfg, err := g.ParseConfig(strings.NewReader(DefaultConfigText))
	if err != nil || cfg.Rounds() != 200 {
		t.Errorf("ParseConfig(default) = %v, %v", cfg, err)
	}
	if _, err := g.ParseConfig(strings.NewReader("Crematoria 1.2\n")); !errors.Is(err, ErrConfig) {
		t.Errorf("ParseConfig(Crematoria) = %v, want ErrConfig", err)
	}
	if got := arena.GameOf(trace.Bytes()); got != g.Name() {
		t.Errorf("arena.GameOf(trace) = %q, want %q", got, g.Name())
	}
	if got := arena.GameOf([]byte(DefaultConfigText)); got != g.Name() {
		t.Errorf("arena.GameOf(default.cnf) = %q, want %q", got, g.Name())
	}
}

// A game the course engine aborts (SPEC §8.8) returns ErrAbort with the
// trace written up to the last complete state; the command log holds the
// aborted round, so that Verify replays the game to the abort.
func TestArenaAbortedGame(t *testing.T) {
	dir := filepath.Join(traceRoot(), "..", "aborts")
	cfg := loadConfigFile(t, filepath.Join(dir, "crowded.cnf"))
	log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, filepath.Join(dir, "moria_s460_Brawl-Brawl-Brawl-Brawl_crowded.cmd.gz"))))
	if err != nil {
		t.Fatal(err)
	}
	g := Def.Arena()
	var players []arena.Player
	for range NumPlayers {
		players = append(players, Def.Arena().(*arena.Host[Config, Bot]).BotPlayer("Brawl", func(me, seed int) Bot { return replayBot{log, me} }))
	}
	var trace, cmds bytes.Buffer
	tb := &arena.Table{Config: cfg, Seed: 460, Players: players, Trace: &trace, Commands: &cmds}
	err = g.Play(context.Background(), tb)
	if !errors.Is(err, ErrAbort) || !strings.Contains(err.Error(), "round 149") {
		t.Fatalf("Play = %v, want an abort in round 149", err)
	}
	tr, err := ParseTrace(bytes.NewReader(trace.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.States) != 149 || len(tb.Scores) != NumPlayers {
		t.Errorf("the trace has %d states (want 0..148), scores %v", len(tr.States), tb.Scores)
	}
	if !bytes.Contains(cmds.Bytes(), []byte("\n149 3 ")) {
		t.Error("the command log lacks the aborted round 149")
	}
	if err := g.Verify(trace.Bytes(), cmds.Bytes(), cfg); err != nil {
		t.Errorf("Verify with the command log: %v, want the replay to abort where the trace ends", err)
	}
	if err := g.Verify(trace.Bytes(), nil, cfg); !errors.Is(err, ErrTruncated) {
		t.Errorf("Verify against the rules: %v, want ErrTruncated", err)
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
	bad := DefaultConfig()
	bad.NbPlayers = 3
	for name, tb := range map[string]*arena.Table{
		"three players":  {Config: DefaultConfig(), Seed: 1, Players: four[:3]},
		"another player": {Config: DefaultConfig(), Seed: 1, Players: []arena.Player{demo, otherPlayer{}, demo, demo}},
		"no config":      {Seed: 1, Players: four},
		"bad config":     {Config: &bad, Seed: 1, Players: four},
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
	if _, _, err := Def.ResolveBot("Balin", nil); err != nil {
		t.Errorf("Balin: %v", err)
	}
	for _, name := range []string{"Nobody", "exec:x"} {
		if _, _, err := Def.ResolveBot(name, nil); !errors.Is(err, game.ErrUnknownBot) {
			t.Errorf("%s: %v, want game.ErrUnknownBot", name, err)
		}
	}
	if _, _, err := Def.ResolveBot("cpp:AIMine.cc", nil); !errors.Is(err, arena.ErrNoLoader) {
		t.Errorf("cpp:AIMine.cc without a loader: %v, want ErrNoLoader", err)
	}
	boom := errors.New("boom")
	l := &recordingLoader{err: boom}
	for _, name := range []string{"policy:dir/x.onnx", "cpp:AIMine.cc"} {
		if _, _, err := Def.ResolveBot(name, l); !errors.Is(err, boom) {
			t.Errorf("%s: %v, want the loader's error", name, err)
		}
	}
	want := []string{"policy dir/x.onnx " + ObservationVersion, "cpp AIMine.cc Moria"}
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
	f, err := e.NewFactory(env.Setup{Seats: []string{"", "Demo", "Balin", "Null"}})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// fileLoader loads prefix seats from files, as the command line does.
type fileLoader struct{}

func (fileLoader) Policy(ref string, sig policy.Signature) (*policy.Model, error) {
	return policy.Load(ref, sig)
}

func (fileLoader) Cpp(ref string, k *cppbot.Kit) (*cppbot.Program, error) {
	return cppbot.Open(ref, k, cppOpts())
}

// "cpp:" and "policy:" seats play through Arena and a loader: the kit's
// C++ Demo and Null and the test policy play the game their Go twins play,
// the trace names them after their files, and the game verifies.
func TestArenaPrefixSeats(t *testing.T) {
	needCpp(t)
	dir := t.TempDir()
	model := filepath.Join(dir, "Tiny.onnx")
	if err := os.WriteFile(model, tinyPolicy(100, 4), 0o644); err != nil {
		t.Fatal(err)
	}
	g := Def.Arena()
	var players []arena.Player
	for _, n := range []string{"cpp:" + filepath.Join(kitDir, "AIDemo.cc"), "policy:" + model, "Demo", "cpp:" + filepath.Join(kitDir, "AINull.cc")} {
		p, err := g.NewPlayer(n, fileLoader{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		players = append(players, p)
	}
	const seed = 6
	var trace, cmds bytes.Buffer
	tb := &arena.Table{Config: g.DefaultConfig(), Seed: seed, Players: players, Trace: &trace, Commands: &cmds}
	if err := g.Play(context.Background(), tb); err != nil {
		t.Fatal(err)
	}
	m, err := policy.Load(model, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	want, err := playTrace(DefaultConfig(), seed, [4]string{"Demo", "Tiny", "Demo", "Null"},
		[4]Bot{NewDemo(0, seed), Def.NewPolicyBot(m, 1), NewDemo(2, seed), Null{}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, trace.Bytes()) {
		t.Fatalf("the arena's trace differs from the Go bots': %s", coursetest.FirstDiff(want, trace.Bytes()))
	}
	if err := g.Verify(trace.Bytes(), cmds.Bytes(), nil); err != nil {
		t.Errorf("Verify with the command log: %v", err)
	}
}
