package moria

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
