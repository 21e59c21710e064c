package dominator

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"jgym/course"
)

// The trace format (SPEC §10): TraceWriter writes it as the course program
// does, ParseTrace reads it.

// TraceWriter writes a game in the kit's .res format (SPEC §10), byte for
// byte as the course program does. Errors are sticky: after the first
// write error every call is a no-op and Err returns it.
type TraceWriter struct {
	w   io.Writer
	buf []byte
	err error
}

// NewTraceWriter returns a writer of traces to w.
func NewTraceWriter(w io.Writer) *TraceWriter {
	return &TraceWriter{w: w, buf: make([]byte, 0, 8192)}
}

// Err returns the first write error.
func (t *TraceWriter) Err() error { return t.err }

func (t *TraceWriter) flush() {
	if t.err == nil && len(t.buf) > 0 {
		_, t.err = t.w.Write(t.buf)
	}
	t.buf = t.buf[:0]
}

// Header writes the header, the settings and the names (SPEC §10.1-10.3).
func (t *TraceWriter) Header(cfg *Config, seed int, names [NumPlayers]string) {
	b := append(t.buf, "Game\n\nSeed "...)
	b = strconv.AppendInt(b, int64(seed), 10)
	b = append(b, "\n\n"+Version+"\n"...)
	for i, v := range cfg.Values() {
		k := configKeys[i]
		b = append(b, k...)
		for n := len(k); n < 15; n++ {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(v), 10)
		b = append(b, '\n')
	}
	b = append(b, namesPrefix...)
	for _, n := range names {
		b = append(b, ' ')
		b = append(b, n...)
	}
	t.buf = append(b, '\n')
	t.flush()
}

// cellChars maps owner+1 of an empty cell to its trace character.
const cellChars = ".01234"

// CellChar returns the trace character of a cell: X for a wall, else the
// owner's digit or '.' (SPEC §10.4).
func CellChar(c *Cell) byte {
	if c.Type == Wall {
		return 'X'
	}
	return cellChars[int(c.Owner+1)%len(cellChars)]
}

func appendInts(b []byte, label string, v *[NumPlayers]int) []byte {
	b = append(b, label...)
	for _, x := range v {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, '\n')
}

// AppendUnit appends a unit's trace line, without the newline:
// "<f|k|w> player i j health".
func AppendUnit(b []byte, u *Unit) []byte {
	b = append(b, u.Type.Char(), ' ')
	b = strconv.AppendInt(b, int64(u.Player), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(u.Pos.I), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(u.Pos.J), 10)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(u.Health), 10)
}

// State writes one state block (SPEC §10.4).
func (t *TraceWriter) State(s *State) {
	rows, cols := s.Cfg.Rows, s.Cfg.Cols
	b := append(t.buf, '\n', '\n')
	for i := 0; i < rows; i++ {
		row := s.Grid[i*cols : (i+1)*cols]
		for j := range row {
			b = append(b, CellChar(&row[j]))
		}
		b = append(b, '\n')
	}
	b = append(b, "\nround "...)
	b = strconv.AppendInt(b, int64(s.Round), 10)
	b = append(b, '\n')
	b = appendInts(b, "land", &s.Land)
	b = appendInts(b, "total_score", &s.TotalScore)
	b = append(b, "status 0 0 0 0\n"...)
	for id := range s.Units {
		b = AppendUnit(b, &s.Units[id])
		b = append(b, '\n')
	}
	t.buf = append(b, '\n')
	t.flush()
}

// Movements writes one movements block (SPEC §10.5).
func (t *TraceWriter) Movements(moves []Move) {
	b := append(t.buf, "movements\n"...)
	for _, m := range moves {
		b = strconv.AppendInt(b, int64(m.ID), 10)
		b = append(b, ' ', m.Dir.Char(), '\n')
	}
	t.buf = append(b, "-1\n"...)
	t.flush()
}

// Round writes the round g just played (game.Tracer): its movements and
// state, or nothing when the course program aborted it (err != nil).
func (t *TraceWriter) Round(g *Game, err error) {
	if err == nil {
		t.Movements(g.Moves)
		t.State(&g.State)
	}
}

// WriteResults prints "info: player <name> got score <total>" for each
// player and "info: player(s) <names> got top score", as the course
// program prints them on its standard error at the end of a game (SPEC
// §9).
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

// ErrTrace is wrapped by every trace parsing error (course.ErrTrace).
var ErrTrace = course.ErrTrace

// ParseError reports where and why a trace is malformed: the line, the
// round of the state block, or of the movements block leading to it (-1 in
// the header), and what was expected and found.
type ParseError = course.ParseError

// Trace is a parsed .res file (SPEC §10): the header, the nb_rounds+1
// states and the nb_rounds movements blocks.
type Trace struct {
	Seed int
	// Config holds the thirteen settings of the header. The board source is
	// not in a trace: Board, Params and Grid are empty.
	Config Config
	Names  [NumPlayers]string
	// States[k] is the k-th state block (printed as "round k" in a valid
	// trace); Moves[r] is the movements block that leads from States[r] to
	// States[r+1].
	States []TraceState
	Moves  [][]Move
}

// TraceState is one state block as printed.
type TraceState struct {
	Round int
	// Grid holds the trace characters of the board, row-major.
	Grid       []byte
	Land       [NumPlayers]int
	TotalScore [NumPlayers]int
	Units      []Unit // Units[id], with Unit.ID = id
}

// Limits that bound the memory of a parsed trace whatever the input.
const (
	// maxTraceRecords bounds (nb_rounds+1) * (units + rows*cols/8): a
	// default trace needs 201 * 299; the bound allows about 35,000 rounds
	// of the default configuration.
	maxTraceRecords = 1 << 23
	maxTraceLine    = 4096
)

// ParseTrace reads a trace, plain or gzip-compressed. It is strict: it
// accepts exactly the layout the engine writes (SPEC §10), leaves the
// values for Verify to judge, and reports the first malformed line.
func ParseTrace(r io.Reader) (*Trace, error) {
	tr, err := course.NewTraceReader(r, maxTraceLine)
	if err != nil {
		return nil, err
	}
	p := &traceParser{TraceReader: tr}
	return p.parse()
}

// traceParser reads Dominator's layout with a course.TraceReader.
type traceParser struct {
	*course.TraceReader
}

func (p *traceParser) parse() (*Trace, error) {
	tr := &Trace{}
	if err := p.header(tr); err != nil {
		return nil, err
	}
	rounds := tr.Config.NbRounds
	cap0 := min(rounds+1, 256)
	tr.States = make([]TraceState, 0, cap0)
	tr.Moves = make([][]Move, 0, cap0)
	for k := 0; k <= rounds; k++ {
		p.Round = k
		if k > 0 {
			if err := p.movements(tr); err != nil {
				return nil, err
			}
		}
		tr.States = append(tr.States, TraceState{})
		if err := p.state(tr, &tr.States[k]); err != nil {
			return nil, err
		}
	}
	if err := p.End(rounds); err != nil {
		return nil, err
	}
	return tr, nil
}

// namesPrefix starts the names line: "names" and 9 spaces (SPEC §10.3).
const namesPrefix = "names         "

func (p *traceParser) header(tr *Trace) error {
	for _, want := range []string{"Game", ""} {
		if err := p.Literal(want); err != nil {
			return err
		}
	}
	seed, err := p.IntAfter("Seed ")
	if err != nil {
		return err
	}
	if seed < 0 {
		return p.Fail("seed %d is negative", seed)
	}
	tr.Seed = seed
	for _, want := range []string{"", Version} {
		if err := p.Literal(want); err != nil {
			return err
		}
	}
	for i, f := range tr.Config.fields() {
		k := configKeys[i]
		n, err := p.IntAfter(k + strings.Repeat(" ", 15-len(k)))
		if err != nil {
			return err
		}
		*f = n
	}
	c := &tr.Config
	if err := c.validateSettings(); err != nil {
		return p.Fail("settings: %v", err)
	}
	if recs := (c.NbRounds + 1) * (c.NumUnits() + c.Rows*c.Cols/8); recs > maxTraceRecords {
		return p.Fail("settings too large for a trace: %d rounds of %d units on %d x %d", c.NbRounds, c.NumUnits(), c.Rows, c.Cols)
	}
	return p.Names(namesPrefix, `"names", 10 spaces and 4 names separated by one space`, tr.Names[:])
}

// gridOK marks the characters a trace's grid may hold.
var gridOK = func() (ok [256]bool) {
	for _, c := range []byte("X.0123") {
		ok[c] = true
	}
	return ok
}()

func (p *traceParser) state(tr *Trace, s *TraceState) error {
	for range 2 {
		if err := p.Literal(""); err != nil {
			return err
		}
	}
	rows, cols := tr.Config.Rows, tr.Config.Cols
	s.Grid = make([]byte, rows*cols)
	for i := 0; i < rows; i++ {
		got, err := p.Next("a row of the grid")
		if err != nil {
			return err
		}
		if len(got) != cols {
			return p.Fail("grid row %d: want %d characters, got %d", i, cols, len(got))
		}
		for j := 0; j < cols; j++ {
			if !gridOK[got[j]] {
				return p.Fail("grid cell (%d, %d): character %q is not one of X.0123", i, j, got[j])
			}
		}
		copy(s.Grid[i*cols:], got)
	}
	if err := p.Literal(""); err != nil {
		return err
	}
	var err error
	if s.Round, err = p.IntAfter("round "); err != nil {
		return err
	}
	if err = p.Ints("land", s.Land[:]); err != nil {
		return err
	}
	if err = p.Ints("total_score", s.TotalScore[:]); err != nil {
		return err
	}
	if err := p.Literal("status 0 0 0 0"); err != nil {
		return err
	}
	s.Units = make([]Unit, tr.Config.NumUnits())
	for id := range s.Units {
		if err := p.unit(id, &s.Units[id]); err != nil {
			return err
		}
	}
	return p.Literal("")
}

// unitFields names the integer fields of a unit line, in order.
var unitFields = [4]string{"player", "i", "j", "health"}

func (p *traceParser) unit(id int, u *Unit) error {
	got, err := p.Next("the line of a unit")
	if err != nil {
		return err
	}
	t := -1
	if len(got) > 2 && got[1] == ' ' {
		t = strings.IndexByte("fkw", got[0])
	}
	if t < 0 {
		return p.Fail("unit %d: want \"<f|k|w> player i j health\", got %s", id, course.Quote(got))
	}
	u.ID, u.Type = id, UnitType(t)
	if bad := course.IntFields(got[2:], []*int{&u.Player, &u.Pos.I, &u.Pos.J, &u.Health}); bad >= 0 {
		return p.Fail("unit %d: want \"<f|k|w> player i j health\" with single spaces, %s is not an integer: %s",
			id, unitFields[bad], course.Quote(got))
	}
	return nil
}

func (p *traceParser) movements(tr *Trace) error {
	moves, err := course.ReadMoves(p.TraceReader, movesBlock, tr.Config.NumUnits(), func(id int, c byte) (Move, bool) {
		d, ok := DirFromChar(c)
		return Move{ID: id, Dir: d}, ok
	})
	if err != nil {
		return err
	}
	tr.Moves = append(tr.Moves, moves)
	return nil
}

// movesBlock is the movements block of a round (SPEC §10).
var movesBlock = course.MoveBlock{Keyword: "movements", Noun: "movement", Want: "<direction>", Chars: "bwrxtylzn"}

// Trace layout: 19 header lines, then per state a block of rows+8+N lines
// (2 empty, the grid, 1 empty, round, land, total_score, status, the N
// units, 1 empty), and between states a movements block of 2+moves lines.
const headerLines = 19

func (t *Trace) stateLines() int { return t.Config.Rows + 8 + t.Config.NumUnits() }

// blockLine returns the line of the first (empty) line of state k's block.
func (t *Trace) blockLine(k int) int {
	l := headerLines + 1 + k*(t.stateLines()+2)
	for r := 0; r < k && r < len(t.Moves); r++ {
		l += len(t.Moves[r])
	}
	return l
}

// StateLine returns the line number of the first grid row of state k.
func (t *Trace) StateLine(k int) int { return t.blockLine(k) + 2 }

// MovesLine returns the line number of the "movements" keyword of the
// block that leads from state r to state r+1.
func (t *Trace) MovesLine(r int) int { return t.blockLine(r) + t.stateLines() }

// gridLine returns the line of grid row i of state k.
func (t *Trace) gridLine(k, i int) int { return t.StateLine(k) + i }

// stateFieldLine returns the line of "round" (field 0), "land" (1),
// "total_score" (2) or "status" (3) of state k.
func (t *Trace) stateFieldLine(k, field int) int { return t.StateLine(k) + t.Config.Rows + 1 + field }

// unitLine returns the line of unit id in state k.
func (t *Trace) unitLine(k, id int) int { return t.stateFieldLine(k, 4) + id }

// cellOfChar returns the cell a trace character stands for.
func cellOfChar(ch byte) Cell {
	c := Cell{Type: Empty, Owner: -1, ID: -1}
	switch {
	case ch == 'X':
		c.Type = Wall
	case ch >= '0' && ch <= '4':
		c.Owner = int8(ch - '0')
	}
	return c
}

// WriteTo writes the trace in the .res format. For a parsed trace the
// output is byte-identical to the input.
func (t *Trace) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	tw := NewTraceWriter(cw)
	tw.Header(&t.Config, t.Seed, t.Names)
	var s State
	s.Cfg = &t.Config
	for k := range t.States {
		if k > 0 && k-1 < len(t.Moves) {
			tw.Movements(t.Moves[k-1])
		}
		ts := &t.States[k]
		s.Grid = s.Grid[:0]
		for _, ch := range ts.Grid {
			s.Grid = append(s.Grid, cellOfChar(ch))
		}
		s.Round, s.Land, s.TotalScore, s.Units = ts.Round, ts.Land, ts.TotalScore, ts.Units
		tw.State(&s)
	}
	return cw.n, tw.Err()
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
