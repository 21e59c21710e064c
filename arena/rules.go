package arena

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"jgym/cppbot"
	"jgym/env"
	"jgym/policy"
)

// Rules is what a game supplies to make a Game of it with NewHost: its
// configurations C, its bots B and how it plays and checks one game.
// Resolving seats, seating the players, buffering the trace and writing
// the command log are the Host's, the same for every game.
type Rules[C Config, B any] interface {
	// Name is the game's name as its traces begin with it ("Crematoria");
	// messages use it in lower case.
	Name() string
	// Bots is the registry of the game's bots.
	Bots() *env.BotRegistry[B]
	// DefaultConfig returns the kit's default configuration.
	DefaultConfig() C
	// ParseConfig reads a configuration file of the game.
	ParseConfig(r io.Reader) (C, error)
	// PolicySignature is what a "policy:" seat's model must take and give.
	PolicySignature() policy.Signature
	// PolicyBot seats a policy.
	PolicyBot(m *policy.Model) env.BotFactory[B]
	// CppKit is the game's course kit, for "cpp:" seats.
	CppKit() (*cppbot.Kit, error)
	// CppBot seats a compiled C++ bot.
	CppBot(prog *cppbot.Program) env.BotFactory[B]
	// NewMatch starts a game: bots[p] plays player p, named names[p] in
	// the trace.
	NewMatch(cfg C, seed int, names [Seats]string, bots [Seats]B) (Match, error)
	// Verify checks a trace as Game.Verify does; cfg is nil when the
	// trace's header says the configuration. A malformed command log is a
	// *CommandsError.
	Verify(trace, commands []byte, cfg *C) error
}

// Match is one game being played for Host.Play.
type Match interface {
	// Trace makes the match write its trace to w, starting with the
	// header and the current state.
	Trace(w io.Writer)
	// Play plays every remaining round, recording the players' command
	// lists when record is set. A game the course engine would abort
	// returns its error, the trace written up to there.
	Play(ctx context.Context, record bool) error
	// Scores are the players' current scores.
	Scores() [Seats]int
	// WriteCommands writes the recorded command lists.
	WriteCommands(w io.Writer) error
}

// Host is the Game of a game's Rules.
type Host[C Config, B any] struct {
	rules Rules[C, B]
	name  string // the lower-case name, for messages
}

var _ Game = (*Host[nopConfig, any])(nil)

type nopConfig struct{}

func (nopConfig) Rounds() int { return 0 }

// NewHost returns the Game of a game's rules.
func NewHost[C Config, B any](rules Rules[C, B]) *Host[C, B] {
	return &Host[C, B]{rules: rules, name: strings.ToLower(rules.Name())}
}

// Name is the game's name.
func (g *Host[C, B]) Name() string { return g.rules.Name() }

// Bots lists the registered bots, sorted.
func (g *Host[C, B]) Bots() []string { return g.rules.Bots().Names() }

// DefaultConfig returns the kit's default configuration.
func (g *Host[C, B]) DefaultConfig() Config { return g.rules.DefaultConfig() }

// ParseConfig reads a configuration file of the game.
func (g *Host[C, B]) ParseConfig(r io.Reader) (Config, error) {
	c, err := g.rules.ParseConfig(r)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// configOf returns the game's configuration of a Config.
func (g *Host[C, B]) configOf(c Config) (C, error) {
	if v, ok := ConfigOf[C](c); ok {
		return v, nil
	}
	var none C
	return none, fmt.Errorf("%s: %T is not a %s configuration", g.name, c, g.rules.Name())
}

// ConfigOf returns c as a game's configuration type C (given as C or *C);
// false when c is of another game or nil.
func ConfigOf[C any](c Config) (C, bool) {
	switch v := any(c).(type) {
	case C:
		return v, true
	case *C:
		if v != nil {
			return *v, true
		}
	}
	var none C
	return none, false
}

// player is a resolved seat.
type player[B any] struct {
	name    string
	factory env.BotFactory[B]
	closer  io.Closer
}

func (p *player[B]) Name() string { return p.name }

func (p *player[B]) Close() error {
	if p.closer == nil {
		return nil
	}
	return p.closer.Close()
}

// NewPlayer resolves a seat (Resolve).
func (g *Host[C, B]) NewPlayer(name string, l Loader) (Player, error) {
	f, closer, err := g.Resolve(name, l)
	if err != nil {
		return nil, err
	}
	return &player[B]{name: name, factory: f, closer: closer}, nil
}

// BotPlayer returns a player named name whose bots f makes: a seat for a
// bot that is not registered (tests, tools).
func (g *Host[C, B]) BotPlayer(name string, f env.BotFactory[B]) Player {
	return &player[B]{name: name, factory: f}
}

// Resolve turns a seat name into a bot factory: a registered bot, or
// "policy:REF" (an ONNX policy) or "cpp:REF" (a C++ bot of the kit) whose
// file l loads. The closer, if not nil, releases what the bot holds once
// no game uses it any more.
func (g *Host[C, B]) Resolve(name string, l Loader) (env.BotFactory[B], io.Closer, error) {
	prefix, ref := SplitSeat(name)
	switch {
	case prefix == "":
		f, err := g.rules.Bots().Lookup(name)
		if err != nil {
			return nil, nil, HintPrefixes(err, l)
		}
		return f, nil, nil
	case prefix != "policy" && prefix != "cpp":
		return nil, nil, fmt.Errorf("%w %q (prefixes: %s)", env.ErrUnknownBot, prefix, strings.Join(Prefixes, ", "))
	case l == nil:
		return nil, nil, fmt.Errorf("%s: %w", name, ErrNoLoader)
	case prefix == "policy":
		m, err := l.Policy(ref, g.rules.PolicySignature())
		if err != nil {
			return nil, nil, err
		}
		return g.rules.PolicyBot(m), nil, nil
	default:
		k, err := g.rules.CppKit()
		if err != nil {
			return nil, nil, err
		}
		prog, err := l.Cpp(ref, k)
		if err != nil {
			return nil, nil, err
		}
		return g.rules.CppBot(prog), prog, nil
	}
}

// Play plays one game as the kit's Game program does, writing the trace
// to t.Trace and the players' command lists to t.Commands when they are
// not nil, and the final scores to t.Scores. A game that ends early (a
// bot fails, or the course engine would abort) returns its error with the
// trace and the log written up to there.
func (g *Host[C, B]) Play(ctx context.Context, t *Table) error {
	cfg, err := g.configOf(t.Config)
	if err != nil {
		return err
	}
	if len(t.Players) != Seats {
		return fmt.Errorf("%s: %d players, want %d", g.name, len(t.Players), Seats)
	}
	var names [Seats]string
	copy(names[:], t.TraceNames())
	var bots [Seats]B
	defer func() {
		for _, b := range bots {
			if c, ok := any(b).(io.Closer); ok {
				c.Close()
			}
		}
	}()
	for p, pl := range t.Players {
		ap, ok := pl.(*player[B])
		if !ok {
			return fmt.Errorf("%s: seat %d: %s is not a %s player", g.name, p, pl.Name(), g.rules.Name())
		}
		bots[p] = ap.factory(p, t.Seed)
	}
	m, err := g.rules.NewMatch(cfg, t.Seed, names, bots)
	if err != nil {
		return err
	}
	var bw *bufio.Writer
	if t.Trace != nil {
		bw = bufio.NewWriterSize(t.Trace, 1<<16)
		m.Trace(bw)
	}
	err = m.Play(ctx, t.Commands != nil)
	sc := m.Scores()
	t.Scores = append(t.Scores[:0], sc[:]...)
	if bw != nil {
		if ferr := bw.Flush(); ferr != nil && err == nil {
			err = fmt.Errorf("write trace: %w", ferr)
		}
	}
	if t.Commands != nil {
		if werr := m.WriteCommands(t.Commands); werr != nil && err == nil {
			err = fmt.Errorf("write commands: %w", werr)
		}
	}
	return err
}

// Verify checks a trace: replayed from its command log when commands is
// not nil, else against the rules; cfg, if not nil, is the configuration
// the game was played with.
func (g *Host[C, B]) Verify(trace, commands []byte, cfg Config) error {
	if cfg == nil {
		return g.rules.Verify(trace, commands, nil)
	}
	c, err := g.configOf(cfg)
	if err != nil {
		return err
	}
	return g.rules.Verify(trace, commands, &c)
}
