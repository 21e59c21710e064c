package game

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"jgym/env"
)

// Saved states: the design.
//
// A game's saved state is the game as the kits' Game program would replay
// it: its seed (with the seating, the env's part) and the command lists
// every player handed to the engine in every round played so far (after
// the player-side filter), which a Match records as it plays (Record).
// Restoring starts the game of the seed again with fresh bots of the same
// seats and plays the recorded rounds: every bot is asked for its orders
// on every round, as in the original game, so its memory and its random
// generator (seeded seed+me+1) are where they were; the engine gets the
// recorded lists. The engines are deterministic functions of the
// configuration, the seed and the command lists (their traces are
// byte-exact with the course programs'), so the restored game is the
// original one: observations, rewards, scores and trace bytes from then
// on are the same. Nothing game-specific is saved, so every game has
// saved states through its Def alone.
//
// A state from a client is untrusted input, checked as it is replayed:
// each recorded list must be one the player-side filter gives (so the
// engine sees only what a player could hand it), each bot must give the
// orders it recorded (a bot whose orders cannot be replayed, or a forged
// list for a bot's seat, is an error), and the rounds must fit the game.
// A C++ bot (in its own process) cannot be replayed: a match with one is
// not saved (env.ErrUnsaved).
//
// Restoring costs a replay of the rounds played, bots included: with the
// strong bots that is most of the cost (tens to hundreds of milliseconds
// at mid-game; gametest.BenchStates measures it per game). Clone is the
// same replay in process, without the encoding; a Clone without bots
// replays the engine alone. A search wants Copy (copy.go), the engine and
// bots copied in process in microseconds.

// ErrBadState and ErrUnsaved are env's (errors of saved states).
var (
	ErrBadState = env.ErrBadState
	ErrUnsaved  = env.ErrUnsaved
)

// Unsaved is implemented by bots whose state a saved state cannot hold,
// such as a C++ bot in its own process: a match with one cannot be saved.
type Unsaved interface{ Unsaved() }

// Unsaved marks a C++ bot as a bot whose state cannot be saved.
func (b *CppBot[S, D]) Unsaved() {}

// CanSave reports why the match cannot be saved: a seat's bot that cannot
// be replayed, a game that ended with an error, or a match that does not
// record its commands (nil: it can).
func (m *Match[C, G, S, D]) CanSave() error {
	if m.rebuilt > 0 {
		return fmt.Errorf("%w: a game rebuilt from round %d of a trace without its command file (its first rounds are unknown)", ErrUnsaved, m.rebuilt)
	}
	if m.log == nil {
		return fmt.Errorf("%w: the match does not record its commands", ErrUnsaved)
	}
	if m.err != nil {
		return fmt.Errorf("%w: the game ended with an error", ErrUnsaved)
	}
	for p, b := range m.Bots {
		if _, ok := b.(Unsaved); ok {
			return fmt.Errorf("%w: player %d (%s) is a bot whose state cannot be saved", ErrUnsaved, p, m.Names[p])
		}
	}
	return nil
}

// AppendLog appends the recorded command lists of the match to dst in the
// compact form of saved states: the number of rounds, then for each round
// and player the number of commands and each command's id and direction
// (varints).
func (m *Match[C, G, S, D]) AppendLog(dst []byte) ([]byte, error) {
	if err := m.CanSave(); err != nil {
		return dst, err
	}
	dst = binary.AppendUvarint(dst, uint64(len(m.log.Rounds)))
	for k := range m.log.Rounds {
		for _, cmds := range m.log.Rounds[k] {
			dst = binary.AppendUvarint(dst, uint64(len(cmds)))
			for _, c := range cmds {
				dst = binary.AppendVarint(dst, int64(c.ID))
				dst = binary.AppendVarint(dst, int64(c.Dir))
			}
		}
	}
	return dst, nil
}

// decodeLog reads the compact command lists of AppendLog: at most rounds
// rounds, every list within the player-side filter's bounds, nothing left
// over.
func (d *Def[C, G, S, D]) decodeLog(b []byte, rounds int) (*CommandLog[D], error) {
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrBadState, what) }
	r := bytes.NewReader(b)
	n, err := binary.ReadUvarint(r)
	if err != nil || n > uint64(rounds) {
		return nil, bad(fmt.Sprintf("rounds: want 0..%d", rounds))
	}
	log := &CommandLog[D]{First: d.LogFirstRound, Rounds: make([][NumSeats][]Command[D], n)}
	for k := range log.Rounds {
		for p := range NumSeats {
			c, err := binary.ReadUvarint(r)
			if err != nil || c > MaxCommands || c > uint64(r.Len()) {
				return nil, bad(fmt.Sprintf("round %d player %d: command count", k, p))
			}
			cmds := make([]Command[D], c)
			for i := range cmds {
				id, err1 := binary.ReadVarint(r)
				dir, err2 := binary.ReadVarint(r)
				if err := errors.Join(err1, err2); err != nil || id < -1<<31 || id >= 1<<31 || dir < int64(d.LogDirs[0]) || dir > int64(d.LogDirs[1]) {
					return nil, bad(fmt.Sprintf("round %d player %d: command %d", k, p, i))
				}
				cmds[i] = Command[D]{ID: int(id), Dir: D(dir)}
			}
			log.Rounds[k][p] = cmds
		}
	}
	if r.Len() != 0 {
		return nil, bad(fmt.Sprintf("%d bytes after the last round", r.Len()))
	}
	return log, nil
}

// replayMode is how Match.replay treats the bots' orders.
type replayMode int

const (
	// replayCheck: every bot must give the orders recorded for its seat
	// (a saved state).
	replayCheck replayMode = iota
	// replayShadow: the bots play, their orders unused; every seat's
	// recorded list is handed to the engine (a trace start).
	replayShadow
	// replayEngine: no bot is asked (a trace's own replay).
	replayEngine
)

// replay plays the first k rounds of log on the match, which must be at
// its start and record its commands. Errors wrap ErrBadState, except a
// bot's own failure.
func (m *Match[C, G, S, D]) replay(log *CommandLog[D], k int, mode replayMode) error {
	def := m.def
	var check Orders[D]
	check.rules = &def.Orders
	for i := range k {
		if m.Done() {
			return fmt.Errorf("%w: %d rounds for a game of %d", ErrBadState, k, m.cfg.Rounds())
		}
		round := def.Round(m.Game) + 1
		s := m.State()
		n := def.NumUnits(s)
		rec := log.Round(i)
		for p := range m.orders {
			// A recorded list must be what the player-side filter gives.
			check.Reset(n)
			for _, c := range rec[p] {
				check.Command(c.ID, c.Dir)
			}
			if check.Err() != nil || !slices.Equal(check.List(), rec[p]) {
				return fmt.Errorf("%w: round %d player %d: a list the player-side filter cannot give", ErrBadState, round, p)
			}
			b := m.Bots[p]
			if b == nil || mode == replayEngine {
				continue
			}
			o := &m.orders[p]
			o.Reset(n)
			m.playBot(b, s, p, o)
			if be, ok := b.(BotErr); ok {
				if err := be.Err(); err != nil {
					m.err = fmt.Errorf("round %d: player %d (%s): %w", round, p, m.Names[p], err)
					return m.err
				}
			}
			if mode == replayCheck && (o.Err() != nil || !slices.Equal(o.List(), rec[p])) {
				return fmt.Errorf("%w: round %d player %d (%s): the bot does not give the recorded orders", ErrBadState, round, p, m.Names[p])
			}
		}
		m.cmds = *rec
		if err := m.step(&m.cmds, round); err != nil {
			return fmt.Errorf("%w: %w", ErrBadState, err)
		}
	}
	return nil
}

// Restore starts a game of cfg with the seed and the bots, as NewMatch,
// and replays the compact command lists of a saved state (AppendLog) on
// it: the match that was saved, recording its commands. An error wraps
// ErrBadState (or is a bot's own failure).
func (d *Def[C, G, S, D]) Restore(cfg C, seed int, names [NumSeats]string, bots [NumSeats]Bot[S, D], saved []byte) (*Match[C, G, S, D], error) {
	log, err := d.decodeLog(saved, cfg.Rounds())
	if err != nil {
		return nil, err
	}
	m, err := d.NewMatch(cfg, seed, names, bots)
	if err != nil {
		return nil, err
	}
	m.Record()
	if err := m.replay(log, len(log.Rounds), replayCheck); err != nil {
		return nil, err
	}
	return m, nil
}

// Clone returns a copy of the match at its round with the given bots, new
// ones (a bot of the original is never shared): the replay of its
// recorded commands (see the design above), each bot checked to give the
// original's orders, so that the copy's bots are the original's. A nil
// bot's seat is replayed from the record without a bot: a Clone with no
// bots replays the engine alone, the cheap copy a search wants. The copy
// records its commands and writes no trace.
func (m *Match[C, G, S, D]) Clone(bots [NumSeats]Bot[S, D]) (*Match[C, G, S, D], error) {
	if err := m.CanSave(); err != nil {
		return nil, err
	}
	c, err := m.def.NewMatch(m.cfg, m.Seed, m.Names, bots)
	if err != nil {
		return nil, err
	}
	c.Record()
	if err := c.replay(m.log, len(m.log.Rounds), replayCheck); err != nil {
		return nil, err
	}
	return c, nil
}

// StartFromTrace starts a game of cfg at a round (0..its rounds) of a
// trace (plain bytes) with the lists of its command file (commands, the
// game's command-file format): the command file's lists replayed on the
// engine alone must give the trace's bytes to that round (so the start is
// bit-exact); then a match of the bots (names in its seats) replays them
// again, the bots asked for their orders (unused) so that their memories
// and generators are those of bots that sat there. It returns the match,
// recording its commands, and the names of the trace's header. Errors
// wrap ErrBadState (or are a bot's own failure).
//
// Without the command file (commands empty), the position at the round
// (0..its rounds-1) is rebuilt from the trace itself (Def.Rebuild on the
// state Replay gives) and the bots are new: the position is the trace's,
// everything the trace shows, but the engine's random generator is a
// fresh one (the generator of a new game of the trace's seed, after its
// map), not where the original's was, so the game plays on differently
// from the original even with the same commands, and the bots' memories
// are a new bot's. Such a game cannot be saved (the commands of its first
// rounds are unknown) unless it starts at round 0, which is the trace's
// own game; its trace begins at the round with the header and the
// position there (Match.WriteTrace).
func (d *Def[C, G, S, D]) StartFromTrace(cfg C, trace, commands []byte, round int, names [NumSeats]string, bots [NumSeats]Bot[S, D]) (*Match[C, G, S, D], [NumSeats]string, error) {
	var tnames [NumSeats]string
	if round < 0 || round > cfg.Rounds() {
		return nil, tnames, fmt.Errorf("%w: round %d out of range 0..%d", ErrBadState, round, cfg.Rounds())
	}
	rs, err := d.Replay(trace, &cfg)
	if err != nil {
		return nil, tnames, fmt.Errorf("%w: trace: %s", ErrBadState, clipErr(err))
	}
	seed := rs.Seed()
	tnames = rs.Names()
	if len(commands) == 0 {
		m, err := d.rebuildFromTrace(cfg, rs, round, names, bots)
		return m, tnames, err
	}
	log, err := d.ParseCommandLog(bytes.NewReader(commands))
	if err == nil {
		err = log.Check(cfg.Rounds(), &d.Orders)
	}
	if err != nil {
		return nil, tnames, fmt.Errorf("%w: %s", ErrBadState, clipErr(err))
	}
	for k := range round {
		if !log.Complete(k) {
			return nil, tnames, fmt.Errorf("%w: the command file has no lines of round %d for every player", ErrBadState, k+log.First)
		}
	}
	e, err := d.NewMatch(cfg, seed, tnames, [NumSeats]Bot[S, D]{})
	if err != nil {
		return nil, tnames, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	var buf bytes.Buffer
	if err := e.WriteTrace(&buf); err != nil {
		return nil, tnames, err
	}
	if err := e.replay(log, round, replayEngine); err != nil {
		return nil, tnames, err
	}
	if got := buf.Bytes(); !bytes.HasPrefix(trace, got) {
		at := 0
		for at < len(got) && at < len(trace) && got[at] == trace[at] {
			at++
		}
		return nil, tnames, fmt.Errorf("%w: the command file does not give the trace's rounds 1..%d (first difference at byte %d)", ErrBadState, round, at)
	}
	m, err := d.NewMatch(cfg, seed, names, bots)
	if err != nil {
		return nil, tnames, err
	}
	m.Record()
	if err := m.replay(log, round, replayShadow); err != nil {
		return nil, tnames, err
	}
	return m, tnames, nil
}

// rebuildFromTrace starts the game of rs at a round from the trace alone
// (see StartFromTrace).
func (d *Def[C, G, S, D]) rebuildFromTrace(cfg C, rs Rounds[C, S, D], round int, names [NumSeats]string, bots [NumSeats]Bot[S, D]) (*Match[C, G, S, D], error) {
	if d.Rebuild == nil {
		return nil, fmt.Errorf("%w: %s starts from a trace only with its command file", ErrBadState, d.Name)
	}
	if round >= cfg.Rounds() {
		return nil, fmt.Errorf("%w: round %d: without the command file a start is at round 0..%d (a round still to play)", ErrBadState, round, cfg.Rounds()-1)
	}
	for k := 0; k <= round; k++ {
		if !rs.Next() {
			if err := rs.Err(); err != nil {
				return nil, fmt.Errorf("%w: trace: round %d: %s", ErrBadState, k+1, clipErr(err))
			}
			return nil, fmt.Errorf("%w: the trace has no round %d", ErrBadState, k+1)
		}
	}
	fresh, err := d.New(cfg, rs.Seed())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	g, err := d.Rebuild(fresh, rs.State())
	if err != nil {
		return nil, fmt.Errorf("%w: round %d: %s", ErrBadState, round, clipErr(err))
	}
	if r := d.Round(g); r != round {
		return nil, fmt.Errorf("%w: the trace's state at round %d says round %d", ErrBadState, round, r)
	}
	m := d.matchOf(cfg, rs.Seed(), names, bots, g)
	if round == 0 {
		m.Record() // the trace's own game
	}
	m.rebuilt = round
	return m, nil
}

// WriteTraceFrom makes the match write its trace to w from the game's
// start, its header naming names: the rounds played so far (replayed on
// the engine alone from the recorded commands, into w), then every round
// as it is played. A restored match, or one started from a trace, writes
// the same bytes as the original game's trace.
func (m *Match[C, G, S, D]) WriteTraceFrom(w io.Writer, names [NumSeats]string) error {
	if m.log == nil || len(m.log.Rounds) != m.Round() {
		return fmt.Errorf("%w: the match does not record its commands", ErrUnsaved)
	}
	e, err := m.def.NewMatch(m.cfg, m.Seed, names, [NumSeats]Bot[S, D]{})
	if err != nil {
		return err
	}
	if err := e.WriteTrace(w); err != nil {
		return err
	}
	if err := e.replay(m.log, m.Round(), replayEngine); err != nil {
		return err
	}
	m.trace = e.trace
	return m.trace.Err()
}
