package dominator

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

// testLoader loads "policy:tiny" (the tiny policy) and "cpp:NAME" (the
// file NAME, compiled once per test binary).
type testLoader struct{ t *testing.T }

func (l testLoader) Policy(ref string, sig policy.Signature) (*policy.Model, error) {
	if ref != "tiny" {
		return nil, errors.New("no policy " + ref)
	}
	return policy.Parse(tinyPolicy(128, 37), sig)
}

func (l testLoader) Cpp(ref string, k *cppbot.Kit) (*cppbot.Program, error) {
	if k.Game != "Dominator" {
		return nil, errors.New("not Dominator's kit: " + k.Game)
	}
	return compiled(l.t, ref), nil
}

// arenaTable resolves the seats and returns the table of one game.
func arenaTable(t *testing.T, l arena.Loader, seed int, cfg arena.Config, seats ...string) *arena.Table {
	t.Helper()
	g := Def.Arena()
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

// Arena plays a reference game as the course program does: the trace and
// the command log are written, the scores filled, and Verify accepts the
// trace with and without the log, and with the configuration.
func TestArenaPlaysReferenceGame(t *testing.T) {
	g := Def.Arena()
	if g.Name() != "Dominator" || !slices.Contains(g.Bots(), "Khan") || g.DefaultConfig().Rounds() != 200 {
		t.Fatalf("Def.Arena() = %s, bots %v, %d rounds", g.Name(), g.Bots(), g.DefaultConfig().Rounds())
	}
	var trace, cmds bytes.Buffer
	tb := arenaTable(t, nil, 3, g.DefaultConfig(), "Demo", "Null", "Demo", "Null")
	tb.Trace, tb.Commands = &trace, &cmds
	if err := g.Play(context.Background(), tb); err != nil {
		t.Fatal(err)
	}
	c := findCase(t, "dominator_s3_Demo-Null-Demo-Null")
	if want := coursetest.ReadGz(t, c.path); !bytes.Equal(want, trace.Bytes()) {
		t.Fatal(coursetest.FirstDiff(want, trace.Bytes()))
	}
	tr, err := ParseTrace(bytes.NewReader(trace.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if want := tr.States[len(tr.States)-1].TotalScore; !slices.Equal(tb.Scores, want[:]) {
		t.Errorf("Scores = %v, want %v", tb.Scores, want)
	}
	log, err := ParseCommandLog(bytes.NewReader(cmds.Bytes()))
	if err != nil || len(log.Rounds) != 200 {
		t.Fatalf("command log: %v, %d rounds", err, len(log.Rounds))
	}
	for _, cfg := range []arena.Config{nil, g.DefaultConfig()} {
		if err := g.Verify(trace.Bytes(), cmds.Bytes(), cfg); err != nil {
			t.Errorf("Verify with commands, config %v: %v", cfg != nil, err)
		}
		if err := g.Verify(trace.Bytes(), nil, cfg); err != nil {
			t.Errorf("Verify against the rules, config %v: %v", cfg != nil, err)
		}
	}
	// A changed trace, and a log of another game, are caught.
	bad := bytes.Replace(trace.Bytes(), []byte("\nround 5\n"), []byte("\nround 6\n"), 1)
	if err := g.Verify(bad, nil, nil); err == nil {
		t.Error("Verify accepts a changed trace")
	}
	var ce *arena.CommandsError
	if err := g.Verify(trace.Bytes(), []byte("0 0 x\n"), nil); !errors.As(err, &ce) {
		t.Errorf("Verify with a malformed log = %v, want a *CommandsError", err)
	}
}

// A non-default configuration: Verify takes it (-i CONFIG) and refuses
// the default one for the same trace.
func TestArenaVerifyConfig(t *testing.T) {
	g := Def.Arena()
	cfg, err := g.ParseConfig(strings.NewReader(mustShippedText("fixed3")))
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	tb := arenaTable(t, nil, 8, cfg, "Khan", "Demo", "Demo", "Null")
	tb.Trace = &trace
	if err := g.Play(context.Background(), tb); err != nil {
		t.Fatal(err)
	}
	if err := g.Verify(trace.Bytes(), nil, cfg); err != nil {
		t.Errorf("Verify with fixed3: %v", err)
	}
	if err := g.Verify(trace.Bytes(), nil, nil); err != nil {
		t.Errorf("Verify inferring the board: %v", err)
	}
	if err := g.Verify(trace.Bytes(), nil, g.DefaultConfig()); err == nil {
		t.Error("Verify accepts the default configuration for a FIXED game")
	}
}

// flooder gives 1001 commands in round 4.
type flooder struct{}

func (flooder) Play(v *State, o *Orders) {
	if v.Round == 4 {
		for i := 0; i <= game.MaxCommands; i++ {
			o.Command(0, None)
		}
	}
}

// A game the course program aborts returns its error, with the trace and
// the log up to there.
func TestArenaAbortedGame(t *testing.T) {
	g := Def.Arena()
	var trace, cmds bytes.Buffer
	tb := arenaTable(t, nil, 3, g.DefaultConfig(), "Null", "Null", "Null", "Null")
	tb.Players[2] = Def.Arena().(*arena.Host[Config, Bot]).BotPlayer("TestFlooder", func(me, seed int) Bot { return flooder{} })
	tb.Trace, tb.Commands = &trace, &cmds
	err := g.Play(context.Background(), tb)
	if !errors.Is(err, game.ErrTooManyCommands) || !errors.Is(err, ErrAbort) || !strings.Contains(err.Error(), "round 5: player 2 (TestFlooder)") {
		t.Fatalf("Play = %v, want too many commands in round 5", err)
	}
	want := tracePrefix(t, DefaultConfig(), 3, 4)
	want = bytes.Replace(want, []byte("names          Null Null Null Null"), []byte("names          Null Null TestFlooder Null"), 1)
	if !bytes.Equal(want, trace.Bytes()) {
		t.Error(coursetest.FirstDiff(want, trace.Bytes()))
	}
	log, err := ParseCommandLog(bytes.NewReader(cmds.Bytes()))
	if err != nil || len(log.Rounds) != 4 {
		t.Errorf("command log: %v, %d rounds, want 4", err, len(log.Rounds))
	}
}

// Seats resolve to registered bots, policy: files and cpp: files through
// the loader; unknown names and prefixes, and prefixes without a loader,
// are refused.
func TestResolveBot(t *testing.T) {
	l := testLoader{t}
	if _, _, err := Def.ResolveBot("Khan", nil); err != nil {
		t.Errorf("Def.ResolveBot(Khan) = %v", err)
	}
	if _, _, err := Def.ResolveBot("Nobody", l); !errors.Is(err, game.ErrUnknownBot) {
		t.Errorf("Def.ResolveBot(Nobody) = %v, want game.ErrUnknownBot", err)
	}
	if _, _, err := Def.ResolveBot("onnx:x", l); !errors.Is(err, game.ErrUnknownBot) {
		t.Errorf("Def.ResolveBot(onnx:x) = %v, want game.ErrUnknownBot", err)
	}
	if _, _, err := Def.ResolveBot("policy:tiny", nil); !errors.Is(err, arena.ErrNoLoader) {
		t.Errorf("Def.ResolveBot(policy:tiny) without a loader = %v, want ErrNoLoader", err)
	}
	f, closer, err := Def.ResolveBot("policy:tiny", l)
	if err != nil || closer != nil {
		t.Fatalf("Def.ResolveBot(policy:tiny) = %v, %v", closer, err)
	}
	if _, ok := f(1, 5).(*PolicyBot); !ok {
		t.Errorf("policy:tiny seats a %T", f(1, 5))
	}
}

// Through Arena, a cpp: seat and a policy: seat of the same policy play
// the same game, and the C++ Demo plays the reference game.
func TestArenaCppAndPolicySeats(t *testing.T) {
	needCpp(t)
	l := testLoader{t}
	g := Def.Arena()
	play := func(seats ...string) ([]byte, []int) {
		var trace bytes.Buffer
		tb := arenaTable(t, l, 2, g.DefaultConfig(), seats...)
		tb.Names = []string{"Demo", "Tiny", "Demo", "Demo"}
		tb.Trace = &trace
		if err := g.Play(context.Background(), tb); err != nil {
			t.Fatal(err)
		}
		return trace.Bytes(), tb.Scores
	}
	model := tinyPolicy(128, 37)
	src, err := exportTiny(t, model)
	if err != nil {
		t.Fatal(err)
	}
	a, sa := play("Demo", "policy:tiny", "Demo", "cpp:"+filepath.Join(kitDir, "AIDemo.cc"))
	b, sb := play("cpp:"+filepath.Join(kitDir, "AIDemo.cc"), "cpp:"+src, "Demo", "Demo")
	if !bytes.Equal(a, b) || !slices.Equal(sa, sb) {
		t.Fatal(coursetest.FirstDiff(a, b))
	}
}

// Env seats policy: and cpp: bots through WithLoader, and lists the
// prefixes.
func TestEnvWithLoader(t *testing.T) {
	needCpp(t)
	e := Def.Host(Def.WithLoader(testLoader{t}))
	if _, prefixes := e.Bots(); !slices.Equal(prefixes, arena.Prefixes) {
		t.Errorf("Bots() prefixes = %v, want %v", prefixes, arena.Prefixes)
	}
	f, err := e.NewFactory(env.Setup{Seats: []string{"", "policy:tiny", "cpp:" + filepath.Join(kitDir, "AIDemo.cc"), "Khan"}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inst, err := f.NewInstance()
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	if err := inst.Reset(4); err != nil {
		t.Fatal(err)
	}
	action := make([]byte, 128)
	for id := range action {
		action[id] = byte(None)
	}
	reward := make([]float32, 1)
	for r := 0; r < 5; r++ {
		if _, err := inst.Step(action, nil, reward); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.NewFactory(env.Setup{Seats: []string{"", "Nobody", "Demo", "Demo"}}); !errors.Is(err, env.ErrUnknownBot) {
		t.Errorf("unknown bot: %v, want env.ErrUnknownBot", err)
	}
}
