package pandemic

import (
	"errors"
	"fmt"
	"io"

	"jgym/course"
)

// ErrBadName is returned for a player name the trace cannot hold: the kit
// accepts 1 to 12 characters, and a name is one token of the names line.
var ErrBadName = errors.New("bad player name")

// checkNames checks the four names of a match.
func checkNames(names [NumPlayers]string) error {
	for p, n := range names {
		if !course.ValidName(n) {
			return fmt.Errorf("player %d: %w %q: want 1 to 12 printable characters without spaces", p, ErrBadName, n)
		}
	}
	return nil
}

// Match is a game with four bots, as the kit's Game program runs it
// (SPEC §7): each round every bot plays on the state before the round, then
// the engine plays the round.
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
	if err := checkNames(names); err != nil {
		return nil, err
	}
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
	if err := checkNames(names); err != nil {
		return nil, err
	}
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

// Orders returns the accepted orders of player p in the last round played
// (the lists a command log records, SPEC §15.4).
func (m *Match) Orders(p int) []Command { return m.cmds[p] }

// PlayRound asks each bot for its orders and plays one round.
func (m *Match) PlayRound() error {
	if err := m.collect(); err != nil {
		return err
	}
	return m.StepTraced(&m.cmds)
}

// collect asks each bot for its orders of the round (Orders); it fails
// with the first player's error (too many commands, a bot that failed).
func (m *Match) collect() error {
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
	return nil
}

// StepTraced plays one round with the given commands and writes it to the
// trace, if any. When the round aborts after its commands block, the block
// is still written, as the course engine writes it before the virus phase.
func (m *Match) StepTraced(cmds *[NumPlayers][]Command) error {
	round := m.Round
	err := m.Step(cmds)
	if m.trace != nil && (err == nil || m.MovesDone) {
		m.trace.Commands(m.Moves)
		if err == nil {
			m.trace.State(&m.State)
		}
		if werr := m.trace.Err(); werr != nil && err == nil {
			return fmt.Errorf("write trace: %w", werr)
		}
	}
	if err != nil {
		return fmt.Errorf("round %d: %w", round, err)
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
