package moria

import (
	"fmt"
	"io"
)

// Match is a game with four bots, as the kit's Game program runs it
// (SPEC §7): each round every bot plays on the state, then the engine plays
// the round.
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
// in the trace. A nil bot gives no orders.
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

// Orders returns the orders player p gave in the last round played (after
// the player-side filter): what a command log records.
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
			return fmt.Errorf("round %d: player %d (%s): %w", m.Round+1, p, m.Names[p], err)
		}
		if be, ok := m.Bots[p].(BotErr); ok {
			if err := be.Err(); err != nil {
				return fmt.Errorf("round %d: player %d (%s): %w", m.Round+1, p, m.Names[p], err)
			}
		}
		m.cmds[p] = o.List()
	}
	return m.StepTraced(&m.cmds)
}

// StepTraced plays one round with the given commands and writes it to the
// trace, if any. When the engine aborts, nothing of the round is written,
// as with the course program.
func (m *Match) StepTraced(cmds *[NumPlayers][]Command) error {
	if err := m.Step(cmds); err != nil {
		return err
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

// WriteResults writes the end of game report of the course program's
// standard error (SPEC §9): each player's score, the top scorers, "game
// played".
func WriteResults(w io.Writer, s *State, names [NumPlayers]string) error {
	var b []byte
	for p := 0; p < NumPlayers; p++ {
		b = fmt.Appendf(b, "info: player %s got score %d\n", names[p], s.Score(p))
	}
	b = append(b, "info: player(s)"...)
	for _, p := range s.Winners() {
		b = append(b, ' ')
		b = append(b, names[p]...)
	}
	b = append(b, " got top score\ninfo: game played\n"...)
	_, err := w.Write(b)
	return err
}
