package pandemic

import (
	"bytes"
	"io"
	"strings"

	"jgym/course"
)

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
