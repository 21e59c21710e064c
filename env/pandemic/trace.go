package pandemic

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"jgym/course"
)

// The trace format (SPEC §10): TraceWriter writes it, ParseTrace reads it.

// TraceWriter writes a game in the kit's .res format (SPEC §10), byte for
// byte as the course engine does. Errors are sticky: after the first write
// error every call is a no-op and Err returns it.
type TraceWriter struct {
	w   io.Writer
	buf []byte
	err error

	// The map part of a state block (labels aside) never changes during a
	// game: the column labels and the cities and paths blocks are cached.
	labels      []byte
	labelsCols  int
	static      []byte
	staticFor   [2]*Pos // first city cell, first path's first cell
	staticSizes [2]int
	rowLabels   [][]byte
}

// NewTraceWriter returns a writer of traces to w.
func NewTraceWriter(w io.Writer) *TraceWriter {
	return &TraceWriter{w: w, buf: make([]byte, 0, 32768)}
}

// Err returns the first write error.
func (t *TraceWriter) Err() error { return t.err }

func (t *TraceWriter) flush() {
	if t.err == nil && len(t.buf) > 0 {
		_, t.err = t.w.Write(t.buf)
	}
	t.buf = t.buf[:0]
}

// settingsKeyWidth is the width the keys are padded to (SPEC §10.2).
const settingsKeyWidth = 28

// Header writes the header, the settings and the names (SPEC §10.1-10.3).
func (t *TraceWriter) Header(cfg *Config, seed int, names [NumPlayers]string) {
	t.buf = append(t.buf, "Game\n\nSeed "...)
	t.buf = strconv.AppendInt(t.buf, int64(seed), 10)
	t.buf = append(t.buf, "\n\n"+Version+"\n"...)
	for i, v := range cfg.Values() {
		k := configKeys[i]
		t.buf = append(t.buf, k...)
		for n := len(k); n < settingsKeyWidth; n++ {
			t.buf = append(t.buf, ' ')
		}
		t.buf = append(t.buf, v...)
		t.buf = append(t.buf, '\n')
	}
	t.buf = append(t.buf, "names         "...)
	for _, n := range names {
		t.buf = append(t.buf, ' ')
		t.buf = append(t.buf, n...)
	}
	t.buf = append(t.buf, '\n')
	t.flush()
}

// cellChars[type][virus] is the trace character of a cell (SPEC §3.2).
var cellChars = func() (c [4][16]byte) {
	for v := range c[0] {
		c[Wall][v] = 'W'
		c[Grass][v], c[City][v], c[Path][v] = '.', ';', ','
		if v >= 1 {
			c[Grass][v] = 'a' + byte(v) - 1
			c[City][v] = 'A' + byte(v) - 1
			c[Path][v] = '0' + byte(v) - 1
		}
	}
	return c
}()

// CellChar returns the trace character of a cell of type t with the given
// virus (SPEC §3.2).
func CellChar(t CellType, virus int) byte { return cellChars[t&3][virus&15] }

// appendColumnLabels appends the two column-label lines (SPEC §10.4).
func appendColumnLabels(b []byte, cols int) []byte {
	b = append(b, "   "...)
	for j := 0; j < cols; j++ {
		b = strconv.AppendInt(b, int64(j/10), 10)
	}
	b = append(b, "\n   "...)
	for j := 0; j < cols; j++ {
		b = append(b, '0'+byte(j%10))
	}
	return append(b, '\n')
}

// appendRowLabel appends the label of row i and its space.
func appendRowLabel(b []byte, i int) []byte {
	b = strconv.AppendInt(b, int64(i/10), 10)
	return append(b, '0'+byte(i%10), ' ')
}

func appendPos(b []byte, p Pos) []byte {
	b = strconv.AppendInt(b, int64(p.I), 10)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(p.J), 10)
}

// appendCities appends the cities block, from its leading empty line.
func appendCities(b []byte, cities [][]Pos) []byte {
	b = append(b, "\ncities "...)
	b = strconv.AppendInt(b, int64(len(cities)), 10)
	b = append(b, '\n')
	for _, c := range cities {
		b = append(b, '\n')
		b = strconv.AppendInt(b, int64(len(c)), 10)
		b = append(b, '\n')
		for _, p := range c {
			b = appendPos(b, p)
			b = append(b, '\n')
		}
	}
	return b
}

// appendPaths appends the paths block, from its leading empty line.
func appendPaths(b []byte, paths []PathInfo) []byte {
	b = append(b, "\npaths "...)
	b = strconv.AppendInt(b, int64(len(paths)), 10)
	b = append(b, '\n')
	for _, pa := range paths {
		b = append(b, '\n')
		b = strconv.AppendInt(b, int64(pa.A), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(pa.B), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(len(pa.Cells)), 10)
		b = append(b, '\n')
		for _, p := range pa.Cells {
			b = appendPos(b, p)
			b = append(b, '\n')
		}
	}
	return b
}

// staticKey identifies the cities and paths of a state by their storage.
func staticKey(s *State) ([2]*Pos, [2]int) {
	var key [2]*Pos
	if len(s.Cities) > 0 && len(s.Cities[0]) > 0 {
		key[0] = &s.Cities[0][0]
	}
	if len(s.Paths) > 0 && len(s.Paths[0].Cells) > 0 {
		key[1] = &s.Paths[0].Cells[0]
	}
	return key, [2]int{len(s.Cities), len(s.Paths)}
}

// mapBlocks returns the cities and paths blocks of s, cached while the
// game's map storage stays the same.
func (t *TraceWriter) mapBlocks(s *State) []byte {
	key, sizes := staticKey(s)
	if t.static == nil || key != t.staticFor || sizes != t.staticSizes || key == [2]*Pos{} {
		t.static = appendPaths(appendCities(t.static[:0], s.Cities), s.Paths)
		t.staticFor, t.staticSizes = key, sizes
	}
	return t.static
}

// State writes one state block (SPEC §10.4).
func (t *TraceWriter) State(s *State) {
	rows, cols := s.Rows, s.Cols
	if t.labelsCols != cols || t.labels == nil {
		t.labels = appendColumnLabels(t.labels[:0], cols)
		t.labelsCols = cols
	}
	for len(t.rowLabels) < rows {
		t.rowLabels = append(t.rowLabels, appendRowLabel(nil, len(t.rowLabels)))
	}
	t.buf = append(t.buf, "\n\n"...)
	t.buf = append(t.buf, t.labels...)
	for i := 0; i < rows; i++ {
		t.buf = append(t.buf, t.rowLabels[i]...)
		n := len(t.buf)
		t.buf = append(t.buf, make([]byte, cols+1)...)
		row := t.buf[n : n+cols+1]
		types := s.Types[i*cols : (i+1)*cols]
		virus := s.Virus[i*cols : (i+1)*cols]
		for j, ty := range types {
			row[j] = cellChars[ty&3][virus[j]&15]
		}
		row[cols] = '\n'
	}
	t.buf = append(t.buf, t.mapBlocks(s)...)
	t.buf = append(t.buf, "\nmasks "...)
	t.buf = strconv.AppendInt(t.buf, int64(len(s.Masks)), 10)
	t.buf = append(t.buf, '\n')
	for _, p := range s.Masks {
		t.buf = appendPos(t.buf, p)
		t.buf = append(t.buf, " \n"...)
	}
	t.buf = append(t.buf, "\nround "...)
	t.buf = strconv.AppendInt(t.buf, int64(s.Round), 10)
	t.buf = append(t.buf, "\ntotal_score"...)
	for _, x := range s.Scores {
		t.buf = append(t.buf, ' ')
		t.buf = strconv.AppendInt(t.buf, int64(x), 10)
	}
	t.buf = append(t.buf, "\nstatus 0 0 0 0\n\ncity_owners\n"...)
	for _, o := range s.CityOwner {
		t.buf = append(t.buf, ' ')
		t.buf = strconv.AppendInt(t.buf, int64(o), 10)
	}
	t.buf = append(t.buf, "\n\npath_owners\n"...)
	for _, o := range s.PathOwner {
		t.buf = append(t.buf, ' ')
		t.buf = strconv.AppendInt(t.buf, int64(o), 10)
	}
	t.buf = append(t.buf, "\n\nunits\n"...)
	for id := range s.Units {
		t.buf = AppendUnit(t.buf, &s.Units[id])
		t.buf = append(t.buf, '\n')
	}
	t.buf = append(t.buf, '\n')
	t.flush()
}

// AppendUnit appends a unit's trace line "player i j health " (with its
// trailing space) without the newline.
func AppendUnit(b []byte, u *Unit) []byte {
	b = strconv.AppendInt(b, int64(u.Player), 10)
	b = append(b, ' ')
	b = appendPos(b, u.Pos)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(u.Health), 10)
	return append(b, ' ')
}

// Commands writes one commands block (SPEC §10.5).
func (t *TraceWriter) Commands(moves []Move) {
	t.buf = append(t.buf, "commands\n"...)
	for _, m := range moves {
		t.buf = strconv.AppendInt(t.buf, int64(m.ID), 10)
		t.buf = append(t.buf, ' ', m.Dir.Char(), '\n')
	}
	t.buf = append(t.buf, "-1\n"...)
	t.flush()
}

// Round writes the round g just played (game.Tracer): its commands block
// and the state after it. A round the engine aborted (err) after its
// commands block (g.MovesDone) still writes the block, as the course
// engine writes it before the virus phase; otherwise nothing more.
func (t *TraceWriter) Round(g *Game, err error) {
	if err != nil && !g.MovesDone {
		return
	}
	t.Commands(g.Moves)
	if err == nil {
		t.State(&g.State)
	}
}

// ErrTrace is wrapped by every trace parsing error (course.ErrTrace).
var ErrTrace = course.ErrTrace

// ParseError reports where and why a trace is malformed: the line, the
// round of the state or commands block being read (-1 in the header) and
// what was expected and found.
type ParseError = course.ParseError

// Trace is a parsed .res file (SPEC §10): the header, the states and the
// commands blocks. A complete trace has nb_rounds+1 states; the trace of
// an aborted game ends early, after a state or after a commands block.
type Trace struct {
	Seed int
	// Config holds the eleven settings of the header (the two doubles as
	// printed, with 6 significant digits). The map kind is not in the
	// trace, so Fixed is nil.
	Config Config
	Names  [NumPlayers]string
	// States[k] is the k-th state block (printed as "round k" in a valid
	// trace); Commands[r] is the commands block of round r+1, which leads
	// from States[r] to States[r+1]. An aborted game may end with one
	// commands block more than the states that follow it.
	States   []TraceState
	Commands [][]Move

	cmdLines []int // line of each "commands" keyword
}

// Complete reports whether the trace holds every round of its game.
func (t *Trace) Complete() bool {
	return len(t.States) == t.Config.NbRounds+1 && len(t.Commands) == t.Config.NbRounds
}

// TraceState is one state block as printed.
type TraceState struct {
	// Grid holds the trace character of every cell, row-major.
	Grid      []byte
	Cities    [][]Pos
	Paths     []PathInfo
	Masks     []Pos
	Round     int
	Scores    [NumPlayers]int
	CityOwner []int
	PathOwner []int
	// Units[id] holds the printed fields: ID, Player, Pos and Health.
	Units []Unit

	line lines
}

// lines are the line numbers of the parts of a state block.
type lines struct {
	grid, masks, round, cityOwners, pathOwners, units int
}

// Limits that bound the memory of a parsed trace whatever the input.
const (
	maxTraceBytes = 1 << 28 // cells and unit records over all states
	maxTraceLine  = 16384
)

// ParseTrace reads a trace, plain or gzip-compressed. It is strict: it
// accepts exactly the bytes the engine writes (SPEC §10), with the values
// left for Verify to judge, and reports the first malformed line. A trace
// may end early, right after a state or a commands block, as the trace of
// an aborted game does.
func ParseTrace(r io.Reader) (*Trace, error) {
	tr, err := course.NewTraceReader(r, maxTraceLine)
	if err != nil {
		return nil, err
	}
	tr.SayWant = true
	p := &traceParser{TraceReader: tr}
	return p.parse()
}

// traceParser reads Pandemic's layout with a course.TraceReader, whose
// errors say what was wanted even after a cut line.
type traceParser struct {
	*course.TraceReader
	scratch []Pos
}

func (p *traceParser) parse() (*Trace, error) {
	tr := &Trace{}
	if err := p.header(tr); err != nil {
		return nil, err
	}
	rounds := tr.Config.NbRounds
	tr.States = make([]TraceState, 0, min(rounds+1, 256))
	tr.Commands = make([][]Move, 0, min(rounds, 256))
	for k := 0; k <= rounds; k++ {
		if k > 0 {
			if eof, err := p.AtEOF(); err != nil || eof {
				return tr, err // aborted after a state block
			}
			p.Round = k
			if err := p.commands(tr); err != nil {
				return nil, err
			}
			if eof, err := p.AtEOF(); err != nil || eof {
				return tr, err // aborted after a commands block
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
	tr.Seed = seed
	for _, want := range []string{"", Version} {
		if err := p.Literal(want); err != nil {
			return err
		}
	}
	c := &tr.Config
	ints := c.intFields()
	for i, k := range configKeys {
		prefix := k + strings.Repeat(" ", settingsKeyWidth-len(k))
		if i < len(ints) {
			n, err := p.IntAfter(prefix)
			if err != nil {
				return err
			}
			*ints[i] = n
			continue
		}
		got, err := p.Next(prefix + "<number>")
		if err != nil {
			return err
		}
		v, ok := bytes.CutPrefix(got, []byte(prefix))
		x, okx := parseCDouble(string(v))
		if !ok || !okx || FormatDouble(x) != string(v) {
			return p.Fail("want %q and a number as %%g prints it, got %s", prefix, course.Quote(got))
		}
		if i == 9 {
			c.InfectionFactor = x
		} else {
			c.MaskProtection = x
		}
	}
	if err := c.Validate(); err != nil {
		return p.Fail("settings: %v", err)
	}
	if size := (c.NbRounds + 1) * (c.Rows*c.Cols + 16*c.NumUnits()); size > maxTraceBytes {
		return p.Fail("settings too large for a trace: %d rounds of a %d x %d board", c.NbRounds, c.Rows, c.Cols)
	}
	return p.Names("names         ", `"names", 9 spaces and 4 names each preceded by one space`, tr.Names[:])
}

func (p *traceParser) commands(tr *Trace) error {
	tr.cmdLines = append(tr.cmdLines, p.Line+1)
	moves, err := course.ReadMoves(p.TraceReader, commandsBlock, tr.Config.NumUnits(), func(id int, c byte) (Move, bool) {
		d, ok := DirFromChar(c)
		return Move{ID: id, Dir: d}, ok && d != None
	})
	if err != nil {
		return err
	}
	tr.Commands = append(tr.Commands, moves)
	return nil
}

// commandsBlock is the commands block of a round (SPEC §10).
var commandsBlock = course.MoveBlock{Keyword: "commands", Noun: "command", Want: "<b|r|t|l>", Chars: "brtl"}

// WriteTo writes the trace in the .res format. For a parsed trace the
// output is byte-identical to the input.
func (t *Trace) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	tw := NewTraceWriter(cw)
	tw.Header(&t.Config, t.Seed, t.Names)
	var s State
	s.Cfg, s.Rows, s.Cols = &t.Config, t.Config.Rows, t.Config.Cols
	n := s.Rows * s.Cols
	s.Types, s.Virus = make([]CellType, n), make([]uint8, n)
	for k := range t.States {
		if k > 0 {
			tw.Commands(t.Commands[k-1])
		}
		t.States[k].toState(&s)
		tw.State(&s)
	}
	if len(t.Commands) >= len(t.States) && len(t.States) > 0 {
		tw.Commands(t.Commands[len(t.States)-1])
	}
	return cw.n, tw.Err()
}

// toState fills the printed fields of s from the trace state; s.Types and
// s.Virus must be allocated.
func (ts *TraceState) toState(s *State) {
	for idx, ch := range ts.Grid {
		t, v, _ := cellOfChar(ch)
		s.Types[idx], s.Virus[idx] = t, uint8(v)
	}
	s.Cities, s.Paths, s.Masks = ts.Cities, ts.Paths, ts.Masks
	s.Round, s.Scores = ts.Round, ts.Scores
	s.CityOwner, s.PathOwner, s.Units = ts.CityOwner, ts.PathOwner, ts.Units
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
