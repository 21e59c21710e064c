package dominator

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"jgym/game/gametest"
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

// TestOrderOpponentsByScore checks hand-worked examples on a 7 x 7 board:
// the owner and unit codes, the units' owners, the four per-player blocks
// of globals, and that nothing else moves.
func TestOrderOpponentsByScore(t *testing.T) {
	const cells = 49
	type cell struct {
		plane, idx int
		in, want   uint8
	}
	tests := []struct {
		name   string
		scores [4]float32
		nr     [4]uint8 // the new rel of rel 0..3
		cells  []cell
	}{{
		// rel 3 leads, then rel 1, then rel 2: 1->2, 2->3, 3->1.
		name:   "distinct",
		scores: [4]float32{0.5, 0.2, 0.1, 0.3},
		nr:     [4]uint8{0, 2, 3, 1},
		cells: []cell{
			{PlaneOwner, 0, 0, 0}, // no owner
			{PlaneOwner, 1, 1, 1}, // mine
			{PlaneOwner, 2, 2, 3}, // rel 1's cell
			{PlaneOwner, 3, 3, 4},
			{PlaneOwner, 4, 4, 2},
			{PlaneOwner, cells - 1, 4, 2},
			{PlaneUnit, 0, 0, 0},   // no unit
			{PlaneUnit, 1, 1, 1},   // my farmer
			{PlaneUnit, 2, 3, 3},   // my witch
			{PlaneUnit, 3, 4, 7},   // rel 1's farmer
			{PlaneUnit, 4, 5, 8},   // rel 1's knight
			{PlaneUnit, 5, 6, 9},   // rel 1's witch
			{PlaneUnit, 6, 8, 11},  // rel 2's knight
			{PlaneUnit, 7, 10, 4},  // rel 3's farmer
			{PlaneUnit, 8, 12, 6},  // rel 3's witch
			{PlaneUnit, 9, 13, 13}, // no such code: kept
			{PlaneUnit, cells - 1, 11, 5},
			{PlaneTerrain, 5, 1, 1}, // other planes stay
			{PlaneHealth, 6, 4, 4},
			{PlaneHaunted, 7, 1, 1},
			{PlaneThreat, 8, 3, 3},
		},
	}, {
		// rel 2 leads; rel 1 and 3 tie and keep their order: 1->2, 2->1.
		name:   "ties",
		scores: [4]float32{0, 0.2, 0.3, 0.2},
		nr:     [4]uint8{0, 2, 1, 3},
		cells: []cell{
			{PlaneOwner, 2, 2, 3},
			{PlaneOwner, 3, 3, 2},
			{PlaneOwner, 4, 4, 4},
			{PlaneUnit, 3, 4, 7},
			{PlaneUnit, 6, 8, 5},
			{PlaneUnit, 8, 12, 12},
		},
	}, {
		name:   "all tie",
		scores: [4]float32{0.3, 0.2, 0.2, 0.2},
		nr:     [4]uint8{0, 1, 2, 3},
		cells: []cell{
			{PlaneOwner, 2, 2, 2},
			{PlaneUnit, 6, 8, 8},
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			board := make([]byte, BoardPlanes*cells)
			wantBoard := make([]byte, BoardPlanes*cells)
			for _, c := range tc.cells {
				board[c.plane*cells+c.idx] = c.in
				wantBoard[c.plane*cells+c.idx] = c.want
			}
			units := make([]byte, 8*UnitFeatures)
			for id := range 8 {
				row := units[id*UnitFeatures : (id+1)*UnitFeatures]
				for k := range row {
					row[k] = uint8(10*id + k)
				}
				row[1] = uint8(id % 4)
			}
			wantUnits := slices.Clone(units)
			for id := range 8 {
				wantUnits[id*UnitFeatures+1] = tc.nr[id%4]
			}
			var g [NumGlobals]float32
			for i := range g {
				g[i] = float32(i) + 0.5
			}
			for r, s := range tc.scores {
				g[6+r] = s
			}
			wantG := g
			for r := range 4 {
				for _, at := range []int{2, 6, 10, 14} {
					wantG[at+int(tc.nr[r])] = g[at+r]
				}
			}
			glob := putGlobals(g)

			OrderOpponentsByScore(board, units, glob)

			if i := gametest.DiffIndex(board, wantBoard); i >= 0 {
				t.Errorf("board[%d] (plane %d, cell %d) = %d, want %d", i, i/cells, i%cells, board[i], wantBoard[i])
			}
			if i := gametest.DiffIndex(units, wantUnits); i >= 0 {
				t.Errorf("units[%d][%d] = %d, want %d", i/UnitFeatures, i%UnitFeatures, units[i], wantUnits[i])
			}
			if got := getGlobals(glob); got != wantG {
				t.Errorf("globals = %v, want %v", got, wantG)
			}
		})
	}
}

// permuteSeats returns a copy of s in which player p is player to[p]: the
// owners of units and cells and every per-player list and count. Encoded
// for a seat that stays, it is that seat's observation with the
// opponents relabelled: the test's own statement of what the relabelling
// must give, which finds any tensor the transform would miss.
func permuteSeats(s *State, to [NumPlayers]int) *State {
	var c State
	c.CopyFrom(s)
	for id := range c.Units {
		c.Units[id].Player = to[c.Units[id].Player]
	}
	for idx := range c.Grid {
		if o := c.Grid[idx].Owner; o >= 0 {
			c.Grid[idx].Owner = int8(to[o])
		}
	}
	for p := range NumPlayers {
		c.Land[to[p]], c.TotalScore[to[p]] = s.Land[p], s.TotalScore[p]
		c.Farmers[to[p]] = slices.Clone(s.Farmers[p])
		c.Knights[to[p]] = slices.Clone(s.Knights[p])
		c.Witches[to[p]] = slices.Clone(s.Witches[p])
	}
	return &c
}

// TestOrderOpponentsByScoreIsASeatPermutation: in games with Khan at the
// table (scores that differ), every seat's tensors relabelled by
// OrderOpponentsByScore equal the encoder's for the same state with the
// opponents renumbered in order of decreasing total score (permuteSeats),
// all five of them (gametest.OpponentsByScore).
func TestOrderOpponentsByScoreIsASeatPermutation(t *testing.T) {
	gametest.OpponentsByScore(t, Def, gametest.Relabel[State]{
		Games: []gametest.RelabelGame{
			{Seed: 3, Bots: [NumPlayers]string{"Demo", "Khan", "Demo", "Demo"}},
			{Seed: 8, Bots: [NumPlayers]string{"Demo", "Demo", "Khan", "Khan"}},
		},
		Rounds:    []int{0, 20, 60, 120, 200},
		Short:     []int{0, 40},
		Scores:    func(s *State) [NumPlayers]int { return s.TotalScore },
		Permute:   permuteSeats,
		Opponents: func(obs [][]byte) [3]float32 { g := getGlobals(obs[2]); return [3]float32{g[7], g[8], g[9]} },
	})
}

// TestOrderOpponentsByScoreOnAnyBytes: on random tensors with many ties,
// the codes of the relabelled planes and columns map one to one by the
// new rels and every other byte stays; the transform allocates nothing.
func TestOrderOpponentsByScoreOnAnyBytes(t *testing.T) {
	const cells = 37 * 37
	rng := rand.New(rand.NewPCG(5, 6))
	moved := 0
	for k := range 300 {
		board := make([]byte, BoardPlanes*cells)
		for i := range board {
			board[i] = uint8(rng.IntN(15))
		}
		units := make([]byte, 12*UnitFeatures)
		for i := range units {
			units[i] = uint8(rng.IntN(6))
		}
		var v [NumGlobals]float32
		for i := range v {
			v[i] = float32(rng.IntN(3)) / 4 // few values: many ties
		}
		glob := putGlobals(v)
		var scores [NumPlayers]int
		for r := range scores {
			scores[r] = int(4 * v[6+r])
		}
		nr := gametest.ByScore(scores, 0)
		if nr != [NumPlayers]uint8{0, 1, 2, 3} {
			moved++
		}
		b, u, g := slices.Clone(board), slices.Clone(units), slices.Clone(glob)
		OrderOpponentsByScore(b, u, g)
		for i := range board {
			want := board[i]
			switch plane, c := i/cells, board[i]; {
			case plane == PlaneOwner && c >= 1 && c <= 4:
				want = 1 + nr[c-1]
			case plane == PlaneUnit && c >= 1 && c <= 12:
				want = 1 + 3*nr[(c-1)/3] + (c-1)%3
			}
			if b[i] != want {
				t.Fatalf("case %d: board[%d] (plane %d) %d became %d, want %d", k, i, i/cells, board[i], b[i], want)
			}
		}
		for i := range units {
			want := units[i]
			if i%UnitFeatures == 1 && want < 4 {
				want = nr[want]
			}
			if u[i] != want {
				t.Fatalf("case %d: units[%d][%d] %d became %d, want %d", k, i/UnitFeatures, i%UnitFeatures, units[i], u[i], want)
			}
		}
		gl := getGlobals(g)
		for i := range gl {
			want := v[i]
			if i >= 2 && i < 18 {
				at := 2 + (i-2)/4*4
				want = v[at+slices.Index(nr[:], uint8(i-at))]
			}
			if gl[i] != want {
				t.Fatalf("case %d: globals[%d] = %g, want %g", k, i, gl[i], want)
			}
		}
	}
	if moved < 100 {
		t.Errorf("the opponents reordered in %d of 300 cases: the test proves little", moved)
	}
	// The policy bot and the env run it every round: it allocates nothing
	// (the scores reset each run, so that every call relabels).
	board, units := make([]byte, BoardPlanes*cells), make([]byte, 128*UnitFeatures)
	ascending := putGlobals([NumGlobals]float32{6: 0.1, 7: 0.2, 8: 0.3, 9: 0.4})
	glob := slices.Clone(ascending)
	if n := testing.AllocsPerRun(20, func() {
		copy(glob, ascending)
		OrderOpponentsByScore(board, units, glob)
	}); n != 0 {
		t.Errorf("OrderOpponentsByScore allocates %v times a call, want 0", n)
	}
}
