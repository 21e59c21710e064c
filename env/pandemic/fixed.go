package pandemic

import (
	"fmt"
	"strconv"
)

// cellOfChar returns the type and virus of a trace character (SPEC §3.2);
// ok is false for a character no cell prints as.
func cellOfChar(ch byte) (t CellType, virus int, ok bool) {
	c := charCells[ch]
	return c.t, int(c.v), c.ok
}

// charCells decodes every trace character.
var charCells = func() (tab [256]struct {
	t  CellType
	v  uint8
	ok bool
}) {
	for t := Wall; t <= Path; t++ {
		for v := 0; v <= MaxVirus(t); v++ {
			c := &tab[CellChar(t, v)]
			c.t, c.v, c.ok = t, uint8(v), true
		}
	}
	return tab
}()

// parseFixed reads the map of a FIXED configuration (SPEC §4.8), in the
// format of the first part of a trace state block.
func parseFixed(tk *tokenizer, rows, cols int) (*FixedMap, error) {
	fm := &FixedMap{}
	fail := func(format string, a ...any) (*FixedMap, error) {
		return nil, fmt.Errorf("%w: FIXED map: %s", ErrConfig, fmt.Sprintf(format, a...))
	}
	for k := 0; k < 2; k++ {
		if _, ok := tk.next(); !ok {
			return fail("missing column labels")
		}
	}
	for i := 0; i < rows; i++ {
		if _, ok := tk.next(); !ok {
			return fail("missing the label of row %d", i)
		}
		row, ok := tk.next()
		if !ok {
			return fail("missing row %d", i)
		}
		if len(row) != cols {
			return fail("row %d has %d characters, want %d", i, len(row), cols)
		}
		fm.Grid = append(fm.Grid, row)
	}
	count := func(word string, limit int) (int, error) {
		tok, ok := tk.next()
		if !ok || tok != word {
			return 0, fmt.Errorf("%w: FIXED map: expected %q, got %q", ErrConfig, word, tok)
		}
		return readCount(tk, word, limit)
	}
	limit := rows * cols
	n, err := count("cities", limit)
	if err != nil {
		return nil, err
	}
	for k := 0; k < n; k++ {
		size, err := readCount(tk, "city size", limit)
		if err != nil {
			return nil, err
		}
		cells, err := readPositions(tk, size)
		if err != nil {
			return nil, err
		}
		fm.Cities = append(fm.Cities, cells)
	}
	if n, err = count("paths", limit); err != nil {
		return nil, err
	}
	for k := 0; k < n; k++ {
		var v [3]int
		for x := range v {
			tok, _ := tk.next()
			val, ok := parseCInt(tok)
			if !ok {
				return fail("path %d: %q is not an integer", k, tok)
			}
			v[x] = val
		}
		if v[2] < 0 || v[2] > limit {
			return fail("path %d: bad size %d", k, v[2])
		}
		cells, err := readPositions(tk, v[2])
		if err != nil {
			return nil, err
		}
		fm.Paths = append(fm.Paths, PathInfo{A: v[0], B: v[1], Cells: cells})
	}
	if n, err = count("masks", limit); err != nil {
		return nil, err
	}
	if fm.Masks, err = readPositions(tk, n); err != nil {
		return nil, err
	}
	return fm, nil
}

func readCount(tk *tokenizer, what string, limit int) (int, error) {
	tok, _ := tk.next()
	n, ok := parseCInt(tok)
	if !ok || n < 0 || n > limit {
		return 0, fmt.Errorf("%w: FIXED map: bad %s %q", ErrConfig, what, tok)
	}
	return n, nil
}

func readPositions(tk *tokenizer, n int) ([]Pos, error) {
	ps := make([]Pos, 0, min(n, 4096))
	for k := 0; k < n; k++ {
		var v [2]int
		for x := range v {
			tok, _ := tk.next()
			val, ok := parseCInt(tok)
			if !ok {
				return nil, fmt.Errorf("%w: FIXED map: %q is not a coordinate", ErrConfig, tok)
			}
			v[x] = val
		}
		ps = append(ps, Pos{v[0], v[1]})
	}
	return ps, nil
}

// check validates a FIXED map against the board size. Besides what the
// kit checks (the characters, masks on GRASS), jgym requires the lists to
// be consistent with the grid: city cells are CITY, path cells PATH, each
// cell in at most one city or path, path ends valid city ids, masks on
// distinct cells.
func (fm *FixedMap) check(rows, cols int) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: FIXED map: %s", ErrConfig, fmt.Sprintf(format, a...))
	}
	if len(fm.Grid) != rows {
		return fail("%d rows, want %d", len(fm.Grid), rows)
	}
	for i, row := range fm.Grid {
		if len(row) != cols {
			return fail("row %d has %d characters, want %d", i, len(row), cols)
		}
		for j := 0; j < cols; j++ {
			if _, _, ok := cellOfChar(row[j]); !ok {
				return fail("cell (%d, %d): character %q is not a cell", i, j, row[j])
			}
		}
	}
	typ := func(p Pos) (CellType, bool) {
		if p.I < 0 || p.I >= rows || p.J < 0 || p.J >= cols {
			return 0, false
		}
		t, _, _ := cellOfChar(fm.Grid[p.I][p.J])
		return t, true
	}
	used := make(map[Pos]bool)
	for k, city := range fm.Cities {
		for _, p := range city {
			if t, ok := typ(p); !ok || t != City || used[p] {
				return fail("city %d: cell %v is not a free CITY cell", k, p)
			}
			used[p] = true
		}
	}
	for k, path := range fm.Paths {
		if path.A < 0 || path.A >= len(fm.Cities) || path.B < 0 || path.B >= len(fm.Cities) {
			return fail("path %d joins cities %d and %d, want ids below %d", k, path.A, path.B, len(fm.Cities))
		}
		for _, p := range path.Cells {
			if t, ok := typ(p); !ok || t != Path || used[p] {
				return fail("path %d: cell %v is not a free PATH cell", k, p)
			}
			used[p] = true
		}
	}
	masks := make(map[Pos]bool)
	for _, p := range fm.Masks {
		if t, ok := typ(p); !ok || t != Grass || masks[p] {
			return fail("mask at %v is not on a free GRASS cell", p)
		}
		masks[p] = true
	}
	return nil
}

// appendText appends the map in the format parseFixed reads (that of a
// trace state block, SPEC §10.4).
func (fm *FixedMap) appendText(b []byte, cols int) []byte {
	b = appendColumnLabels(b, cols)
	for i, row := range fm.Grid {
		b = appendRowLabel(b, i)
		b = append(b, row...)
		b = append(b, '\n')
	}
	b = appendCities(b, fm.Cities)
	b = appendPaths(b, fm.Paths)
	b = append(b, "\nmasks "...)
	b = strconv.AppendInt(b, int64(len(fm.Masks)), 10)
	b = append(b, '\n')
	for _, p := range fm.Masks {
		b = appendPos(b, p)
		b = append(b, " \n"...)
	}
	return b
}
