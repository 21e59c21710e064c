package arena

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"jgym/cppbot"
	"jgym/env"
	"jgym/policy"
)

// A toy game for Host: every round each player scores its bot's points;
// the trace is one line per round, the command log one line per round.

type toyConfig struct{ rounds int }

func (c toyConfig) Rounds() int { return c.rounds }

type toyBot int

// closedBot counts Close calls.
type closedBot struct {
	toyBot
	n *int
}

func (b closedBot) Close() error { *b.n++; return nil }

type toyRules struct {
	reg    *env.BotRegistry[any]
	verify func(trace, commands []byte, cfg *toyConfig) error
}

func (toyRules) Name() string                  { return "Toy" }
func (r toyRules) Bots() *env.BotRegistry[any] { return r.reg }
func (toyRules) DefaultConfig() toyConfig      { return toyConfig{3} }
func (toyRules) ParseConfig(r io.Reader) (toyConfig, error) {
	var c toyConfig
	_, err := fmt.Fscan(r, &c.rounds)
	return c, err
}
func (toyRules) PolicySignature() policy.Signature { return policy.Signature{} }
func (toyRules) PolicyBot(*policy.Model) env.BotFactory[any] {
	return func(me, seed int) any { return toyBot(10) }
}
func (toyRules) CppKit() (*cppbot.Kit, error) { return nil, errors.New("no kit") }
func (toyRules) CppBot(*cppbot.Program) env.BotFactory[any] {
	return func(me, seed int) any { return toyBot(20) }
}
func (toyRules) NewMatch(cfg toyConfig, seed int, names [Seats]string, bots [Seats]any) (Match, error) {
	if seed < 0 {
		return nil, errors.New("bad seed")
	}
	return &toyMatch{cfg: cfg, names: names, bots: bots}, nil
}
func (r toyRules) Verify(trace, commands []byte, cfg *toyConfig) error {
	return r.verify(trace, commands, cfg)
}

type toyMatch struct {
	cfg    toyConfig
	names  [Seats]string
	bots   [Seats]any
	round  int
	scores [Seats]int
	trace  io.Writer
	log    []string
}

func (m *toyMatch) Trace(w io.Writer) { m.trace = w; fmt.Fprintln(w, "Toy", m.names) }

func (m *toyMatch) Play(ctx context.Context, record bool) error {
	for ; m.round < m.cfg.rounds; m.round++ {
		for p, b := range m.bots {
			switch b := b.(type) {
			case toyBot:
				m.scores[p] += int(b)
			case closedBot:
				m.scores[p] += int(b.toyBot)
			}
		}
		if m.trace != nil {
			fmt.Fprintln(m.trace, m.round, m.scores)
		}
		if record {
			m.log = append(m.log, fmt.Sprint(m.round))
		}
	}
	return nil
}

func (m *toyMatch) Scores() [Seats]int { return m.scores }

func (m *toyMatch) WriteCommands(w io.Writer) error {
	_, err := io.WriteString(w, strings.Join(m.log, "\n")+"\n")
	return err
}

// otherConfig and otherPlayer are another game's.
type otherConfig struct{}

func (otherConfig) Rounds() int { return 1 }

type otherPlayer string

func (p otherPlayer) Name() string { return string(p) }
func (otherPlayer) Close() error   { return nil }

func newToy() *Host[toyConfig, any] {
	reg := env.NewBotRegistry[any]("toy")
	reg.Register("One", func(me, seed int) any { return toyBot(1) })
	reg.Register("Two", func(me, seed int) any { return toyBot(2) })
	return NewHost[toyConfig, any](toyRules{reg: reg})
}

type toyLoader struct{}

func (toyLoader) Policy(ref string, sig policy.Signature) (*policy.Model, error) {
	if ref != "net.onnx" {
		return nil, errors.New("no such policy")
	}
	return nil, nil
}

func (toyLoader) Cpp(ref string, k *cppbot.Kit) (*cppbot.Program, error) { return nil, nil }

func TestHostPlay(t *testing.T) {
	g := newToy()
	if g.Name() != "Toy" || fmt.Sprint(g.Bots()) != "[One Two]" || g.DefaultConfig().Rounds() != 3 {
		t.Fatalf("Name, Bots, DefaultConfig = %q, %v, %v", g.Name(), g.Bots(), g.DefaultConfig())
	}
	c, err := g.ParseConfig(strings.NewReader("2"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := c.(toyConfig)
	var players []Player
	for _, name := range []string{"One", "Two", "policy:net.onnx", "One"} {
		p, err := g.NewPlayer(name, toyLoader{})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	closed := 0
	players[3] = g.BotPlayer("Closer", func(me, seed int) any { return closedBot{5, &closed} })
	var trace, cmds bytes.Buffer
	tb := &Table{Config: &cfg, Seed: 1, Players: players, Trace: &trace, Commands: &cmds}
	if err := g.Play(context.Background(), tb); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(tb.Scores) != "[2 4 20 10]" || closed != 1 {
		t.Errorf("scores %v, %d bots closed, want [2 4 20 10] and 1", tb.Scores, closed)
	}
	if want := "Toy [One Two net Closer]\n0 [1 2 10 5]\n1 [2 4 20 10]\n"; trace.String() != want {
		t.Errorf("trace %q, want %q", trace.String(), want)
	}
	if cmds.String() != "0\n1\n" {
		t.Errorf("commands %q", cmds.String())
	}
}

func TestHostErrors(t *testing.T) {
	g := newToy()
	one, err := g.NewPlayer("One", nil)
	if err != nil {
		t.Fatal(err)
	}
	four := []Player{one, one, one, one}
	for _, c := range []struct {
		name string
		tb   *Table
		want string
	}{
		{"wrong config", &Table{Config: otherConfig{}, Players: four}, "toy: arena.otherConfig is not a Toy configuration"},
		{"three players", &Table{Config: toyConfig{1}, Players: four[:3]}, "toy: 3 players, want 4"},
		{"foreign player", &Table{Config: toyConfig{1}, Players: []Player{one, otherPlayer("x"), one, one}}, "toy: seat 1: x is not a Toy player"},
		{"bad match", &Table{Config: toyConfig{1}, Seed: -1, Players: four}, "bad seed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := g.Play(context.Background(), c.tb); err == nil || err.Error() != c.want {
				t.Errorf("Play = %v, want %q", err, c.want)
			}
		})
	}
	for _, c := range []struct {
		name string
		l    Loader
		is   error
		want string
	}{
		{"unknown", nil, env.ErrUnknownBot, `unknown bot "Three" (known: [One Two])`},
		{"unknown prefix", nil, env.ErrUnknownBot, `unknown bot "py" (prefixes: cpp, policy)`},
		{"no loader", nil, ErrNoLoader, "cpp:x.cc: prefix seats are not offered here"},
		{"no kit", toyLoader{}, nil, "no kit"},
		{"no policy", toyLoader{}, nil, "no such policy"},
	} {
		name := map[string]string{"unknown": "Three", "unknown prefix": "py:x", "no loader": "cpp:x.cc", "no kit": "cpp:x.cc", "no policy": "policy:x"}[c.name]
		_, err := g.NewPlayer(name, c.l)
		if err == nil || err.Error() != c.want || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s: NewPlayer(%q) = %v, want %q", c.name, name, err, c.want)
		}
	}
}

func TestHostVerify(t *testing.T) {
	var got *toyConfig
	reg := env.NewBotRegistry[any]("toy")
	g := NewHost[toyConfig, any](toyRules{reg: reg, verify: func(trace, commands []byte, cfg *toyConfig) error {
		got = cfg
		return nil
	}})
	if err := g.Verify(nil, nil, nil); err != nil || got != nil {
		t.Errorf("Verify without a config: %v, config %v", err, got)
	}
	if err := g.Verify(nil, nil, &toyConfig{7}); err != nil || got == nil || got.rounds != 7 {
		t.Errorf("Verify with *toyConfig: %v, config %v", err, got)
	}
	if err := g.Verify(nil, nil, toyConfig{8}); err != nil || got == nil || got.rounds != 8 {
		t.Errorf("Verify with toyConfig: %v, config %v", err, got)
	}
	if err := g.Verify(nil, nil, otherConfig{}); err == nil {
		t.Error("Verify with another game's config: no error")
	}
}
