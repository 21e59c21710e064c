package moria

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"jgym/course"
)

// TraceWriter writes a game in the kit's .res format (SPEC §10), byte for
// byte as the course engine does. Errors are sticky: after the first write
// error every call is a no-op and Err returns it.
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

// settingWidth is the width of the key field of the header's settings.
const settingWidth = 19

func (t *TraceWriter) key(k string) {
	t.buf = append(t.buf, k...)
	for n := len(k); n < settingWidth; n++ {
		t.buf = append(t.buf, ' ')
	}
}

// Header writes the header, the settings and the names (SPEC §10.1).
func (t *TraceWriter) Header(cfg *Config, seed int, names [NumPlayers]string) {
	t.buf = append(t.buf, "Game\n\nSeed "...)
	t.buf = strconv.AppendInt(t.buf, int64(seed), 10)
	t.buf = append(t.buf, "\n\n"+Version+"\n"...)
	for i, v := range cfg.Values() {
		t.key(configKeys[i])
		t.buf = strconv.AppendInt(t.buf, int64(v), 10)
		t.buf = append(t.buf, '\n')
	}
	t.key("names")
	for p, n := range names {
		if p > 0 {
			t.buf = append(t.buf, ' ')
		}
		t.buf = append(t.buf, n...)
	}
	t.buf = append(t.buf, '\n')
	t.flush()
}

func (t *TraceWriter) ints(label string, v [NumPlayers]int) {
	t.buf = append(t.buf, label...)
	for _, x := range v {
		t.buf = append(t.buf, ' ')
		t.buf = strconv.AppendInt(t.buf, int64(x), 10)
	}
	t.buf = append(t.buf, '\n')
}

// CellChar returns the trace character of a cell (SPEC §10.2) in a game
// whose rocks start with resistance hits.
func CellChar(c *Cell, resistance int) byte {
	switch c.Type {
	case Cave:
		switch {
		case c.Treasure:
			return 'T'
		case c.Owner >= 0:
			return '0' + byte(c.Owner)
		}
		return 'C'
	case Abyss:
		return 'A'
	case Granite:
		return 'G'
	case Rock:
		if int(c.Turns) >= resistance {
			return 'R'
		}
		return 'a' + byte(c.Turns) - 1
	}
	return 'O'
}

// AppendUnit appends a unit's trace line without the newline.
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

// State writes one state block (SPEC §10.2).
func (t *TraceWriter) State(s *State) {
	res := s.Cfg.RockResistance
	b := t.grow()
	for i := 0; i < Rows; i++ {
		row := b[i*(Cols+1) : i*(Cols+1)+Cols]
		cells := s.Cells[i*Cols : (i+1)*Cols]
		for j := range cells {
			row[j] = CellChar(&cells[j], res)
		}
	}
	t.tail(s.Round, s.NbCells, s.NbTreasures, s.Units)
}

// block writes a state block from its printed grid.
func (t *TraceWriter) block(grid *[NumCells]byte, round int, cells, treasures [NumPlayers]int, units []Unit) {
	b := t.grow()
	for i := 0; i < Rows; i++ {
		copy(b[i*(Cols+1):], grid[i*Cols:(i+1)*Cols])
	}
	t.tail(round, cells, treasures, units)
}

// grow appends the two empty lines and the grid's rows, the cells left
// for the caller to fill, and returns the grid part.
func (t *TraceWriter) grow() []byte {
	n := len(t.buf)
	t.buf = append(t.buf, make([]byte, 2+NumCells+Rows)...)
	b := t.buf[n:]
	b[0], b[1] = '\n', '\n'
	b = b[2:]
	for i := 0; i < Rows; i++ {
		b[i*(Cols+1)+Cols] = '\n'
	}
	return b
}

// tail writes the end of a state block after the grid.
func (t *TraceWriter) tail(round int, cells, treasures [NumPlayers]int, units []Unit) {
	t.buf = append(t.buf, "\nround "...)
	t.buf = strconv.AppendInt(t.buf, int64(round), 10)
	t.buf = append(t.buf, '\n')
	t.ints("nb_cells", cells)
	t.ints("nb_treasures", treasures)
	t.buf = append(t.buf, "status 0 0 0 0\n"...)
	for id := range units {
		t.buf = AppendUnit(t.buf, &units[id])
		t.buf = append(t.buf, '\n')
	}
	t.buf = append(t.buf, '\n')
	t.flush()
}

// Movements writes one movements block (SPEC §10.3).
func (t *TraceWriter) Movements(moves []Move) {
	t.buf = append(t.buf, "movements\n"...)
	for _, m := range moves {
		t.buf = strconv.AppendInt(t.buf, int64(m.ID), 10)
		t.buf = append(t.buf, ' ', m.Dir.Char(), '\n')
	}
	t.buf = append(t.buf, "-1\n"...)
	t.flush()
}

// Round writes the round g just played, its movements and the state after
// it, unless the round failed (err): the course program writes nothing of
// a round it aborts, so the trace ends with the last complete state
// (game.Tracer).
func (t *TraceWriter) Round(g *Game, err error) {
	if err == nil {
		t.Movements(g.Moves)
		t.State(&g.State)
	}
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

// ErrTrace is wrapped by every trace parsing error (course.ErrTrace).
var ErrTrace = course.ErrTrace

// ParseError reports where and why a trace is malformed: the line, the
// round of the state or movements block being read (-1 in the header) and
// what was expected and found.
type ParseError = course.ParseError

// Trace is a parsed .res file (SPEC §10): the header, the states and the
// movements blocks between them. A complete trace has nb_rounds+1 states;
// the trace of a game the course engine aborted ends with the last
// complete state (Truncated).
type Trace struct {
	Seed int
	// Config holds the ten settings of the header. The map kind is not in
	// the trace, so Fixed is nil.
	Config Config
	Names  [NumPlayers]string
	// States[k] is the k-th state block (printed as "round k" in a valid
	// trace); Moves[r] is the movements block of round r+1, which leads
	// from States[r] to States[r+1].
	States []TraceState
	Moves  [][]Move
}

// Truncated reports whether the trace ends before the last round, as the
// trace of an aborted game does.
func (t *Trace) Truncated() bool { return len(t.States) < t.Config.NbRounds+1 }

// TraceState is one state block as printed.
type TraceState struct {
	Round       int
	Grid        [NumCells]byte // the trace characters, indexed by Pos.Index
	NbCells     [NumPlayers]int
	NbTreasures [NumPlayers]int
	Units       []Unit // Units[id], with Unit.ID = id
}

// Limits that bound the memory of a parsed trace whatever the input.
const (
	// maxTraceRecords bounds (nb_rounds+1) * (units+100): a default trace
	// needs 45,225; the bound allows about 9,000 rounds of a default game.
	maxTraceRecords = 1 << 21
	maxTraceLine    = 4096
)

// ParseTrace reads a trace, plain or gzip-compressed. It is strict: it
// accepts exactly the bytes the engine writes (SPEC §10), with the values
// left for Verify to judge, and reports the first malformed line. A trace
// may end after any complete state (an aborted game).
func ParseTrace(r io.Reader) (*Trace, error) {
	tr, err := course.NewTraceReader(r, maxTraceLine)
	if err != nil {
		return nil, err
	}
	p := &traceParser{TraceReader: tr}
	return p.parse()
}

// traceParser reads Moria's layout with a course.TraceReader.
type traceParser struct {
	*course.TraceReader
	grid [256]bool // the characters a grid may hold
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
		if k > 0 {
			// The trace of an aborted game ends after a complete state.
			if eof, _ := p.AtEOF(); eof {
				break
			}
			p.Round = k
			if err := p.movements(tr); err != nil {
				return nil, err
			}
		}
		p.Round = k
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
		n, err := p.IntAfter(k + strings.Repeat(" ", settingWidth-len(k)))
		if err != nil {
			return err
		}
		*f = n
	}
	if err := tr.Config.Validate(); err != nil {
		return p.Fail("settings: %v", err)
	}
	if recs := (tr.Config.NbRounds + 1) * (tr.Config.NumUnits() + 100); recs > maxTraceRecords {
		return p.Fail("settings too large for a trace: %d rounds of %d units", tr.Config.NbRounds, tr.Config.NumUnits())
	}
	for _, c := range "OCTAGR0123" {
		p.grid[c] = true
	}
	for k := 1; k < tr.Config.RockResistance; k++ {
		p.grid['a'+k-1] = true
	}
	// "names", settingWidth-5 spaces and the names separated by single
	// spaces: each name preceded by one space after settingWidth-6.
	return p.Names("names"+strings.Repeat(" ", settingWidth-6),
		`"names", 14 spaces and 4 names separated by single spaces`, tr.Names[:])
}

func (p *traceParser) state(tr *Trace, s *TraceState) error {
	for range 2 {
		if err := p.Literal(""); err != nil {
			return err
		}
	}
	for i := 0; i < Rows; i++ {
		got, err := p.Next("a row of the grid")
		if err != nil {
			return err
		}
		if len(got) != Cols {
			return p.Fail("grid row %d: want %d characters, got %d", i, Cols, len(got))
		}
		for j := 0; j < Cols; j++ {
			if !p.grid[got[j]] {
				return p.Fail("grid cell (%d, %d): character %q is not one of OCTAGR0123 or a rock's hits left", i, j, got[j])
			}
		}
		copy(s.Grid[i*Cols:], got)
	}
	if err := p.Literal(""); err != nil {
		return err
	}
	var err error
	if s.Round, err = p.IntAfter("round "); err != nil {
		return err
	}
	if err = p.Ints("nb_cells", s.NbCells[:]); err != nil {
		return err
	}
	if err = p.Ints("nb_treasures", s.NbTreasures[:]); err != nil {
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
		t = strings.IndexByte("dwotb", got[0])
	}
	if t < 0 {
		return p.Fail("unit %d: want \"<d|w|o|t|b> player i j health\", got %s", id, course.Quote(got))
	}
	u.ID, u.Type = id, UnitType(t)
	if bad := course.IntFields(got[2:], []*int{&u.Player, &u.Pos.I, &u.Pos.J, &u.Health}); bad >= 0 {
		return p.Fail("unit %d: want \"<d|w|o|t|b> player i j health\" with single spaces, %s is not an integer: %s",
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

// Trace layout: 16 header lines, then per state a block of 68+units lines
// (2 empty, 60 grid rows, 1 empty, round, nb_cells, nb_treasures, status,
// the units, 1 empty), and between states a movements block of 2+moves
// lines.
const (
	headerLines     = 16
	stateBlockLines = 2 + Rows + 1 + 4 + 1
)

// blockLine returns the line of the first (empty) line of state k's block.
func (t *Trace) blockLine(k int) int {
	l := headerLines + 1 + k*(stateBlockLines+t.Config.NumUnits()+2)
	for r := 0; r < k && r < len(t.Moves); r++ {
		l += len(t.Moves[r])
	}
	return l
}

// StateLine returns the line number of the first grid row of state k.
func (t *Trace) StateLine(k int) int { return t.blockLine(k) + 2 }

// MovesLine returns the line number of the "movements" keyword of round r
// (from 1), between states r-1 and r.
func (t *Trace) MovesLine(r int) int { return t.blockLine(r-1) + stateBlockLines + t.Config.NumUnits() }

// gridLine returns the line of grid row i of state k.
func (t *Trace) gridLine(k, i int) int { return t.StateLine(k) + i }

// stateFieldLine returns the line of "round" (field 0), "nb_cells" (1),
// "nb_treasures" (2), "status" (3) of state k.
func (t *Trace) stateFieldLine(k, field int) int { return t.StateLine(k) + Rows + 1 + field }

// unitLine returns the line of unit id in state k.
func (t *Trace) unitLine(k, id int) int { return t.stateFieldLine(k, 4) + id }

// WriteTo writes the trace in the .res format. For a parsed trace the
// output is byte-identical to the input.
func (t *Trace) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	tw := NewTraceWriter(cw)
	tw.Header(&t.Config, t.Seed, t.Names)
	for k := range t.States {
		if k > 0 && k-1 < len(t.Moves) {
			tw.Movements(t.Moves[k-1])
		}
		s := &t.States[k]
		tw.block(&s.Grid, s.Round, s.NbCells, s.NbTreasures, s.Units)
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
