package toy

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"jgym/course"
)

// A trace is the configuration's text (Config.Text), "seed N", "names A B
// C D", then the state before the first round and, for every round, its
// movements block and the state after it:
//
//	(blank line)
//	round R            rounds played
//	scores a b c d
//	captures a b c d
//	..#.a.....         Rows lines of Cols cells: Blank, Wall, Paint+p
//	units
//	ID ROW COL         one line per unit, in id order
//
//	movements
//	ID D               the moves the round made, in order; D one of "urdl"
//	-1
//
// A game the engine aborts ends after the last state it wrote.

// TraceWriter writes the trace of a game as it is played (game.Tracer).
type TraceWriter struct {
	w   io.Writer
	b   []byte
	err error
}

// NewTraceWriter writes the header and the initial state of g to w.
func NewTraceWriter(w io.Writer, cfg *Config, seed int, names [NumPlayers]string, g *Game) *TraceWriter {
	t := &TraceWriter{w: w}
	t.b = append(t.b, cfg.Text()...)
	t.b = fmt.Appendf(t.b, "seed %d\nnames %s\n", seed, strings.Join(names[:], " "))
	t.b = appendState(t.b, &g.State)
	t.flush()
	return t
}

// Round writes the round g just played: its movements and the state
// after it; nothing of a round that aborted (err not nil).
func (t *TraceWriter) Round(g *Game, err error) {
	if err != nil {
		return
	}
	t.b = append(t.b, "\nmovements\n"...)
	for _, m := range g.Moves {
		t.b = strconv.AppendInt(t.b, int64(m.ID), 10)
		t.b = append(t.b, ' ', dirChars[m.Dir], '\n')
	}
	t.b = append(t.b, "-1\n"...)
	t.b = appendState(t.b, &g.State)
	t.flush()
}

// Err is the first write error.
func (t *TraceWriter) Err() error { return t.err }

func (t *TraceWriter) flush() {
	if t.err == nil {
		_, t.err = t.w.Write(t.b)
	}
	t.b = t.b[:0]
}

// appendState appends the state block of s.
func appendState(b []byte, s *State) []byte {
	b = fmt.Appendf(b, "\nround %d\n", s.Round)
	sc := s.Scores()
	b = appendInts(b, "scores", sc[:])
	b = appendInts(b, "captures", s.Captures[:])
	for r := range s.Cfg.Rows {
		b = append(b, s.Grid[r*s.Cfg.Cols:(r+1)*s.Cfg.Cols]...)
		b = append(b, '\n')
	}
	b = append(b, "units\n"...)
	for id, u := range s.Units {
		b = fmt.Appendf(b, "%d %d %d\n", id, u.Row, u.Col)
	}
	return b
}

func appendInts(b []byte, label string, v []int) []byte {
	b = append(b, label...)
	for _, x := range v {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, '\n')
}

// Trace is a parsed trace.
type Trace struct {
	Config Config
	Seed   int
	Names  [NumPlayers]string
	// States[r] is the state after r rounds.
	States []State
	// Scores[r] is the scores line of States[r].
	Scores [][NumPlayers]int
	// Moves[r] are the movements of round r+1.
	Moves [][]Command
	// Lines[r] is the line of the "round" line of States[r], MoveLines[r]
	// that of the "movements" line of Moves[r].
	Lines, MoveLines []int
}

// moveBlock is the movements block for course.ReadMoves.
var moveBlock = course.MoveBlock{Keyword: "movements", Noun: "movement", Want: "<u|r|d|l>", Chars: dirChars}

// ParseTrace reads a trace (plain or gzipped), strictly: every line as
// TraceWriter writes it. A trace may end after any state (an aborted
// game's); Verify checks that it is whole. Errors wrap course.ErrTrace.
func ParseTrace(r io.Reader) (*Trace, error) {
	p, err := course.NewTraceReader(r, 256)
	if err != nil {
		return nil, err
	}
	tr := &Trace{}
	if err := p.Literal(Version); err != nil {
		return nil, err
	}
	for i, f := range tr.Config.fields() {
		if *f, err = p.IntAfter(configKeys[i].name + " "); err != nil {
			return nil, err
		}
	}
	if err := tr.Config.Validate(); err != nil {
		return nil, p.Fail("%v", err)
	}
	if tr.Seed, err = p.IntAfter("seed "); err != nil {
		return nil, err
	}
	if tr.Seed < 0 {
		return nil, p.Fail("negative seed %d", tr.Seed)
	}
	if err := p.Names("names", `"names" and four names`, tr.Names[:]); err != nil {
		return nil, err
	}
	n := tr.Config.NumUnits()
	for r := 0; ; r++ {
		p.Round = r
		if r > 0 {
			if eof, err := p.AtEOF(); err != nil || eof {
				return tr, err
			}
			if err := p.Literal(""); err != nil {
				return nil, err
			}
			tr.MoveLines = append(tr.MoveLines, p.Line+1)
			moves, err := course.ReadMoves(p, moveBlock, n, func(id int, c byte) (Command, bool) {
				d := strings.IndexByte(dirChars, c)
				return Command{ID: id, Dir: Dir(d)}, id < n && d >= 0
			})
			if err != nil {
				return nil, err
			}
			tr.Moves = append(tr.Moves, moves)
		}
		if err := tr.parseState(p, r); err != nil {
			return nil, err
		}
		if r == tr.Config.NbRounds {
			return tr, p.End(r)
		}
	}
}

// parseState reads the state block after r rounds.
func (tr *Trace) parseState(p *course.TraceReader, r int) error {
	cfg := &tr.Config
	s := State{Cfg: cfg, Units: make([]Unit, cfg.NumUnits())}
	if err := p.Literal(""); err != nil {
		return err
	}
	tr.Lines = append(tr.Lines, p.Line+1)
	if err := p.Literal("round " + strconv.Itoa(r)); err != nil {
		return err
	}
	var v [NumPlayers]int
	if err := p.Ints("scores", v[:]); err != nil {
		return err
	}
	tr.Scores = append(tr.Scores, v)
	if err := p.Ints("captures", s.Captures[:]); err != nil {
		return err
	}
	for range cfg.Rows {
		line, err := p.Next("a row of the grid")
		if err != nil {
			return err
		}
		if len(line) != cfg.Cols || strings.Trim(string(line), ".#abcd") != "" {
			return p.Fail("want a row of %d cells of \".#abcd\", got %s", cfg.Cols, course.Quote(line))
		}
		s.Grid = append(s.Grid, line...)
	}
	if err := p.Literal("units"); err != nil {
		return err
	}
	for id := range s.Units {
		var rc [2]int
		if err := p.Ints(strconv.Itoa(id), rc[:]); err != nil {
			return err
		}
		s.Units[id] = Unit{Player: id / cfg.Units, Row: rc[0], Col: rc[1]}
	}
	for p0, c := range s.Captures {
		if c < 0 {
			return p.Fail("player %d has %d captures", p0, c)
		}
	}
	if !s.place() {
		return p.Fail("two units share a cell, or one stands off the board or on a wall")
	}
	s.Round = r
	tr.States = append(tr.States, s)
	return nil
}
