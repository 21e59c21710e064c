package pandemic

import (
	"bytes"
	"slices"

	"jgym/course"
)

// Parsing of a state block (SPEC §10.4).

// gridOK marks the characters a cell may print as.
var gridOK = func() (ok [256]bool) {
	for ch := 0; ch < 256; ch++ {
		_, _, ok[ch] = cellOfChar(byte(ch))
	}
	return ok
}()

func (p *traceParser) state(tr *Trace, s *TraceState) error {
	c := &tr.Config
	for range 2 {
		if err := p.Literal(""); err != nil {
			return err
		}
	}
	labels := appendColumnLabels(nil, c.Cols)
	nl := bytes.IndexByte(labels, '\n')
	for _, want := range []string{string(labels[:nl]), string(labels[nl+1 : len(labels)-1])} {
		if err := p.Literal(want); err != nil {
			return err
		}
	}
	s.line.grid = p.Line + 1
	s.Grid = make([]byte, c.Rows*c.Cols)
	var label []byte
	for i := 0; i < c.Rows; i++ {
		got, err := p.Next("a row of the grid")
		if err != nil {
			return err
		}
		label = appendRowLabel(label[:0], i)
		if !bytes.HasPrefix(got, label) || len(got) != len(label)+c.Cols {
			return p.Fail("grid row %d: want %q and %d cell characters, got %s", i, label, c.Cols, course.Quote(got))
		}
		row := got[len(label):]
		for j, ch := range row {
			if !gridOK[ch] {
				return p.Fail("grid cell (%d, %d): character %q is not a cell", i, j, ch)
			}
		}
		copy(s.Grid[i*c.Cols:], row)
	}
	if err := p.cities(tr, s); err != nil {
		return err
	}
	if err := p.paths(tr, s); err != nil {
		return err
	}
	if err := p.Literal(""); err != nil {
		return err
	}
	n, err := p.IntAfter("masks ")
	if err != nil {
		return err
	}
	if n < 0 || n > c.Rows*c.Cols {
		return p.Fail("masks: bad count %d", n)
	}
	s.line.masks = p.Line
	s.Masks = make([]Pos, 0, min(n, 64))
	for k := 0; k < n; k++ {
		got, err := p.Next(`a mask "i j "`)
		if err != nil {
			return err
		}
		var m Pos
		if len(got) < 2 || got[len(got)-1] != ' ' || course.IntFields(got[:len(got)-1], []*int{&m.I, &m.J}) >= 0 {
			return p.Fail("mask %d: want \"i j \" (with the trailing space), got %s", k, course.Quote(got))
		}
		s.Masks = append(s.Masks, m)
	}
	if err := p.Literal(""); err != nil {
		return err
	}
	if s.Round, err = p.IntAfter("round "); err != nil {
		return err
	}
	s.line.round = p.Line
	got, err := p.Next("total_score and 4 integers")
	if err != nil {
		return err
	}
	rest, ok := bytes.CutPrefix(got, []byte("total_score "))
	if !ok || course.IntFields(rest, []*int{&s.Scores[0], &s.Scores[1], &s.Scores[2], &s.Scores[3]}) >= 0 {
		return p.Fail("want \"total_score\" and 4 integers separated by single spaces, got %s", course.Quote(got))
	}
	for _, want := range []string{"status 0 0 0 0", "", "city_owners"} {
		if err := p.Literal(want); err != nil {
			return err
		}
	}
	s.line.cityOwners = p.Line + 1
	s.CityOwner = make([]int, len(s.Cities))
	if err := p.spaceInts("the city owners", s.CityOwner); err != nil {
		return err
	}
	for _, want := range []string{"", "path_owners"} {
		if err := p.Literal(want); err != nil {
			return err
		}
	}
	s.line.pathOwners = p.Line + 1
	s.PathOwner = make([]int, len(s.Paths))
	if err := p.spaceInts("the path owners", s.PathOwner); err != nil {
		return err
	}
	for _, want := range []string{"", "units"} {
		if err := p.Literal(want); err != nil {
			return err
		}
	}
	s.line.units = p.Line + 1
	s.Units = make([]Unit, c.NumUnits())
	for id := range s.Units {
		got, err := p.Next(`a unit "player i j health "`)
		if err != nil {
			return err
		}
		u := &s.Units[id]
		u.ID = id
		if len(got) < 2 || got[len(got)-1] != ' ' || course.IntFields(got[:len(got)-1], []*int{&u.Player, &u.Pos.I, &u.Pos.J, &u.Health}) >= 0 {
			return p.Fail("unit %d: want \"player i j health \" (with the trailing space), got %s", id, course.Quote(got))
		}
	}
	return p.Literal("")
}

// cities reads the cities block, sharing the previous state's list when
// equal.
func (p *traceParser) cities(tr *Trace, s *TraceState) error {
	limit := tr.Config.Rows * tr.Config.Cols
	if err := p.Literal(""); err != nil {
		return err
	}
	n, err := p.IntAfter("cities ")
	if err != nil {
		return err
	}
	if n < 0 || n > limit {
		return p.Fail("cities: bad count %d", n)
	}
	cities := make([][]Pos, 0, min(n, 64))
	for k := 0; k < n; k++ {
		if err := p.Literal(""); err != nil {
			return err
		}
		size, err := p.IntAfter("")
		if err != nil {
			return err
		}
		if size < 0 || size > limit {
			return p.Fail("city %d: bad size %d", k, size)
		}
		var prev []Pos
		if k0 := len(tr.States) - 2; k0 >= 0 && k < len(tr.States[k0].Cities) {
			prev = tr.States[k0].Cities[k]
		}
		cells, err := p.positions(size, "city cell", prev)
		if err != nil {
			return err
		}
		cities = append(cities, cells)
	}
	s.Cities = cities
	if k := len(tr.States) - 2; k >= 0 && slices.EqualFunc(tr.States[k].Cities, cities, slices.Equal) {
		s.Cities = tr.States[k].Cities
	}
	return nil
}

// paths reads the paths block, sharing the previous state's list when
// equal.
func (p *traceParser) paths(tr *Trace, s *TraceState) error {
	limit := tr.Config.Rows * tr.Config.Cols
	if err := p.Literal(""); err != nil {
		return err
	}
	n, err := p.IntAfter("paths ")
	if err != nil {
		return err
	}
	if n < 0 || n > limit {
		return p.Fail("paths: bad count %d", n)
	}
	paths := make([]PathInfo, 0, min(n, 64))
	for k := 0; k < n; k++ {
		if err := p.Literal(""); err != nil {
			return err
		}
		got, err := p.Next(`"a b size"`)
		if err != nil {
			return err
		}
		var pa PathInfo
		var size int
		if course.IntFields(got, []*int{&pa.A, &pa.B, &size}) >= 0 || size < 0 || size > limit {
			return p.Fail("path %d: want \"a b size\", got %s", k, course.Quote(got))
		}
		var prev []Pos
		if k0 := len(tr.States) - 2; k0 >= 0 && k < len(tr.States[k0].Paths) {
			prev = tr.States[k0].Paths[k].Cells
		}
		if pa.Cells, err = p.positions(size, "path cell", prev); err != nil {
			return err
		}
		paths = append(paths, pa)
	}
	s.Paths = paths
	if k := len(tr.States) - 2; k >= 0 && slices.EqualFunc(tr.States[k].Paths, paths, equalPath) {
		s.Paths = tr.States[k].Paths
	}
	return nil
}

func equalPath(a, b PathInfo) bool { return a.A == b.A && a.B == b.B && slices.Equal(a.Cells, b.Cells) }

// positions reads n lines "i j". When they equal prev, prev is returned
// (states share their identical map lists).
func (p *traceParser) positions(n int, what string, prev []Pos) ([]Pos, error) {
	ps := p.scratch[:0]
	for k := 0; k < n; k++ {
		got, err := p.Next(`"i j"`)
		if err != nil {
			return nil, err
		}
		q, ok := parsePair(got)
		if !ok {
			return nil, p.Fail("%s %d: want \"i j\", got %s", what, k, course.Quote(got))
		}
		ps = append(ps, q)
	}
	p.scratch = ps
	if slices.Equal(ps, prev) {
		return prev, nil
	}
	return slices.Clone(ps), nil
}

// parsePair parses "i j" as the engine writes two integers.
func parsePair(b []byte) (Pos, bool) {
	sp := bytes.IndexByte(b, ' ')
	if sp < 0 {
		return Pos{}, false
	}
	i, ok1 := course.CanonInt(b[:sp])
	j, ok2 := course.CanonInt(b[sp+1:])
	return Pos{i, j}, ok1 && ok2
}
