package dominator

import (
	"bytes"
	"context"
	"io"

	"jgym/arena"
	"jgym/cppbot"
	"jgym/policy"
)

// Arena returns Dominator for the command line's game machinery
// (package arena): its configurations, its bots ("policy:" and "cpp:"
// seats through an arena.Loader), one game with its trace and command log
// as the kit's Game program plays it (Match), and trace verification.
func Arena() arena.Game { return arenaGame }

// arenaGame is Dominator as an arena.Game.
var arenaGame = arena.NewHost[Config, Bot](rules{})

var _ arena.Config = Config{}

// Rounds is the number of rounds of a game (arena.Config).
func (c Config) Rounds() int { return c.NbRounds }

// ResolveBot turns a seat name into a bot factory: a registered bot, or
// "policy:REF" (an ONNX policy, PolicyFactory) or "cpp:REF" (a C++ bot of
// the kit, CppFactory) whose file l loads. The closer, if not nil,
// releases what the bot holds once no game uses it any more.
func ResolveBot(name string, l arena.Loader) (BotFactory, io.Closer, error) {
	return arenaGame.Resolve(name, l)
}

func (rules) PolicySignature() policy.Signature      { return PolicySignature() }
func (rules) PolicyBot(m *policy.Model) BotFactory   { return PolicyFactory(m) }
func (rules) CppKit() (*cppbot.Kit, error)           { return CppKit() }
func (rules) CppBot(prog *cppbot.Program) BotFactory { return CppFactory(prog) }

// NewMatch starts a game with the bots for arena.Host.Play.
func (rules) NewMatch(cfg Config, seed int, names [NumPlayers]string, bots [NumPlayers]Bot) (arena.Match, error) {
	m, err := NewMatchWithBots(cfg, seed, names, bots)
	if err != nil {
		return nil, err
	}
	return &arenaMatch{Match: m}, nil
}

// arenaMatch is a Match as arena.Host plays it, the way the kit's Game
// program does (SPEC §7), with the players' command lists (SPEC §15.1) it
// records. A game the course program aborts (ErrAbort: a player's 1001st
// command in a round, a failed assertion of the engine) or a bot's failure
// ends with its error, the trace written up to where the course program's
// stops and the log up to the last round played.
type arenaMatch struct {
	*Match
	log *CommandLog
}

func (m *arenaMatch) Trace(w io.Writer) { m.WriteTrace(w) }

func (m *arenaMatch) Play(ctx context.Context, record bool) error {
	if record {
		m.log = &CommandLog{}
	}
	return playMatch(ctx, m.Match, m.log)
}

func (m *arenaMatch) Scores() [NumPlayers]int { return m.Match.Scores() }

func (m *arenaMatch) WriteCommands(w io.Writer) error { return m.log.Write(w) }

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
func (rules) Verify(trace, commands []byte, cfg *Config) error {
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return err
	}
	o := VerifyOptions{Config: cfg}
	if commands != nil {
		if o.Commands, err = ParseCommandLog(bytes.NewReader(commands)); err != nil {
			return &arena.CommandsError{Err: err}
		}
	}
	return VerifyWith(tr, o)
}
