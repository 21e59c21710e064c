package pandemic

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
