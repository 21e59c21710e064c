package crematoria

import (
	"io"
	"strings"

	"jgym/course"
)

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
