package game

import (
	"fmt"
	"io"

	"jgym/env"
)

var _ env.StateTable[Bot[int, int8]] = (*table[nopConfig, int, int, int8])(nil)

// SaveGame appends the game's part of a saved state: its recorded command
// lists (Match.AppendLog).
func (t *table[C, G, S, D]) SaveGame(dst []byte) ([]byte, error) {
	if t.m == nil {
		return dst, fmt.Errorf("%w: no game", ErrUnsaved)
	}
	return t.m.AppendLog(dst)
}

// RestoreGame replaces the game by the replay of a saved one (Def.Restore).
func (t *table[C, G, S, D]) RestoreGame(seed int64, names [NumSeats]string, bots [NumSeats]Bot[S, D], saved []byte) error {
	m, err := t.def.Restore(*t.cfg, int(seed), names, bots, saved)
	if err != nil {
		return err
	}
	t.started(m, names)
	return nil
}

// started makes m the table's game, its trace headed with names.
func (t *table[C, G, S, D]) started(m *Match[C, G, S, D], names [NumSeats]string) {
	t.m, t.traceNames = m, names
	for _, c := range t.credit {
		clear(c)
	}
}

// TraceSeed reads a trace's header: its seed. The trace must be a whole
// game of the table's configuration.
func (t *table[C, G, S, D]) TraceSeed(trace []byte) (int64, error) {
	rs, err := t.def.Replay(trace, t.cfg)
	if err != nil {
		return 0, fmt.Errorf("%w: trace: %s", ErrBadState, clipErr(err))
	}
	return int64(rs.Seed()), nil
}

// ResetFromTrace starts the game of a trace at a round (Def.StartFromTrace).
func (t *table[C, G, S, D]) ResetFromTrace(seed int64, names [NumSeats]string, bots [NumSeats]Bot[S, D], trace, commands []byte, round int) error {
	m, tnames, err := t.def.StartFromTrace(*t.cfg, trace, commands, round, names, bots)
	if err != nil {
		return err
	}
	if int64(m.Seed) != seed {
		return fmt.Errorf("%w: trace seed %d, want %d", ErrBadState, m.Seed, seed)
	}
	t.started(m, tnames)
	return nil
}

// startTrace makes the match write its trace to w: from its start when
// the game was restored or started from a trace (Match.WriteTraceFrom),
// from the round it was rebuilt at when it was rebuilt from a trace
// without its commands.
func (t *table[C, G, S, D]) startTrace(w io.Writer) error {
	if m := t.m; m.Round() == 0 && t.traceNames == m.Names || m.rebuilt > 0 {
		return m.WriteTrace(w)
	}
	return t.m.WriteTraceFrom(w, t.traceNames)
}

// clipErr is an error's message for a client, cut to a bounded length.
func clipErr(err error) string {
	s := err.Error()
	if len(s) > 160 {
		return s[:160] + "..."
	}
	return s
}
