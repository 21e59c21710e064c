package dominator

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"jgym/arena"
)

// Arena returns Dominator for the command line's game machinery
// (package arena): its configurations, its bots ("policy:" and "cpp:"
// seats through an arena.Loader), one game with its trace and command log
// as the kit's Game program plays it (Match), and trace verification.
func Arena() arena.Game { return arenaGame{} }

// arenaGame is Dominator as an arena.Game.
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

// configOf returns the Dominator configuration of an arena.Config.
func configOf(c arena.Config) (Config, error) {
	switch c := c.(type) {
	case Config:
		return c, nil
	case *Config:
		return *c, nil
	}
	return Config{}, fmt.Errorf("dominator: %T is not a Dominator configuration", c)
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
// the trace to t.Trace and the players' command lists (SPEC §15.1) to
// t.Commands, when they are not nil. A game the course program aborts
// (ErrAbort: a player's 1001st command in a round, a failed assertion of
// the engine) or a bot's failure ends with its error, the trace written
// up to where the course program's stops and the log up to the last round
// played.
func (arenaGame) Play(ctx context.Context, t *arena.Table) error {
	cfg, err := configOf(t.Config)
	if err != nil {
		return err
	}
	if len(t.Players) != NumPlayers {
		return fmt.Errorf("dominator: %d players, want %d", len(t.Players), NumPlayers)
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
			return fmt.Errorf("dominator: seat %d: %s is not a Dominator player", p, pl.Name())
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
	sc := m.Scores()
	t.Scores = sc[:]
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
// in log if it is not nil.
func playMatch(ctx context.Context, m *Match, log *CommandLog) error {
	for !m.Done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := m.PlayRound(); err != nil {
			return err
		}
		if log != nil {
			var cmds [NumPlayers][]Command
			for p := range cmds {
				cmds[p] = m.Orders(p)
			}
			log.Record(&cmds)
		}
	}
	return nil
}

// Verify checks a trace (VerifyWith): replayed from its command log when
// commands is not nil, else against the rules. cfg, if not nil, is the
// configuration the game was played with (jgym verify -i CONFIG); without
// it the board source is inferred from the trace (VerifyOptions).
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
