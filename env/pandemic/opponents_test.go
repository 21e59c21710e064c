package pandemic

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

// globalBlocks are the first entries of the per-player blocks of globals:
// scores, cities, paths, units, income.
var globalBlocks = []int{3, 7, 11, 15, 19}

// TestOrderOpponentsByScore checks hand-worked examples on a 5 x 5 board:
// the unit and conquest codes, the units' owner and conquest columns, the
// five per-player blocks of globals, and that nothing else moves.
func TestOrderOpponentsByScore(t *testing.T) {
	const cells = 25
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
			{PlaneUnit, 0, 0, 0}, // no unit
			{PlaneUnit, 1, 1, 1}, // mine
			{PlaneUnit, 2, 2, 3}, // rel 1's
			{PlaneUnit, 3, 3, 4},
			{PlaneUnit, 4, 4, 2},
			{PlaneUnit, cells - 1, 4, 2},
			{PlaneConquest, 0, 0, 0}, // grass, wall or unowned
			{PlaneConquest, 1, 1, 1}, // my city or path
			{PlaneConquest, 2, 2, 3},
			{PlaneConquest, 3, 3, 4},
			{PlaneConquest, 4, 4, 2},
			{PlaneTerrain, 5, 2, 2}, // other planes stay
			{PlaneVirus, 6, 3, 3},
			{PlaneHealth, 7, 4, 4},
			{PlaneFlags, 8, 3, 3},
		},
	}, {
		// rel 2 leads; rel 1 and 3 tie and keep their order: 1->2, 2->1.
		name:   "ties",
		scores: [4]float32{0, 0.2, 0.3, 0.2},
		nr:     [4]uint8{0, 2, 1, 3},
		cells: []cell{
			{PlaneUnit, 2, 2, 3},
			{PlaneUnit, 3, 3, 2},
			{PlaneUnit, 4, 4, 4},
			{PlaneConquest, 2, 2, 3},
			{PlaneConquest, 3, 3, 2},
		},
	}, {
		name:   "all tie",
		scores: [4]float32{0.3, 0.2, 0.2, 0.2},
		nr:     [4]uint8{0, 1, 2, 3},
		cells: []cell{
			{PlaneUnit, 2, 2, 2},
			{PlaneConquest, 3, 3, 3},
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
			units := make([]byte, 10*UnitFeatures)
			for id := range 10 {
				row := units[id*UnitFeatures : (id+1)*UnitFeatures]
				for k := range row {
					row[k] = uint8(20*id + k)
				}
				row[UnitOwner] = uint8(id % 4)
				row[UnitConquest] = uint8(id % 5) // 0: none, else 1 + rel
			}
			wantUnits := slices.Clone(units)
			for id := range 10 {
				wantUnits[id*UnitFeatures+UnitOwner] = tc.nr[id%4]
				if c := id % 5; c > 0 {
					wantUnits[id*UnitFeatures+UnitConquest] = 1 + tc.nr[c-1]
				}
			}
			var g [NumGlobals]float32
			for i := range g {
				g[i] = float32(i) + 0.5
			}
			for r, s := range tc.scores {
				g[3+r] = s
			}
			wantG := g
			for r := range 4 {
				for _, at := range globalBlocks {
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
// owners of units, cities and paths, the players' unit lists and scores.
// Encoded for a seat that stays, it is that seat's observation with the
// opponents relabelled: the test's own statement of what the relabelling
// must give, which finds any tensor the transform would miss.
func permuteSeats(s *State, to [NumPlayers]int) *State {
	var c State
	c.CopyFrom(s)
	for id := range c.Units {
		c.Units[id].Player = to[c.Units[id].Player]
	}
	for k, o := range c.CityOwner {
		if o >= 0 {
			c.CityOwner[k] = to[o]
		}
	}
	for k, o := range c.PathOwner {
		if o >= 0 {
			c.PathOwner[k] = to[o]
		}
	}
	for p := range NumPlayers {
		c.PlayerUnits[to[p]] = slices.Clone(s.PlayerUnits[p])
		c.Scores[to[p]] = s.Scores[p]
	}
	return &c
}

// TestOrderOpponentsByScoreIsASeatPermutation: in games with Pasteur at
// the table (scores that differ), every seat's tensors relabelled by
// OrderOpponentsByScore equal the encoder's for the same state with the
// opponents renumbered in order of decreasing score (permuteSeats), all
// four of them (gametest.OpponentsByScore).
func TestOrderOpponentsByScoreIsASeatPermutation(t *testing.T) {
	gametest.OpponentsByScore(t, Def, gametest.Relabel[State]{
		Games: []gametest.RelabelGame{
			{Seed: 3, Bots: [NumPlayers]string{"Demo", "Pasteur", "Demo", "Demo"}},
			{Seed: 8, Bots: [NumPlayers]string{"Demo", "Demo", "Pasteur", "Pasteur"}},
		},
		Rounds:    []int{0, 20, 60, 120, 199},
		Short:     []int{0, 40},
		Scores:    func(s *State) [NumPlayers]int { return s.Scores },
		Permute:   permuteSeats,
		Opponents: func(obs [][]byte) [3]float32 { g := getGlobals(obs[2]); return [3]float32{g[4], g[5], g[6]} },
	})
}

// TestOrderOpponentsByScoreOnAnyBytes: on random tensors with many ties,
// the codes of the relabelled planes and columns map one to one by the
// new rels and every other byte stays; the transform allocates nothing.
func TestOrderOpponentsByScoreOnAnyBytes(t *testing.T) {
	const cells = 70 * 70
	rng := rand.New(rand.NewPCG(5, 6))
	moved := 0
	for k := range 200 {
		board := make([]byte, BoardPlanes*cells)
		for i := range board {
			board[i] = uint8(rng.IntN(7))
		}
		units := make([]byte, 12*UnitFeatures)
		for i := range units {
			units[i] = uint8(rng.IntN(7))
		}
		var v [NumGlobals]float32
		for i := range v {
			v[i] = float32(rng.IntN(3)) / 4 // few values: many ties
		}
		glob := putGlobals(v)
		var scores [NumPlayers]int
		for r := range scores {
			scores[r] = int(4 * v[3+r])
		}
		nr := gametest.ByScore(scores, 0)
		if nr != [NumPlayers]uint8{0, 1, 2, 3} {
			moved++
		}
		b, u, g := slices.Clone(board), slices.Clone(units), slices.Clone(glob)
		OrderOpponentsByScore(b, u, g)
		for i := range board {
			want := board[i]
			if plane, c := i/cells, board[i]; (plane == PlaneUnit || plane == PlaneConquest) && c >= 1 && c <= 4 {
				want = 1 + nr[c-1]
			}
			if b[i] != want {
				t.Fatalf("case %d: board[%d] (plane %d) %d became %d, want %d", k, i, i/cells, board[i], b[i], want)
			}
		}
		for i := range units {
			want := units[i]
			switch col := i % UnitFeatures; {
			case col == UnitOwner && want < 4:
				want = nr[want]
			case col == UnitConquest && want >= 1 && want <= 4:
				want = 1 + nr[want-1]
			}
			if u[i] != want {
				t.Fatalf("case %d: units[%d][%d] %d became %d, want %d", k, i/UnitFeatures, i%UnitFeatures, units[i], u[i], want)
			}
		}
		gl := getGlobals(g)
		for i := range gl {
			want := v[i]
			if i >= 3 && i < 23 {
				at := 3 + (i-3)/4*4
				want = v[at+slices.Index(nr[:], uint8(i-at))]
			}
			if gl[i] != want {
				t.Fatalf("case %d: globals[%d] = %g, want %g", k, i, gl[i], want)
			}
		}
	}
	if moved < 60 {
		t.Errorf("the opponents reordered in %d of 200 cases: the test proves little", moved)
	}
	// The policy bot and the env run it every round: it allocates nothing
	// (the scores reset each run, so that every call relabels).
	board, units := make([]byte, BoardPlanes*cells), make([]byte, 60*UnitFeatures)
	ascending := putGlobals([NumGlobals]float32{3: 0.1, 4: 0.2, 5: 0.3, 6: 0.4})
	glob := slices.Clone(ascending)
	if n := testing.AllocsPerRun(20, func() {
		copy(glob, ascending)
		OrderOpponentsByScore(board, units, glob)
	}); n != 0 {
		t.Errorf("OrderOpponentsByScore allocates %v times a call, want 0", n)
	}
}
