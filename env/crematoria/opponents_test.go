package crematoria

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// putGlobals writes float32 values little-endian, as Observer.Globals.
func putGlobals(v [NumGlobals]float32) []byte {
	b := make([]byte, 4*NumGlobals)
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func getGlobals(b []byte) [NumGlobals]float32 {
	var v [NumGlobals]float32
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// wantRel is the test's own statement of the relabelling: the opponents
// sorted stably by decreasing score.
func wantRel(glob []byte) [NumPlayers]uint8 {
	g := getGlobals(glob)
	order := []int{1, 2, 3}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case g[3+a] > g[3+b]:
			return -1
		case g[3+a] < g[3+b]:
			return 1
		}
		return 0
	})
	var nr [NumPlayers]uint8
	for k, old := range order {
		nr[old] = uint8(1 + k)
	}
	return nr
}

// code is a board byte: terrain | unit << 3.
func code(terrain, unit uint8) uint8 { return terrain | unit<<3 }

// TestOrderOpponentsByScore checks hand-worked examples: the codes of both
// planes, the units' owners and the globals, and that nothing else moves.
func TestOrderOpponentsByScore(t *testing.T) {
	type cell struct {
		plane, idx int
		in, want   uint8
	}
	tests := []struct {
		name   string
		scores [4]float32
		cells  []cell
		owners []uint8 // units column 1 after, for owners 0, 1, 2, 3 before
	}{{
		// rel 2 leads, then rel 3, then rel 1: 1->3, 2->1, 3->2.
		name:   "distinct",
		scores: [4]float32{0.5, 0.1, 0.3, 0.2},
		cells: []cell{
			{0, 0, code(0, 0), code(0, 0)},    // Rock
			{0, 1, code(1, 2), code(1, 4)},    // unowned cave, Pioneer of rel 1
			{0, 2, code(2, 0), code(2, 0)},    // Elevator
			{0, 3, code(3, 1), code(3, 1)},    // my cave, my Pioneer
			{0, 4, code(4, 6), code(6, 8)},    // rel 1's cave, its Furyan
			{0, 5, code(5, 7), code(4, 6)},    // rel 2's cave and Furyan
			{0, 6, code(6, 4), code(5, 3)},    // rel 3's cave and Pioneer
			{0, 7, code(4, 9), code(6, 9)},    // rel 1's cave, a hellhound
			{0, 8, code(5, 10), code(4, 10)},  // rel 2's cave, a necromonger
			{0, 9, code(6, 3), code(5, 2)},    // rel 3's cave, rel 2's Pioneer
			{0, 3199, code(3, 8), code(3, 7)}, // last cell of level 0
			{1, 0, code(1, 0), code(1, 0)},    // a gem
			{1, 1, code(1, 2), code(1, 4)},    // a gem, rel 1's Pioneer
			{1, 2, code(2, 8), code(2, 7)},    // Elevator, rel 3's Furyan
			{1, 3, code(0, 5), code(0, 5)},    // my Furyan
			{1, 4, code(4, 3), code(4, 2)},    // terrain 4 on level 1 stays
			{1, 3199, code(0, 3), code(0, 2)}, // last cell of level 1
			{2, 0, 0x7f, 0x7f},                // flags stay
			{2, 3199, code(4, 2), code(4, 2)},
		},
		owners: []uint8{0, 3, 1, 2},
	}, {
		// rel 2 leads; rel 1 and 3 tie and keep their order: 1->2, 2->1.
		name:   "ties",
		scores: [4]float32{0, 0.2, 0.3, 0.2},
		cells: []cell{
			{0, 4, code(4, 6), code(5, 7)},
			{0, 5, code(5, 3), code(4, 2)},
			{0, 6, code(6, 8), code(6, 8)},
			{1, 1, code(1, 2), code(1, 3)},
		},
		owners: []uint8{0, 2, 1, 3},
	}, {
		name:   "all tie",
		scores: [4]float32{0.1, 0.2, 0.2, 0.2},
		cells: []cell{
			{0, 4, code(4, 6), code(4, 6)},
			{0, 5, code(5, 3), code(5, 3)},
			{1, 1, code(1, 2), code(1, 2)},
		},
		owners: []uint8{0, 1, 2, 3},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			board := make([]byte, BoardBytes)
			for _, c := range tc.cells {
				board[c.plane*LevelCells+c.idx] = c.in
			}
			units := make([]byte, 8*UnitFeatures)
			for id := range 8 {
				row := units[id*UnitFeatures : (id+1)*UnitFeatures]
				for k := range row {
					row[k] = uint8(10*id + k)
				}
				row[1] = uint8(id % 4)
			}
			var g [NumGlobals]float32
			for i := range g {
				g[i] = float32(i) + 0.5
			}
			for r, s := range tc.scores {
				g[3+r] = s
				g[7+r] = float32(r) / 1000 // cells
				g[11+r] = float32(10+r) / 10
			}
			glob := putGlobals(g)
			wantBoard := make([]byte, BoardBytes)
			for _, c := range tc.cells {
				wantBoard[c.plane*LevelCells+c.idx] = c.want
			}
			wantUnits := slices.Clone(units)
			for id := range 8 {
				wantUnits[id*UnitFeatures+1] = tc.owners[id%4]
			}
			wantG := g
			for r := range 4 {
				for _, base := range []int{3, 7, 11} {
					wantG[base+int(tc.owners[r])] = g[base+r]
				}
			}

			OrderOpponentsByScore(board, units, glob)

			if i := diffIndex(board, wantBoard); i >= 0 {
				t.Errorf("board[%d] (plane %d, cell %d) = %#x, want %#x", i, i/LevelCells, i%LevelCells, board[i], wantBoard[i])
			}
			if i := diffIndex(units, wantUnits); i >= 0 {
				t.Errorf("units[%d][%d] = %d, want %d", i/UnitFeatures, i%UnitFeatures, units[i], wantUnits[i])
			}
			if got := getGlobals(glob); got != wantG {
				t.Errorf("globals = %v, want %v", got, wantG)
			}
		})
	}
}

// diffIndex is the first index where a and b differ, or -1.
func diffIndex(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestOrderOpponentsByScoreIsARelabelling checks, on observations of real
// games (Riddick and Demos, so that the scores differ) and on random
// tensors with many ties, that the transform only renames the opponents:
// applying it twice gives what once does, the opponents' scores are then in
// decreasing order, and every code, owner and per-rel global of old rel r
// is found, as many times, under the new rel of r (wantRel).
func TestOrderOpponentsByScoreIsARelabelling(t *testing.T) {
	type obs struct{ board, units, glob []byte }
	var cases []obs
	g := newTestGame(t, 7)
	riddick := newRiddick(t)
	bots := func(me, seed int) Bot {
		if me == 1 {
			return riddick(me, seed)
		}
		return NewDemo(me, seed)
	}
	var ob Observer
	for _, r := range []int{0, 30, 80, 150} {
		playRoundsWith(t, g, r-g.Round, bots)
		for me := range NumPlayers {
			u := NumSlots(g.Cfg)
			o := obs{make([]byte, BoardBytes), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals)}
			ob.Board(&g.State, me, o.board)
			ob.Units(&g.State, me, o.units)
			ob.Globals(&g.State, me, o.glob)
			cases = append(cases, o)
		}
	}
	nGames := len(cases)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		o := obs{make([]byte, BoardBytes), make([]byte, 12*UnitFeatures), make([]byte, 4*NumGlobals)}
		for i := range o.board {
			o.board[i] = uint8(rng.IntN(128))
		}
		for i := range o.units {
			o.units[i] = uint8(rng.IntN(5)) // owners 0..3 and an out-of-range 4
		}
		var v [NumGlobals]float32
		for i := range v {
			v[i] = float32(rng.IntN(4)) / 8 // few values: many ties
		}
		o.glob = putGlobals(v)
		cases = append(cases, o)
	}
	movedReal, moved := 0, 0
	for k, in := range cases {
		nr := wantRel(in.glob)
		once := obs{slices.Clone(in.board), slices.Clone(in.units), slices.Clone(in.glob)}
		OrderOpponentsByScore(once.board, once.units, once.glob)
		twice := obs{slices.Clone(once.board), slices.Clone(once.units), slices.Clone(once.glob)}
		OrderOpponentsByScore(twice.board, twice.units, twice.glob)
		if !bytes.Equal(twice.board, once.board) || !bytes.Equal(twice.units, once.units) || !bytes.Equal(twice.glob, once.glob) {
			t.Fatalf("case %d: twice differs from once", k)
		}
		if nr != [NumPlayers]uint8{0, 1, 2, 3} {
			moved++
			if k < nGames {
				movedReal++
			}
		}
		gl := getGlobals(once.glob)
		if gl[4] < gl[5] || gl[5] < gl[6] {
			t.Fatalf("case %d: the opponents' scores after are %v, not decreasing", k, gl[4:7])
		}
		// Each code of the two level planes maps to one code, and the
		// counts follow it.
		for plane := range 2 {
			var before, after [256]int
			for i := plane * LevelCells; i < (plane+1)*LevelCells; i++ {
				before[in.board[i]]++
				after[once.board[i]]++
			}
			for c, n := range before {
				terrain, unit := uint8(c)&7, uint8(c)>>3
				if plane == 0 && terrain >= 3 && terrain <= 6 {
					terrain = 3 + nr[terrain-3]
				}
				switch {
				case unit >= 1 && unit <= 4:
					unit = 1 + nr[unit-1]
				case unit >= 5 && unit <= 8:
					unit = 5 + nr[unit-5]
				}
				if m := terrain | unit<<3; after[m] != n {
					t.Fatalf("case %d plane %d: %d cells of code %#x before, %d of its image %#x after", k, plane, n, c, after[m], m)
				}
			}
		}
		if !bytes.Equal(once.board[2*LevelCells:], in.board[2*LevelCells:]) {
			t.Fatalf("case %d: plane 2 changed", k)
		}
		for i := range in.units {
			want := in.units[i]
			if i%UnitFeatures == 1 && want < 4 {
				want = nr[want]
			}
			if once.units[i] != want {
				t.Fatalf("case %d: units[%d][%d] = %d, want %d", k, i/UnitFeatures, i%UnitFeatures, once.units[i], want)
			}
		}
		gin := getGlobals(in.glob)
		for i := range gl {
			want := gin[i]
			if i >= 3 && i < 15 {
				base := 3 + (i-3)/4*4
				r := slices.Index(nr[:], uint8(i-base))
				want = gin[base+r]
			}
			if gl[i] != want {
				t.Fatalf("case %d: globals[%d] = %g, want %g", k, i, gl[i], want)
			}
		}
	}
	// PolicyBot runs it every round: it allocates nothing.
	c := cases[len(cases)-1]
	if n := testing.AllocsPerRun(20, func() { OrderOpponentsByScore(c.board, c.units, c.glob) }); n != 0 {
		t.Errorf("OrderOpponentsByScore allocates %v times a call, want 0", n)
	}
	t.Logf("opponents reordered in %d of %d observations of games, %d of %d random ones", movedReal, nGames, moved-movedReal, len(cases)-nGames)
	if movedReal < 4 || moved-movedReal < 50 {
		t.Errorf("opponents reordered in %d of %d observations of games, %d of %d random ones: the test proves little", movedReal, nGames, moved-movedReal, len(cases)-nGames)
	}
}
