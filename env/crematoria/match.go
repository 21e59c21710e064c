package crematoria

import (
	"fmt"
	"io"
)

// BotErr is implemented by bots that can fail, such as C++ bots running in
// their own process (CppBot, package cppbot): after each Play, PlayRound
// ends the game with the bot's error.
type BotErr interface{ Err() error }

// Match is a game with four bots, as the kit's Game program runs it
// (SPEC §7): each round every bot plays on a snapshot of the state, then the
// engine plays the round.
type Match struct {
	*Game
	Names  [NumPlayers]string
	Bots   [NumPlayers]Bot
	orders [NumPlayers]Orders
	cmds   [NumPlayers][]Command
	trace  *TraceWriter
}

// NewMatch builds a game and seats the named registered bots.
func NewMatch(cfg Config, seed int, names [NumPlayers]string) (*Match, error) {
	var fs [NumPlayers]BotFactory
	for p, n := range names {
		f, err := LookupBot(n)
		if err != nil {
			return nil, fmt.Errorf("player %d: %w", p, err)
		}
		fs[p] = f
	}
	g, err := New(cfg, seed)
	if err != nil {
		return nil, err
	}
	m := &Match{Game: g, Names: names}
	for p, f := range fs {
		m.Bots[p] = f(p, seed)
	}
	return m, nil
}

// NewMatchWithBots seats the given bots in a new game; names are only used
// in the trace.
func NewMatchWithBots(cfg Config, seed int, names [NumPlayers]string, bots [NumPlayers]Bot) (*Match, error) {
	g, err := New(cfg, seed)
	if err != nil {
		return nil, err
	}
	return &Match{Game: g, Names: names, Bots: bots}, nil
}

// WriteTrace makes the match write its trace to w, starting with the header
// and the current state. Call it before the first round.
func (m *Match) WriteTrace(w io.Writer) {
	m.trace = NewTraceWriter(w)
	m.trace.Header(&m.cfg, m.seed, m.Names)
	m.trace.State(&m.State)
}

// Orders returns the accepted orders of player p in the last round played.
func (m *Match) Orders(p int) []Command { return m.cmds[p] }

// PlayRound asks each bot for its orders and plays one round.
func (m *Match) PlayRound() error {
	for p := 0; p < NumPlayers; p++ {
		o := &m.orders[p]
		o.Reset(len(m.Units))
		if m.Bots[p] != nil {
			m.Bots[p].Play(&m.State, o)
		}
		if err := o.Err(); err != nil {
			return fmt.Errorf("round %d: player %d (%s): %w", m.Round, p, m.Names[p], err)
		}
		if be, ok := m.Bots[p].(BotErr); ok {
			if err := be.Err(); err != nil {
				return fmt.Errorf("round %d: player %d (%s): %w", m.Round, p, m.Names[p], err)
			}
		}
		m.cmds[p] = o.List()
	}
	return m.StepTraced(&m.cmds)
}

// StepTraced plays one round with the given commands and writes it to the
// trace, if any.
func (m *Match) StepTraced(cmds *[NumPlayers][]Command) error {
	if err := m.Step(cmds); err != nil {
		return fmt.Errorf("round %d: %w", m.Round, err)
	}
	if m.trace != nil {
		m.trace.Movements(m.Moves)
		m.trace.State(&m.State)
		if err := m.trace.Err(); err != nil {
			return fmt.Errorf("write trace: %w", err)
		}
	}
	return nil
}

// Run plays every remaining round.
func (m *Match) Run() error {
	for !m.Done() {
		if err := m.PlayRound(); err != nil {
			return err
		}
	}
	return nil
}
