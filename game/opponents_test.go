package game

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

// floats writes float32 values little-endian, as the games' globals.
func floats(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func TestScoreOrder(t *testing.T) {
	tests := []struct {
		name     string
		globals  []byte
		at       int
		want     Relabel
		identity bool
	}{
		{"distinct", floats(9, 0.5, 0.1, 0.3, 0.2), 1, Relabel{0, 3, 1, 2}, false},
		{"rel 3 leads", floats(0, 1, 2, 3), 0, Relabel{0, 3, 2, 1}, false},
		{"ties keep rel order", floats(0, 0.2, 0.3, 0.2), 0, Relabel{0, 2, 1, 3}, false},
		{"all tie", floats(5, 1, 1, 1), 0, Relabel{0, 1, 2, 3}, true},
		{"in order already", floats(0, 3, 2, 1), 0, Relabel{0, 1, 2, 3}, true},
		{"my score does not count", floats(100, 3, 2, 1), 0, Relabel{0, 1, 2, 3}, true},
		{"negative scores", floats(0, -1, -3, -2), 0, Relabel{0, 1, 3, 2}, false},
		{"too short", floats(0, 1, 2), 0, Relabel{0, 1, 2, 3}, true},
		{"not encoded", nil, 3, Relabel{0, 1, 2, 3}, true},
	}
	for _, tc := range tests {
		got, identity := ScoreOrder(tc.globals, tc.at)
		if got != tc.want || identity != tc.identity {
			t.Errorf("%s: ScoreOrder = %v, %v, want %v, %v", tc.name, got, identity, tc.want, tc.identity)
		}
	}
}

func TestRelabel(t *testing.T) {
	r := Relabel{0, 3, 1, 2}
	codes := []struct{ c, base, want uint8 }{
		{0, 0, 0}, {1, 0, 3}, {2, 0, 1}, {3, 0, 2}, {4, 0, 4}, {255, 0, 255},
		{0, 1, 0}, {1, 1, 1}, {2, 1, 4}, {3, 1, 2}, {4, 1, 3}, {5, 1, 5},
		{4, 5, 4}, {5, 5, 5}, {6, 5, 8}, {8, 5, 7}, {9, 5, 9}, {0, 252, 0}, {253, 252, 255},
	}
	for _, c := range codes {
		if got := r.Code(c.c, c.base); got != c.want {
			t.Errorf("Code(%d, %d) = %d, want %d", c.c, c.base, got, c.want)
		}
	}

	plane := []byte{0, 1, 2, 3, 4, 5, 9}
	r.Plane(plane, 1)
	if want := []byte{0, 1, 4, 2, 3, 5, 9}; !slices.Equal(plane, want) {
		t.Errorf("Plane = %v, want %v", plane, want)
	}

	// Three rows of width 3, column 1 holds a rel owner.
	table := []byte{7, 0, 7, 7, 1, 7, 7, 5, 7}
	r.Column(table, 3, 1, 0)
	if want := []byte{7, 0, 7, 7, 3, 7, 7, 5, 7}; !slices.Equal(table, want) {
		t.Errorf("Column = %v, want %v", table, want)
	}

	g := floats(-1, 10, 11, 12, 13, -2)
	r.Floats(g, 1)
	if want := floats(-1, 10, 12, 13, 11, -2); !slices.Equal(g, want) {
		t.Errorf("Floats = %v, want %v", g, want)
	}
	short := floats(1, 2, 3)
	r.Floats(short, 0)
	if !slices.Equal(short, floats(1, 2, 3)) {
		t.Error("Floats changed a block too short to hold four values")
	}
}
