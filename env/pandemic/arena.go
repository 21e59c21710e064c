package pandemic

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"jgym/arena"
)

// Arena returns Pandemic for the command line's game machinery (package
// arena): its configurations, its bots ("policy:" and "cpp:" seats
// through an arena.Loader), one game with its trace and command log as
// the kit's Game program plays it (Match), and trace verification.
func Arena() arena.Game { return arenaGame{} }

// arenaGame is Pandemic as an arena.Game.
type arenaGame struct{}

var (
	_ arena.Game   = arenaGame{}
	_ arena.Config = Config{}
	_ arena.Player = (*arenaPlayer)(nil)
)

// Rounds is the number of rounds of a game (arena.Config).
func (c Config) Rounds() int { return c.NbRounds }

// Name is the first word of Version.
func (arenaGame) Name() string { return strings.Fields(Version)[0] }

func (arenaGame) Bots() []string { return BotNames() }

func (arenaGame) DefaultConfig() arena.Config { return DefaultConfig() }

func (arenaGame) ParseConfig(r io.Reader) (arena.Config, error) {
	c, err := ParseConfig(r)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// configOf returns the Pandemic configuration of an arena.Config.
func configOf(c arena.Config) (Config, error) {
	switch c := c.(type) {
	case Config:
		return c, nil
	case *Config:
		return *c, nil
	}
	return Config{}, fmt.Errorf("pandemic: %T is not a Pandemic configuration", c)
}

// arenaPlayer is a resolved seat.
type arenaPlayer struct {
	name    string
	factory BotFactory
	closer  io.Closer
}

func (p *arenaPlayer) Name() string { return p.name }

func (p *arenaPlayer) Close() error {
	if p.closer == nil {
		return nil
	}
	return p.closer.Close()
}

func (arenaGame) NewPlayer(name string, l arena.Loader) (arena.Player, error) {
	f, closer, err := ResolveBot(name, l)
	if err != nil {
		return nil, err
	}
	return &arenaPlayer{name: name, factory: f, closer: closer}, nil
}

// ResolveBot turns a seat name into a bot factory: a registered bot, or
// "policy:REF" (an ONNX policy, PolicyFactory) or "cpp:REF" (a C++ bot of
// the kit, CppFactory) whose file l loads. The closer, if not nil,
// releases what the bot holds once no game uses it any more.
func ResolveBot(name string, l arena.Loader) (BotFactory, io.Closer, error) {
	prefix, ref := arena.SplitSeat(name)
	switch {
	case prefix == "":
		f, err := LookupBot(name)
		if err != nil {
			return nil, nil, arena.HintPrefixes(err, l)
		}
		return f, nil, nil
	case prefix != "policy" && prefix != "cpp":
		return nil, nil, fmt.Errorf("%w %q (prefixes: %s)", ErrUnknownBot, prefix, strings.Join(arena.Prefixes, ", "))
	case l == nil:
		return nil, nil, fmt.Errorf("%s: %w", name, arena.ErrNoLoader)
	case prefix == "policy":
		m, err := l.Policy(ref, PolicySignature())
		if err != nil {
			return nil, nil, err
		}
		return PolicyFactory(m), nil, nil
	default:
		k, err := CppKit()
		if err != nil {
			return nil, nil, err
		}
		prog, err := l.Cpp(ref, k)
		if err != nil {
			return nil, nil, err
		}
		return CppFactory(prog), prog, nil
	}
}

// Play plays one game as the kit's Game program does (SPEC §7), writing
// the trace to t.Trace and the players' command lists (SPEC §15.4) to
// t.Commands, when they are not nil, and the final scores to t.Scores. A
// game that ends early (a bot fails, or the course engine would abort)
// returns its error with the trace and the log written up to there: the
// log holds the lists of a round the engine aborted, so that replaying it
// ends where the trace ends.
func (arenaGame) Play(ctx context.Context, t *arena.Table) error {
	cfg, err := configOf(t.Config)
	if err != nil {
		return err
	}
	if len(t.Players) != NumPlayers {
		return fmt.Errorf("pandemic: %d players, want %d", len(t.Players), NumPlayers)
	}
	var names [NumPlayers]string
	copy(names[:], t.TraceNames())
	var bots [NumPlayers]Bot
	defer func() {
		for _, b := range bots {
			if c, ok := b.(io.Closer); ok {
				c.Close()
			}
		}
	}()
	for p, pl := range t.Players {
		ap, ok := pl.(*arenaPlayer)
		if !ok {
			return fmt.Errorf("pandemic: seat %d: %s is not a Pandemic player", p, pl.Name())
		}
		bots[p] = ap.factory(p, t.Seed)
	}
	m, err := NewMatchWithBots(cfg, t.Seed, names, bots)
	if err != nil {
		return err
	}
	var bw *bufio.Writer
	if t.Trace != nil {
		bw = bufio.NewWriterSize(t.Trace, 1<<16)
		m.WriteTrace(bw)
	}
	var log *CommandLog
	if t.Commands != nil {
		log = &CommandLog{}
	}
	err = playMatch(ctx, m, log)
	t.Scores = append(t.Scores[:0], m.Scores[:]...)
	if bw != nil {
		if ferr := bw.Flush(); ferr != nil && err == nil {
			err = fmt.Errorf("write trace: %w", ferr)
		}
	}
	if log != nil {
		if werr := log.Write(t.Commands); werr != nil && err == nil {
			err = fmt.Errorf("write commands: %w", werr)
		}
	}
	return err
}

// playMatch plays the remaining rounds of m, recording the command lists
// the players hand to the engine in log if it is not nil.
func playMatch(ctx context.Context, m *Match, log *CommandLog) error {
	for !m.Done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := m.collect(); err != nil {
			return err
		}
		if log != nil {
			log.Record(&m.cmds)
		}
		if err := m.StepTraced(&m.cmds); err != nil {
			return err
		}
	}
	return nil
}

// Verify checks a trace (VerifyWith): replayed from its command log when
// commands is not nil, else against the rules.
func (arenaGame) Verify(trace, commands []byte, cfg arena.Config) error {
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return err
	}
	var o VerifyOptions
	if commands != nil {
		if o.Commands, err = ParseCommandLog(bytes.NewReader(commands)); err != nil {
			return &arena.CommandsError{Err: err}
		}
	}
	if cfg != nil {
		c, err := configOf(cfg)
		if err != nil {
			return err
		}
		o.Config = &c
	}
	return VerifyWith(tr, o)
}
