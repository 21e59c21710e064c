package toy

import (
	"bytes"
	"fmt"
	"strconv"

	"jgym/course"
	"jgym/game"
)

// Verify checks a trace (plain bytes). Without a command log it checks the
// rules: the initial state is the generator's for the header's seed and
// settings, every printed movement is a move the rules allow (each unit
// once a round), the state after each round is what the moves and the
// paint make of it (captured units dropped by the game's generator) and
// the trace holds every round (else an error wrapping game.ErrTruncated:
// an aborted game's trace, or a cut file). The order of the players' moves within a
// round is not checked: ignored commands are not printed. With the log it
// replays the players' commands and compares every byte. cfg, if not nil,
// must be the header's settings. It returns nil, a *course.Divergence or
// another error.
func Verify(trace []byte, log *game.CommandLog[Dir], cfg *Config) error {
	if log != nil {
		return verifyCommands(trace, log, cfg)
	}
	rs, err := replay(trace, cfg)
	if err != nil {
		return err
	}
	for rs.Next() {
	}
	if err := rs.Err(); err != nil {
		return err
	}
	if n := len(rs.tr.States) - 1; n < rs.tr.Config.NbRounds {
		return fmt.Errorf("%w: after round %d of %d", game.ErrTruncated, n, rs.tr.Config.NbRounds)
	}
	return nil
}

// Replay rebuilds the rounds of a trace for datasets, each checked by the
// rules as Verify checks them (game.Rounds).
func Replay(trace []byte, cfg *Config) (game.Rounds[Config, State, Dir], error) {
	return replay(trace, cfg)
}

func replay(trace []byte, cfg *Config) (*rounds, error) {
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return nil, err
	}
	if err := checkConfig(tr, cfg); err != nil {
		return nil, err
	}
	g, err := New(tr.Config, tr.Seed)
	if err != nil {
		return nil, err
	}
	if d := diffState(&g.State, tr, 0); d != nil {
		return nil, d
	}
	return &rounds{tr: tr, g: g}, nil
}

// checkConfig checks the header's settings against cfg, if not nil.
func checkConfig(tr *Trace, cfg *Config) error {
	if cfg != nil && *cfg != tr.Config {
		return &course.Divergence{Round: -1, Unit: -1, Field: "settings", Want: fmt.Sprintf("%+v", *cfg), Got: fmt.Sprintf("%+v", tr.Config)}
	}
	return nil
}

// rounds walks a parsed trace's rounds with the engine (game.Rounds).
type rounds struct {
	tr     *Trace
	g      *Game
	before State
	k      int // rounds rebuilt
	err    error
}

func (rs *rounds) Config() *Config                { return &rs.tr.Config }
func (rs *rounds) Seed() int                      { return rs.tr.Seed }
func (rs *rounds) Names() [NumPlayers]string      { return rs.tr.Names }
func (rs *rounds) State() *State                  { return &rs.before }
func (rs *rounds) Moves() []Command               { return rs.tr.Moves[rs.k-1] }
func (rs *rounds) Scores() (b, a [NumPlayers]int) { return rs.before.Scores(), rs.g.Scores() }
func (rs *rounds) Err() error                     { return rs.err }

// Next plays the next round's printed movements on the engine and checks
// the state after them against the trace's.
func (rs *rounds) Next() bool {
	if rs.err != nil || rs.k >= len(rs.tr.Moves) {
		return false
	}
	g, r := rs.g, rs.k+1
	rs.before.CopyFrom(&g.State)
	g.startRound()
	for i, m := range rs.tr.Moves[rs.k] {
		if !g.move(g.Units[m.ID].Player, m) {
			rs.err = &course.Divergence{Round: r, Unit: m.ID, Field: "movement", Line: rs.tr.MoveLines[rs.k] + 1 + i,
				Want: "a move the rules allow", Got: fmt.Sprintf("%q (blocked, or the unit's second move)", fmt.Sprintf("%d %c", m.ID, dirChars[m.Dir]))}
			return false
		}
	}
	g.paint()
	g.Round++
	if d := diffState(&g.State, rs.tr, r); d != nil {
		rs.err = d
		return false
	}
	rs.k++
	return true
}

// diffState compares the engine's state with the trace's after r rounds.
func diffState(want *State, tr *Trace, r int) *course.Divergence {
	got, line := &tr.States[r], tr.Lines[r]
	d := &course.Divergence{Round: r, Unit: -1}
	ws := want.Scores()
	switch {
	case ws != tr.Scores[r]:
		d.Field, d.Want, d.Got, d.Line = "scores", fmt.Sprint(ws), fmt.Sprint(tr.Scores[r]), line+1
		return d
	case want.Captures != got.Captures:
		d.Field, d.Want, d.Got, d.Line = "captures", fmt.Sprint(want.Captures), fmt.Sprint(got.Captures), line+2
		return d
	}
	cols := want.Cfg.Cols
	for i := range want.Grid {
		if want.Grid[i] != got.Grid[i] {
			d.Field, d.Want, d.Got, d.Line = fmt.Sprintf("cell (%d, %d)", i/cols, i%cols), string(want.Grid[i]), string(got.Grid[i]), line+3+i/cols
			return d
		}
	}
	for id, u := range want.Units {
		if g := got.Units[id]; g != u {
			d.Unit, d.Field, d.Line = id, "position", line+4+want.Cfg.Rows+id
			d.Want, d.Got = fmt.Sprintf("(%d, %d)", u.Row, u.Col), fmt.Sprintf("(%d, %d)", g.Row, g.Col)
			return d
		}
	}
	return nil
}

// verifyCommands replays the game of the trace's header with the command
// log and compares the trace it writes with trace, line by line.
func verifyCommands(trace []byte, log *game.CommandLog[Dir], cfg *Config) error {
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return err
	}
	if err := checkConfig(tr, cfg); err != nil {
		return err
	}
	if err := log.Check(tr.Config.NbRounds, &orderRules); err != nil {
		return err
	}
	g, err := New(tr.Config, tr.Seed)
	if err != nil {
		return err
	}
	var want bytes.Buffer
	tw := NewTraceWriter(&want, &tr.Config, tr.Seed, tr.Names, g)
	for k := 0; k < tr.Config.NbRounds && (k >= len(log.Rounds) || log.Complete(k)); k++ {
		err := g.Step(log.Round(k))
		tw.Round(g, err)
		if err != nil {
			break
		}
	}
	return diffLines(want.Bytes(), trace)
}

// diffLines returns the first line where got differs from want, as a
// divergence of the round whose block holds it, or nil.
func diffLines(want, got []byte) error {
	round := -1
	for n := 1; len(want) > 0 || len(got) > 0; n++ {
		w, wrest, _ := bytes.Cut(want, []byte("\n"))
		g, grest, _ := bytes.Cut(got, []byte("\n"))
		if r, ok := bytes.CutPrefix(w, []byte("round ")); ok {
			round, _ = strconv.Atoi(string(r))
		}
		switch {
		case len(want) == 0:
			return &course.Divergence{Round: round, Unit: -1, Field: "line", Want: "the end of the trace", Got: course.Quote(g), Line: n}
		case len(got) == 0:
			return &course.Divergence{Round: round, Unit: -1, Field: "line", Want: course.Quote(w), Got: "the end of the trace", Line: n}
		case !bytes.Equal(w, g):
			return &course.Divergence{Round: round, Unit: -1, Field: "line", Want: course.Quote(w), Got: course.Quote(g), Line: n}
		}
		want, got = wrest, grest
	}
	return nil
}
