package game

import (
	"slices"
	"testing"
)

// logState is a state with a cell log, as the games' States hold one.
type logState struct {
	cells [4096]uint8
	log   CellLogRef[logState]
}

func (s *logState) write(idx int, v uint8) {
	s.log.Note(s, idx)
	s.cells[idx] = v
}

// runs joins Advance's two runs.
func runs(a, b []uint16) []int {
	var out []int
	for _, run := range [][]uint16{a, b} {
		for _, i := range run {
			out = append(out, int(i))
		}
	}
	return out
}

// TestCellLogAdvance checks what an observer's mark reads from a state's
// log: every write since its last call, in order, across the ring's end;
// and that a copy by value, a restored older copy, Changed, another
// state's log and more writes than the ring holds make it compare every
// cell instead (ok false).
func TestCellLogAdvance(t *testing.T) {
	s := &logState{}
	var m CellLogMark[logState]
	if _, _, ok := m.Advance(&s.log, s); ok {
		t.Fatal("a state never written has a valid log")
	}
	s.write(7, 1)
	m.Set(&s.log, s)
	if a, b, ok := m.Advance(&s.log, s); !ok || len(a)+len(b) != 0 {
		t.Fatalf("no write since Set: runs %v %v, ok %v", a, b, ok)
	}
	// Writes that cross the ring's end, many times over.
	next := 0
	for round := 0; round < 40; round++ {
		var want []int
		for k := 0; k < 100+round*7; k++ {
			idx := (next*37 + k) % len(s.cells)
			s.write(idx, uint8(k))
			want = append(want, idx)
		}
		next++
		a, b, ok := m.Advance(&s.log, s)
		if !ok || !slices.Equal(runs(a, b), want) {
			t.Fatalf("round %d: ok %v, %d cells read, want the %d written", round, ok, len(a)+len(b), len(want))
		}
	}
	// Exactly a ring's worth is still readable; one more is not.
	for _, n := range []int{CellLogSize, CellLogSize + 1} {
		for k := 0; k < n; k++ {
			s.write(k%len(s.cells), 1)
		}
		a, b, ok := m.Advance(&s.log, s)
		if ok != (n == CellLogSize) || (ok && len(a)+len(b) != n) {
			t.Fatalf("%d writes: ok %v, %d cells read", n, ok, len(a)+len(b))
		}
	}
	// A copy by value is not the log's owner.
	c := *s
	c.write(3, 9)
	if _, _, ok := m.Advance(&c.log, &c); ok {
		t.Fatal("the mark reads a copy's writes from the original's log")
	}
	// The original after the copy's write: its own log still holds.
	m.Set(&s.log, s)
	s.write(5, 2)
	if a, b, ok := m.Advance(&s.log, s); !ok || !slices.Equal(runs(a, b), []int{5}) {
		t.Fatalf("the original's log after a copy wrote: %v %v %v", a, b, ok)
	}
	// An older copy restored by value.
	old := *s
	s.write(6, 3)
	m.Set(&s.log, s)
	*s = old
	s.write(8, 4)
	if _, _, ok := m.Advance(&s.log, s); ok {
		t.Fatal("a restored older copy's writes read as a continuation")
	}
	// Changed: the cells edited outside the log.
	m.Set(&s.log, s)
	s.cells[9] = 7
	s.log.Changed(s)
	if _, _, ok := m.Advance(&s.log, s); ok {
		t.Fatal("the mark reads past Changed")
	}
	// Another state's log.
	other := &logState{}
	other.write(1, 1)
	m.Set(&s.log, s)
	if _, _, ok := m.Advance(&other.log, other); ok {
		t.Fatal("the mark reads another state's log as its own")
	}
}
