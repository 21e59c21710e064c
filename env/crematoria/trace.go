package crematoria

import (
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
	return &TraceWriter{w: w, buf: make([]byte, 0, 16384)}
}

// Err returns the first write error.
func (t *TraceWriter) Err() error { return t.err }

func (t *TraceWriter) flush() {
	if t.err == nil && len(t.buf) > 0 {
		_, t.err = t.w.Write(t.buf)
	}
	t.buf = t.buf[:0]
}

func (t *TraceWriter) line(parts ...string) {
	for _, p := range parts {
		t.buf = append(t.buf, p...)
	}
	t.buf = append(t.buf, '\n')
}

// Header writes the header, the settings and the names (SPEC §10.1-10.3).
func (t *TraceWriter) Header(cfg *Config, seed int, names [NumPlayers]string) {
	t.buf = append(t.buf, "Game\n\nSeed "...)
	t.buf = strconv.AppendInt(t.buf, int64(seed), 10)
	t.buf = append(t.buf, "\n\n"+Version+"\n"...)
	for i, v := range cfg.Values() {
		k := configKeys[i]
		t.buf = append(t.buf, k...)
		for n := len(k); n < 20; n++ {
			t.buf = append(t.buf, ' ')
		}
		t.buf = strconv.AppendInt(t.buf, int64(v), 10)
		t.buf = append(t.buf, '\n')
	}
	t.buf = append(t.buf, "names              "...)
	for _, n := range names {
		t.buf = append(t.buf, ' ')
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

// cellChar returns the trace character of a cell (SPEC §10.4).
func cellChar(c *Cell, _ int) byte {
	switch c.Type {
	case Rock:
		return 'R'
	case Elevator:
		return 'E'
	case Cave:
		if c.Owner >= 0 {
			return '0' + byte(c.Owner)
		}
		return 'C'
	}
	if c.Gem {
		return 'G'
	}
	return 'O'
}

// AppendUnit appends a unit's trace line without the newline.
func AppendUnit(b []byte, u *Unit) []byte {
	b = append(b, u.Type.Char(), ' ')
	b = strconv.AppendInt(b, int64(u.Player), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(u.Health), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(u.Turns), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(u.Pos.I), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(u.Pos.J), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(u.Pos.K), 10)
	return b
}

// State writes one state block (SPEC §10.4).
func (t *TraceWriter) State(s *State) {
	n := len(t.buf)
	t.buf = append(t.buf, make([]byte, 2+NumCells+2*Rows)...)
	b := t.buf[n:]
	b[0], b[1] = '\n', '\n'
	k := 2
	for row := 0; row < 2*Rows; row++ {
		cells := s.Cells[row*Cols : (row+1)*Cols]
		for j := range cells {
			b[k+j] = cellChar(&cells[j], 0)
		}
		k += Cols
		b[k] = '\n'
		k++
	}
	t.buf = append(t.buf, "\nround "...)
	t.buf = strconv.AppendInt(t.buf, int64(s.Round), 10)
	t.buf = append(t.buf, '\n')
	t.ints("nb_cells", s.NbCells)
	t.ints("nb_gems", s.NbGems)
	t.buf = append(t.buf, "status 0 0 0 0\n"...)
	for id := range s.Units {
		t.buf = AppendUnit(t.buf, &s.Units[id])
		t.buf = append(t.buf, '\n')
	}
	t.buf = append(t.buf, '\n')
	t.flush()
}

// Movements writes one movements block (SPEC §10.5).
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
// it, unless the round failed (err): the course program then writes
// nothing more (game.Tracer).
func (t *TraceWriter) Round(g *Game, err error) {
	if err == nil {
		t.Movements(g.Moves)
		t.State(&g.State)
	}
}

// ErrTrace is wrapped by every trace parsing error (course.ErrTrace).
var ErrTrace = course.ErrTrace

// ParseError reports where and why a trace is malformed: the line, the
// round of the state or movements block being read (-1 in the header) and
// what was expected and found.
type ParseError = course.ParseError

// Trace is a parsed .res file (SPEC §10): the header, the nb_rounds+1
// states and the nb_rounds movements blocks.
type Trace struct {
	Seed int
	// Config holds the eleven settings of the header. The map kind is not in
	// the trace, so Fixed is nil.
	Config Config
	Names  [NumPlayers]string
	// States[k] is the k-th state block (printed as "round k" in a valid
	// trace); Moves[r] is the movements block of round r, which leads from
	// States[r] to States[r+1].
	States []TraceState
	Moves  [][]Move
}

// TraceState is one state block as printed.
type TraceState struct {
	Round int
	// Grid holds the trace characters of both levels, indexed by Pos.Index.
	Grid    [NumCells]byte
	NbCells [NumPlayers]int
	NbGems  [NumPlayers]int
	Units   []Unit // Units[id], with Unit.ID = id
}

// Limits that bound the memory of a parsed trace whatever the input.
const (
	// maxTraceRecords bounds (nb_rounds+1) * (units+100): a default trace
	// needs 23,353; the bound allows about 10,000 rounds with default units.
	maxTraceRecords = 1 << 21
	maxTraceLine    = 4096
)

// ParseTrace reads a trace, plain or gzip-compressed. It is strict: it
// accepts exactly the bytes the engine writes (SPEC §10), with the values
// left for Verify to judge, and reports the first malformed line.
func ParseTrace(r io.Reader) (*Trace, error) {
	tr, err := course.NewTraceReader(r, maxTraceLine)
	if err != nil {
		return nil, err
	}
	p := &traceParser{TraceReader: tr}
	return p.parse()
}

// traceParser reads Crematoria's layout with a course.TraceReader.
type traceParser struct {
	*course.TraceReader
}

func (p *traceParser) parse() (*Trace, error) {
	tr := &Trace{}
	if err := p.header(tr); err != nil {
		return nil, err
	}
	cfg := &tr.Config
	rounds := cfg.NbRounds
	cap0 := min(rounds+1, 256)
	tr.States = make([]TraceState, 0, cap0)
	tr.Moves = make([][]Move, 0, cap0)
	for k := 0; k <= rounds; k++ {
		if k > 0 {
			p.Round = k - 1
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
		n, err := p.IntAfter(k + strings.Repeat(" ", 20-len(k)))
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
	return p.Names("names              ", `"names", 14 spaces and 4 names each preceded by one space`, tr.Names[:])
}

// gridChars are the characters each level may hold (SPEC §10.4).
var gridChars = [Levels]string{"RCE0123", "OGE"}

var gridOK = func() (ok [Levels][256]bool) {
	for k, chars := range gridChars {
		for i := 0; i < len(chars); i++ {
			ok[k][chars[i]] = true
		}
	}
	return ok
}()

func (p *traceParser) state(tr *Trace, s *TraceState) error {
	for range 2 {
		if err := p.Literal(""); err != nil {
			return err
		}
	}
	for k := 0; k < Levels; k++ {
		for i := 0; i < Rows; i++ {
			got, err := p.Next("a row of the grid")
			if err != nil {
				return err
			}
			if len(got) != Cols {
				return p.Fail("grid row %d of level %d: want %d characters, got %d", i, k, Cols, len(got))
			}
			for j := 0; j < Cols; j++ {
				if !gridOK[k][got[j]] {
					return p.Fail("grid cell (%d, %d, %d): character %q is not one of %s", i, j, k, got[j], gridChars[k])
				}
			}
			copy(s.Grid[Pos{i, 0, k}.Index():], got)
		}
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
	if err = p.Ints("nb_gems", s.NbGems[:]); err != nil {
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

func (p *traceParser) unit(id int, u *Unit) error {
	got, err := p.Next("the line of a unit")
	if err != nil {
		return err
	}
	t := -1
	if len(got) > 2 && got[1] == ' ' {
		t = strings.IndexByte("pfnh", got[0])
	}
	if t < 0 {
		return p.Fail("unit %d: want \"<p|f|n|h> group health turns i j k\", got %s", id, course.Quote(got))
	}
	u.ID, u.Type = id, UnitType(t)
	if bad := course.IntFields(got[2:], []*int{&u.Player, &u.Health, &u.Turns, &u.Pos.I, &u.Pos.J, &u.Pos.K}); bad >= 0 {
		return p.Fail("unit %d: want \"<p|f|n|h> group health turns i j k\" with single spaces, %s is not an integer: %s",
			id, unitFields[bad], course.Quote(got))
	}
	return nil
}

// unitFields names the integer fields of a unit line, in order.
var unitFields = [6]string{"group", "health", "turns", "i", "j", "k"}

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
var movesBlock = course.MoveBlock{Keyword: "movements", Noun: "movement", Want: "<direction>", Chars: "bwrxtylzudn"}

// Trace layout: 17 header lines, then per state a block of 88+units lines
// (2 empty, 80 grid rows, 1 empty, round, nb_cells, nb_gems, status, the
// units, 1 empty), and between states a movements block of 2+moves lines.
const (
	headerLines     = 17
	stateBlockLines = 2 + Levels*Rows + 1 + 4 + 1
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

// MovesLine returns the line number of the "movements" keyword of round r.
func (t *Trace) MovesLine(r int) int { return t.blockLine(r) + stateBlockLines + t.Config.NumUnits() }

// gridLine returns the line of grid row (i, level k) of state s.
func (t *Trace) gridLine(s int, p Pos) int { return t.StateLine(s) + p.K*Rows + p.I }

// stateFieldLine returns the line of "round" (field 0), "nb_cells" (1),
// "nb_gems" (2), "status" (3) of state s.
func (t *Trace) stateFieldLine(s, field int) int { return t.StateLine(s) + Levels*Rows + 1 + field }

// unitLine returns the line of unit id in state s.
func (t *Trace) unitLine(s, id int) int { return t.stateFieldLine(s, 4) + id }

// cellOfChar returns the cell a trace character stands for.
func cellOfChar(ch byte) Cell {
	c := Cell{Type: Cave, Owner: -1, ID: -1}
	switch ch {
	case 'R':
		c.Type = Rock
	case 'E':
		c.Type = Elevator
	case 'O':
		c.Type = Outside
	case 'G':
		c.Type, c.Gem = Outside, true
	case '0', '1', '2', '3':
		c.Owner = int8(ch - '0')
	}
	return c
}

// WriteTo writes the trace in the .res format. For a parsed trace the
// output is byte-identical to the input.
func (t *Trace) WriteTo(w io.Writer) (int64, error) {
	cw := &traceCountWriter{w: w}
	tw := NewTraceWriter(cw)
	tw.Header(&t.Config, t.Seed, t.Names)
	var s State
	s.Cfg = &t.Config
	for k := range t.States {
		if k > 0 && k-1 < len(t.Moves) {
			tw.Movements(t.Moves[k-1])
		}
		ts := &t.States[k]
		for idx := range s.Cells {
			s.Cells[idx] = cellOfChar(ts.Grid[idx])
		}
		s.Round, s.NbCells, s.NbGems, s.Units = ts.Round, ts.NbCells, ts.NbGems, ts.Units
		tw.State(&s)
	}
	return cw.n, tw.Err()
}

type traceCountWriter struct {
	w io.Writer
	n int64
}

func (c *traceCountWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
