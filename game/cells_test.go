package game

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// testCell is a cell of 6 bytes: 12 of them are 9 words, so DiffCells
// meets two blocks of four words and a word after them.
type testCell struct {
	Type, Owner uint8
	ID          int16
	Turns       int16
}

// testCells holds 13 cells aligned to 8 bytes.
type testCells struct {
	_ [0]uint64
	c [13]testCell
}

// TestDiffCells: DiffCells reports the cells that changed, in index order,
// with their old values, and leaves was equal to now; past limit changed
// words it says so.
func TestDiffCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		var nb, wb testCells
		now := nb.c[:12]
		for i := range now {
			now[i] = testCell{uint8(rng.IntN(3)), uint8(rng.IntN(2)), int16(rng.IntN(3)), int16(rng.IntN(2))}
		}
		was := wb.c[:12]
		copy(was, now)
		for range rng.IntN(4) {
			was[rng.IntN(len(was))].ID += int16(1 + rng.IntN(3))
		}
		var want []int
		wantOld := map[int]testCell{}
		for i := range now {
			if now[i] != was[i] {
				want = append(want, i)
				wantOld[i] = was[i]
			}
		}
		var got []int
		ok := DiffCells(now, was, len(now), func(idx int, old testCell) {
			if old != wantOld[idx] {
				t.Fatalf("trial %d cell %d: old %v, want %v", trial, idx, old, wantOld[idx])
			}
			got = append(got, idx)
		})
		if !ok || !slices.Equal(got, want) || !slices.Equal(was, now) {
			t.Fatalf("trial %d: DiffCells = %v, cells %v, was == now %v; want true, %v, true", trial, ok, got, slices.Equal(was, now), want)
		}
	}
	var nb, wb testCells
	for i := range wb.c {
		wb.c[i].ID = 1
	}
	if DiffCells(nb.c[:12], wb.c[:12], 3, func(int, testCell) {}) {
		t.Error("DiffCells with every word changed and limit 3 = true, want false")
	}
	if DiffCells(nb.c[1:], wb.c[1:], 100, func(int, testCell) {}) || CellWords(nb.c[1:]) != nil {
		t.Error("DiffCells of cells at 6 bytes past a word = true, want false (not aligned)")
	}
}
