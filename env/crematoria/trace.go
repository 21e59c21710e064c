package crematoria

import (
	"io"
	"strconv"
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
