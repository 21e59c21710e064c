package dominator

import (
	"fmt"
	"io"

	"jgym/course"
)

// Match is a game with four bots, as the kit's Game program runs it
// (SPEC §7): each round every bot plays on its view of the state, then the
// engine plays the round.
type Match struct {
	*Game
	Names  [NumPlayers]string
	Bots   [NumPlayers]Bot
	orders [NumPlayers]Orders
	cmds   [NumPlayers][]Command
	views  [NumPlayers]State
	trace  *TraceWriter
}

// checkNames checks the names a trace will show: 1 to 12 characters
// without spaces, as the course program requires (SPEC §13).
func checkNames(names [NumPlayers]string) error {
	for p, n := range names {
		if !course.ValidName(n) {
			return fmt.Errorf("%w: player %d: name %q is not 1 to 12 printable characters without spaces", ErrAbort, p, n)
		}
	}
	return nil
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
// in the trace (1 to 12 characters without spaces). A nil bot gives no
// orders.
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

// Orders returns the command list player p gave in the last round played
// (after the player-side filter): a command-log line (SPEC §15.1).
func (m *Match) Orders(p int) []Command { return m.cmds[p] }

// View writes player p's view of the current state into dst (see
// State.View).
func (m *Match) View(p int, dst *State) { m.State.View(p, dst) }

// PlayRound asks each bot for its orders, in seat order, and plays one
// round. A bot making more than MaxCommands calls aborts the game, as in
// the kit.
func (m *Match) PlayRound() error { return m.playRound(nil) }

// playRound is PlayRound; more, if not nil, adds orders for each player
// after its bot (the env's learners).
func (m *Match) playRound(more func(p int, o *Orders)) error {
	if err := m.Game.Err(); err != nil {
		return err
	}
	if m.Done() {
		return ErrGameOver
	}
	for p := 0; p < NumPlayers; p++ {
		o := &m.orders[p]
		o.Reset(len(m.Units))
		if b := m.Bots[p]; b != nil {
			if _, ok := b.(blindBot); ok {
				b.Play(nil, o)
			} else if sb, ok := b.(SeatBot); ok {
				sb.PlaySeat(&m.State, p, o)
			} else {
				v := &m.State
				if p != 0 {
					v = &m.views[p]
					m.State.View(p, v)
				}
				b.Play(v, o)
			}
			if be, ok := b.(BotErr); ok {
				if err := be.Err(); err != nil {
					return fmt.Errorf("round %d: player %d (%s): %w", m.Round+1, p, m.Names[p], err)
				}
			}
		}
		if more != nil {
			more(p, o)
		}
		if err := o.Err(); err != nil {
			m.Game.err = fmt.Errorf("round %d: player %d (%s): %w", m.Round+1, p, m.Names[p], err)
			return m.Game.err
		}
		m.cmds[p] = o.List()
	}
	return m.StepTraced(&m.cmds)
}

// StepTraced plays one round with the given command lists and writes it
// to the trace, if any.
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

// WriteResults prints the final scores and the winners as the course
// program prints them on its standard error (SPEC §9).
func (m *Match) WriteResults(w io.Writer) error {
	return WriteResults(w, &m.State, m.Names)
}

// WriteResults prints "info: player <name> got score <total>" for each
// player and "info: player(s) <names> got top score" (SPEC §9).
func WriteResults(w io.Writer, s *State, names [NumPlayers]string) error {
	for p := 0; p < NumPlayers; p++ {
		if _, err := fmt.Fprintf(w, "info: player %s got score %d\n", names[p], s.TotalScore[p]); err != nil {
			return err
		}
	}
	line := "info: player(s)"
	for _, p := range s.Winners() {
		line += " " + names[p]
	}
	_, err := fmt.Fprintln(w, line+" got top score")
	return err
}
