package dominator

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrTrace is wrapped by every trace parsing error.
var ErrTrace = errors.New("bad trace")

// ParseError reports where and why a trace is malformed.
type ParseError struct {
	Line  int    // 1-based line number
	Round int    // round of the state block, or of the movements block leading to it; -1 in the header
	Msg   string // what was expected and what was found
}

func (e *ParseError) Error() string {
	if e.Round < 0 {
		return fmt.Sprintf("%v: line %d (header): %s", ErrTrace, e.Line, e.Msg)
	}
	return fmt.Sprintf("%v: line %d (round %d): %s", ErrTrace, e.Line, e.Round, e.Msg)
}

// Unwrap makes errors.Is(err, ErrTrace) true.
func (e *ParseError) Unwrap() error { return ErrTrace }

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
	maxTraceNameLen = 12
)

// ParseTrace reads a trace, plain or gzip-compressed. It is strict: it
// accepts exactly the layout the engine writes (SPEC §10), leaves the
// values for Verify to judge, and reports the first malformed line.
func ParseTrace(r io.Reader) (*Trace, error) {
	br := bufio.NewReaderSize(r, maxTraceLine)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%w: gzip: %v", ErrTrace, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, maxTraceLine)
	}
	p := &traceParser{r: br, round: -1}
	return p.parse()
}

type traceParser struct {
	r     *bufio.Reader
	line  int // number of the last line read
	round int
}

func (p *traceParser) fail(format string, a ...any) error {
	return &ParseError{Line: p.line, Round: p.round, Msg: fmt.Sprintf(format, a...)}
}

// next reads the next line without its newline. The slice is valid until
// the next read.
func (p *traceParser) next(what string) ([]byte, error) {
	p.line++
	b, err := p.r.ReadSlice('\n')
	switch {
	case err == nil:
		return b[:len(b)-1], nil
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, p.fail("line longer than %d bytes, want %s", maxTraceLine, what)
	case errors.Is(err, io.EOF) && len(b) == 0:
		return nil, p.fail("unexpected end of file, want %s", what)
	case errors.Is(err, io.EOF):
		return nil, p.fail("last line %s does not end with a newline", quoteTrunc(b))
	}
	return nil, p.fail("read error: %v", err)
}

func quoteTrunc(b []byte) string {
	if len(b) > 48 {
		return strconv.Quote(string(b[:48])) + "..."
	}
	return strconv.Quote(string(b))
}

// literal reads a line that must be exactly want.
func (p *traceParser) literal(want string) error {
	got, err := p.next(strconv.Quote(want))
	if err != nil {
		return err
	}
	if string(got) != want {
		return p.fail("want %q, got %s", want, quoteTrunc(got))
	}
	return nil
}

// canonInt parses a decimal integer written as the engine writes it: no
// sign but '-', no leading zeros, no "-0", within 32 bits.
func canonInt(s []byte) (int, bool) {
	neg := len(s) > 0 && s[0] == '-'
	digits := s
	if neg {
		digits = s[1:]
	}
	if len(digits) == 0 || len(digits) > 10 || (digits[0] == '0' && (len(digits) > 1 || neg)) {
		return 0, false
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = 10*n + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, n >= -1<<31 && n < 1<<31
}

// intAfter reads a line "<prefix><int>".
func (p *traceParser) intAfter(prefix string) (int, error) {
	got, err := p.next(strconv.Quote(prefix + "<integer>"))
	if err != nil {
		return 0, err
	}
	if !bytes.HasPrefix(got, []byte(prefix)) {
		return 0, p.fail("want %q followed by an integer, got %s", prefix, quoteTrunc(got))
	}
	n, ok := canonInt(got[len(prefix):])
	if !ok {
		return 0, p.fail("after %q want an integer, got %s", prefix, quoteTrunc(got[len(prefix):]))
	}
	return n, nil
}

// parseIntFields reads len(dst) integers separated by single spaces from
// b, which must hold nothing else; it returns the index of the first bad
// one, or -1.
func parseIntFields(b []byte, dst []*int) int {
	for i, d := range dst {
		end := bytes.IndexByte(b, ' ')
		if i == len(dst)-1 {
			end = len(b)
		} else if end < 0 {
			return i
		}
		n, ok := canonInt(b[:end])
		if !ok {
			return i
		}
		*d = n
		b = b[min(end+1, len(b)):]
	}
	return -1
}

// ints4 reads a line "<label> a b c d".
func (p *traceParser) ints4(label string) ([NumPlayers]int, error) {
	var v [NumPlayers]int
	got, err := p.next(strconv.Quote(label + " <4 integers>"))
	if err != nil {
		return v, err
	}
	if !bytes.HasPrefix(got, []byte(label+" ")) {
		return v, p.fail("want %q and 4 integers separated by single spaces, got %s", label, quoteTrunc(got))
	}
	if bad := parseIntFields(got[len(label)+1:], []*int{&v[0], &v[1], &v[2], &v[3]}); bad >= 0 {
		return v, p.fail("%s: want 4 integers separated by single spaces, value %d is not: %s", label, bad, quoteTrunc(got))
	}
	return v, nil
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
		p.round = k
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
	if _, err := p.r.ReadByte(); err == nil {
		p.line++
		return nil, p.fail("data after the last state (round %d)", rounds)
	} else if !errors.Is(err, io.EOF) {
		return nil, p.fail("read error: %v", err)
	}
	return tr, nil
}

// namesPrefix starts the names line: "names" and 9 spaces (SPEC §10.3).
const namesPrefix = "names         "

func (p *traceParser) header(tr *Trace) error {
	for _, want := range []string{"Game", ""} {
		if err := p.literal(want); err != nil {
			return err
		}
	}
	seed, err := p.intAfter("Seed ")
	if err != nil {
		return err
	}
	if seed < 0 {
		return p.fail("seed %d is negative", seed)
	}
	tr.Seed = seed
	for _, want := range []string{"", Version} {
		if err := p.literal(want); err != nil {
			return err
		}
	}
	for i, f := range tr.Config.fields() {
		k := configKeys[i]
		n, err := p.intAfter(k + strings.Repeat(" ", 15-len(k)))
		if err != nil {
			return err
		}
		*f = n
	}
	c := &tr.Config
	if err := c.validateSettings(); err != nil {
		return p.fail("settings: %v", err)
	}
	if recs := (c.NbRounds + 1) * (c.NumUnits() + c.Rows*c.Cols/8); recs > maxTraceRecords {
		return p.fail("settings too large for a trace: %d rounds of %d units on %d x %d", c.NbRounds, c.NumUnits(), c.Rows, c.Cols)
	}
	got, err := p.next(`"names" and 4 names`)
	if err != nil {
		return err
	}
	rest, ok := strings.CutPrefix(string(got), namesPrefix)
	f := strings.Split(rest, " ")
	if !ok || len(f) != 1+NumPlayers || f[0] != "" {
		return p.fail("want \"names\", 10 spaces and 4 names separated by one space, got %s", quoteTrunc(got))
	}
	for i := range tr.Names {
		name := f[1+i]
		if name == "" || len(name) > maxTraceNameLen || strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			return p.fail("name %d: want 1 to %d printable characters without spaces, got %q", i, maxTraceNameLen, name)
		}
		tr.Names[i] = name
	}
	return nil
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
		if err := p.literal(""); err != nil {
			return err
		}
	}
	rows, cols := tr.Config.Rows, tr.Config.Cols
	s.Grid = make([]byte, rows*cols)
	for i := 0; i < rows; i++ {
		got, err := p.next("a row of the grid")
		if err != nil {
			return err
		}
		if len(got) != cols {
			return p.fail("grid row %d: want %d characters, got %d", i, cols, len(got))
		}
		for j := 0; j < cols; j++ {
			if !gridOK[got[j]] {
				return p.fail("grid cell (%d, %d): character %q is not one of X.0123", i, j, got[j])
			}
		}
		copy(s.Grid[i*cols:], got)
	}
	if err := p.literal(""); err != nil {
		return err
	}
	var err error
	if s.Round, err = p.intAfter("round "); err != nil {
		return err
	}
	if s.Land, err = p.ints4("land"); err != nil {
		return err
	}
	if s.TotalScore, err = p.ints4("total_score"); err != nil {
		return err
	}
	if err := p.literal("status 0 0 0 0"); err != nil {
		return err
	}
	s.Units = make([]Unit, tr.Config.NumUnits())
	for id := range s.Units {
		if err := p.unit(id, &s.Units[id]); err != nil {
			return err
		}
	}
	return p.literal("")
}

// unitFields names the integer fields of a unit line, in order.
var unitFields = [4]string{"player", "i", "j", "health"}

func (p *traceParser) unit(id int, u *Unit) error {
	got, err := p.next("the line of a unit")
	if err != nil {
		return err
	}
	t := -1
	if len(got) > 2 && got[1] == ' ' {
		t = strings.IndexByte("fkw", got[0])
	}
	if t < 0 {
		return p.fail("unit %d: want \"<f|k|w> player i j health\", got %s", id, quoteTrunc(got))
	}
	u.ID, u.Type = id, UnitType(t)
	if bad := parseIntFields(got[2:], []*int{&u.Player, &u.Pos.I, &u.Pos.J, &u.Health}); bad >= 0 {
		return p.fail("unit %d: want \"<f|k|w> player i j health\" with single spaces, %s is not an integer: %s",
			id, unitFields[bad], quoteTrunc(got))
	}
	return nil
}

func (p *traceParser) movements(tr *Trace) error {
	if err := p.literal("movements"); err != nil {
		return err
	}
	moves := []Move{}
	for {
		got, err := p.next(`a movement "<id> <direction>" or "-1"`)
		if err != nil {
			return err
		}
		if string(got) == "-1" {
			break
		}
		if len(moves) == tr.Config.NumUnits() {
			return p.fail("more movement lines than units (%d), want \"-1\"", len(moves))
		}
		sp := bytes.IndexByte(got, ' ')
		var id int
		var d Dir
		ok := sp > 0 && sp == len(got)-2
		if ok {
			id, ok = canonInt(got[:sp])
			ok = ok && id >= 0
		}
		if ok {
			d, ok = DirFromChar(got[sp+1])
		}
		if !ok {
			return p.fail("want a movement \"<id> <one of bwrxtylzn>\" or \"-1\", got %s", quoteTrunc(got))
		}
		moves = append(moves, Move{ID: id, Dir: d})
	}
	tr.Moves = append(tr.Moves, moves)
	return nil
}

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
