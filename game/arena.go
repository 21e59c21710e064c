package game

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"jgym/arena"
	"jgym/cppbot"
	"jgym/policy"
)

// arenaRules is a game as arena.Rules, which an arena.Host plays for the
// command line.
type arenaRules[C Config, G, S any, D Dir] struct{ def *Def[C, G, S, D] }

func (r arenaRules[C, G, S, D]) Name() string                        { return r.def.Name }
func (r arenaRules[C, G, S, D]) Bots() *botRegistry[S, D]            { return r.def.Bots }
func (r arenaRules[C, G, S, D]) DefaultConfig() C                    { return r.def.DefaultConfig() }
func (r arenaRules[C, G, S, D]) ParseConfig(rd io.Reader) (C, error) { return r.def.ParseConfig(rd) }
func (r arenaRules[C, G, S, D]) PolicySignature() policy.Signature   { return r.def.PolicySignature() }
func (r arenaRules[C, G, S, D]) CppKit() (*cppbot.Kit, error)        { return r.def.CppKit() }
func (r arenaRules[C, G, S, D]) PolicyBot(m *policy.Model) BotFactory[S, D] {
	return r.def.PolicyFactory(m)
}
func (r arenaRules[C, G, S, D]) CppBot(prog *cppbot.Program) BotFactory[S, D] {
	return r.def.CppFactory(prog)
}

// NewMatch starts a game with the bots for arena.Host.Play.
func (r arenaRules[C, G, S, D]) NewMatch(cfg C, seed int, names [NumSeats]string, bots [NumSeats]Bot[S, D]) (arena.Match, error) {
	m, err := r.def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		return nil, err
	}
	return arenaMatch[C, G, S, D]{m}, nil
}

// Verify checks a trace: replayed from its command log when commands is
// not nil, else against the rules.
func (r arenaRules[C, G, S, D]) Verify(trace, commands []byte, cfg *C) error {
	var log *CommandLog[D]
	if commands != nil {
		var err error
		if log, err = r.def.ParseCommandLog(bytes.NewReader(commands)); err != nil {
			return &arena.CommandsError{Err: err}
		}
	}
	return r.def.Verify(trace, log, cfg)
}

// arenaMatch is a Match as arena.Host plays it, with the command log it
// records. A game the course program aborts, or a bot's failure, ends with
// its error, the trace written as the course program leaves it and the log
// up to the last round played.
type arenaMatch[C Config, G, S any, D Dir] struct{ m *Match[C, G, S, D] }

func (a arenaMatch[C, G, S, D]) Trace(w io.Writer)     { a.m.WriteTrace(w) }
func (a arenaMatch[C, G, S, D]) Scores() [NumSeats]int { return a.m.Scores() }

func (a arenaMatch[C, G, S, D]) Play(ctx context.Context, record bool) error {
	if record {
		a.m.Record()
	}
	return a.m.Run(ctx)
}

func (a arenaMatch[C, G, S, D]) WriteCommands(w io.Writer) error {
	if a.m.log == nil {
		return errors.New("no command log was recorded")
	}
	return a.m.log.Write(w)
}

// ParseCommandLog reads a command file of the game.
func (d *Def[C, G, S, D]) ParseCommandLog(r io.Reader) (*CommandLog[D], error) {
	return ParseCommandLog[D](r, d.LogFirstRound, d.LogDirs)
}

// Arena returns the game for the command line's machinery (package
// arena): its configurations, its bots ("policy:" and "cpp:" seats through
// an arena.Loader), one game with its trace and command log, and trace
// verification.
func (d *Def[C, G, S, D]) Arena() arena.Game { return d.arena }

// ResolveBot turns a seat name into a bot factory: a registered bot, or
// "policy:REF" (an ONNX policy) or "cpp:REF" (a C++ bot of the kit) whose
// file l loads. The closer, if not nil, releases what the bot holds once
// no game uses it any more.
func (d *Def[C, G, S, D]) ResolveBot(name string, l arena.Loader) (BotFactory[S, D], io.Closer, error) {
	return d.arena.Resolve(name, l)
}

func errNoKit(game string) error {
	return fmt.Errorf("%s has no course kit: cpp: seats are not offered", game)
}
