package game

import (
	"context"
	"errors"
	"fmt"
	"io"

	"jgym/course"
)

// Match is one game at a table of four seats as the kits' Game program
// plays it: each round every seat's bot gives its orders on the state as
// it sees it, in seat order, then the engine plays the round; the trace
// and the command log record it. The env's tables add the learners'
// orders (PlayRound's more). It is driven by one goroutine.
type Match[C Config, G, S any, D Dir] struct {
	def *Def[C, G, S, D]
	cfg C
	// Game is the engine.
	Game  G
	Seed  int
	Names [NumSeats]string
	Bots  [NumSeats]Bot[S, D]

	orders [NumSeats]Orders[D]
	cmds   [NumSeats][]Command[D]
	views  *[NumSeats]S // the bots' views (Def.View), allocated on first use
	trace  Tracer[G]
	log    *CommandLog[D]
	err    error // the error that ended the game, sticky
	// rebuilt is the round a game rebuilt from a trace without its
	// commands started at (0 otherwise): its earlier rounds are unknown.
	rebuilt int
}

// NewMatch starts a game of cfg with the seed: bots[p] plays player p (a
// nil bot gives no orders), named names[p] in the trace (1 to 12
// printable characters without spaces, or ErrBadName).
func (d *Def[C, G, S, D]) NewMatch(cfg C, seed int, names [NumSeats]string, bots [NumSeats]Bot[S, D]) (*Match[C, G, S, D], error) {
	for p, n := range names {
		if !course.ValidName(n) {
			return nil, fmt.Errorf("player %d: %w %q: want 1 to 12 printable characters without spaces", p, ErrBadName, n)
		}
	}
	g, err := d.New(cfg, seed)
	if err != nil {
		return nil, err
	}
	return d.matchOf(cfg, seed, names, bots, g), nil
}

// matchOf is a match of the engine g.
func (d *Def[C, G, S, D]) matchOf(cfg C, seed int, names [NumSeats]string, bots [NumSeats]Bot[S, D], g G) *Match[C, G, S, D] {
	m := &Match[C, G, S, D]{def: d, cfg: cfg, Game: g, Seed: seed, Names: names, Bots: bots}
	for p := range m.orders {
		m.orders[p].rules = &d.Orders
	}
	return m
}

// NewBotMatch starts a game with the registered bots of the names.
func (d *Def[C, G, S, D]) NewBotMatch(cfg C, seed int, names [NumSeats]string) (*Match[C, G, S, D], error) {
	var bots [NumSeats]Bot[S, D]
	for p, n := range names {
		f, err := d.Bots.Lookup(n)
		if err != nil {
			return nil, fmt.Errorf("player %d: %w", p, err)
		}
		bots[p] = f(p, seed)
	}
	return d.NewMatch(cfg, seed, names, bots)
}

// Config is the match's configuration.
func (m *Match[C, G, S, D]) Config() *C { return &m.cfg }

// State is the engine's current state.
func (m *Match[C, G, S, D]) State() *S { return m.def.State(m.Game) }

// Round is the number of rounds played.
func (m *Match[C, G, S, D]) Round() int { return m.def.Round(m.Game) }

// Done reports whether the last round was played.
func (m *Match[C, G, S, D]) Done() bool { return m.def.Round(m.Game) >= m.cfg.Rounds() }

// Scores are the players' current scores.
func (m *Match[C, G, S, D]) Scores() [NumSeats]int { return m.def.Scores(m.Game) }

// Err is the error that ended the game early, if any.
func (m *Match[C, G, S, D]) Err() error { return m.err }

// Orders returns the command list player p handed to the engine in the
// last round played (after the player-side filter).
func (m *Match[C, G, S, D]) Orders(p int) []Command[D] { return m.cmds[p] }

// WriteTrace makes the match write its trace to w: the header and the
// current state now, every round as it is played. Call it before the first
// round.
func (m *Match[C, G, S, D]) WriteTrace(w io.Writer) error {
	m.trace = m.def.Trace(w, &m.cfg, m.Seed, m.Names, m.Game)
	return m.trace.Err()
}

// EndTrace stops writing the trace and returns its first write error.
func (m *Match[C, G, S, D]) EndTrace() error {
	if m.trace == nil {
		return nil
	}
	err := m.trace.Err()
	m.trace = nil
	return err
}

// Record makes the match record the command lists of every round it plays
// from now on; Log returns them.
func (m *Match[C, G, S, D]) Record() { m.log = &CommandLog[D]{First: m.def.LogFirstRound} }

// Log is the recorded command log (nil without Record).
func (m *Match[C, G, S, D]) Log() *CommandLog[D] { return m.log }

// PlayRound plays one round with the bots' orders.
func (m *Match[C, G, S, D]) PlayRound() error { return m.Play(nil) }

// Play plays one round: each seat's bot gives its orders on its view, in
// seat order, then more (if not nil) adds the orders of player p (the
// env's learners); then the engine plays the round and the trace and the
// log record it. A bot that fails, a player's 1001st command or an engine
// error ends the game: Play returns the error, now and after.
func (m *Match[C, G, S, D]) Play(more func(p int, o *Orders[D])) error {
	if m.err != nil {
		return m.err
	}
	if m.Done() {
		return ErrGameOver
	}
	def, s := m.def, m.State()
	round := def.Round(m.Game) + 1
	n := def.NumUnits(s)
	for p := range m.orders {
		o := &m.orders[p]
		o.Reset(n)
		if b := m.Bots[p]; b != nil {
			m.playBot(b, s, p, o)
			if be, ok := b.(BotErr); ok {
				if err := be.Err(); err != nil {
					m.err = fmt.Errorf("round %d: player %d (%s): %w", round, p, m.Names[p], err)
					return m.err
				}
			}
		}
		if more != nil {
			more(p, o)
		}
		if err := o.Err(); err != nil {
			m.err = fmt.Errorf("round %d: player %d (%s): %w", round, p, m.Names[p], err)
			return m.err
		}
		m.cmds[p] = o.List()
	}
	return m.step(&m.cmds, round)
}

// Step plays one round with the given command lists (a replay: no bot is
// asked), which the trace and the log record as Play's.
func (m *Match[C, G, S, D]) Step(cmds *[NumSeats][]Command[D]) error {
	if m.err != nil {
		return m.err
	}
	if m.Done() {
		return ErrGameOver
	}
	return m.step(cmds, m.def.Round(m.Game)+1)
}

// step has the engine play the round (round, from 1, for messages).
func (m *Match[C, G, S, D]) step(cmds *[NumSeats][]Command[D], round int) error {
	err := m.def.Step(m.Game, cmds)
	if m.trace != nil {
		m.trace.Round(m.Game, err)
	}
	if m.log != nil && (err == nil || errors.Is(err, ErrAbort)) {
		m.log.Record(cmds)
	}
	if err != nil {
		m.err = fmt.Errorf("round %d: %w", round, err)
		return m.err
	}
	if m.trace != nil {
		if err := m.trace.Err(); err != nil {
			m.err = fmt.Errorf("write trace: %w", err)
			return m.err
		}
	}
	return nil
}

// playBot asks bot b of player p for its orders on the state s as p sees
// it: a MatchBot gets the match, a Blind bot nothing to read, a SeatBot
// the real state and its seat, another bot the view of Def.View.
func (m *Match[C, G, S, D]) playBot(b Bot[S, D], s *S, p int, o *Orders[D]) {
	if mb, ok := b.(MatchBot[C, G, S, D]); ok {
		mb.PlayMatch(m, p, o)
		return
	}
	var scratch *S
	if m.def.View != nil {
		if m.views == nil { // a game without views holds no copies of its state
			m.views = new([NumSeats]S)
		}
		scratch = &m.views[p]
	}
	playBot(m.def, b, s, p, scratch, o)
}

// playBot is Match.playBot with the view's scratch space.
func playBot[C Config, G, S any, D Dir](def *Def[C, G, S, D], b Bot[S, D], s *S, p int, scratch *S, o *Orders[D]) {
	if _, ok := b.(Blind); ok {
		b.Play(nil, o)
		return
	}
	if sb, ok := b.(SeatBot[S, D]); ok {
		sb.PlaySeat(s, p, o)
		return
	}
	if def.View != nil {
		s = def.View(s, p, scratch)
	}
	b.Play(s, o)
}

// Run plays every remaining round, stopping early when ctx is done.
func (m *Match[C, G, S, D]) Run(ctx context.Context) error {
	for !m.Done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := m.PlayRound(); err != nil {
			return err
		}
	}
	return nil
}
