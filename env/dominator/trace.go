package dominator

import (
	"io"
	"strconv"
)

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
