package moria

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"jgym/course/coursetest"
	"jgym/game/gametest"
	"jgym/policy"
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

// TestOrderOpponentsByScore checks hand-worked examples: the owner and
// unit codes of the board, the units' owners, the four per-clan blocks of
// globals, and that nothing else moves.
func TestOrderOpponentsByScore(t *testing.T) {
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
			{planeOwner, 0, 0, 0}, // no owner
			{planeOwner, 1, 1, 1}, // mine
			{planeOwner, 2, 2, 3}, // rel 1's cave
			{planeOwner, 3, 3, 4},
			{planeOwner, 4, 4, 2},
			{planeOwner, NumCells - 1, 4, 2},
			{planeUnit, 0, 0, 0},    // no unit
			{planeUnit, 1, 1, 1},    // my dwarf
			{planeUnit, 2, 2, 3},    // rel 1's dwarf
			{planeUnit, 3, 4, 2},    // rel 3's dwarf
			{planeUnit, 4, 5, 5},    // my wizard
			{planeUnit, 5, 6, 7},    // rel 1's wizard
			{planeUnit, 6, 7, 8},    // rel 2's wizard
			{planeUnit, 7, 8, 6},    // rel 3's wizard
			{planeUnit, 8, 9, 9},    // an orc
			{planeUnit, 9, 10, 10},  // a troll
			{planeUnit, 10, 11, 11}, // the Balrog
			{planeUnit, NumCells - 1, 3, 4},
			{planeTerrain, 5, 2, 2}, // other planes stay
			{planeTreasure, 6, 1, 1},
			{planeRock, 7, 3, 3},
			{planeHealth, 8, 4, 4},
			{planeFlags, 9, 3, 3},
		},
	}, {
		// rel 2 leads; rel 1 and 3 tie and keep their order: 1->2, 2->1.
		name:   "ties",
		scores: [4]float32{0, 0.2, 0.3, 0.2},
		nr:     [4]uint8{0, 2, 1, 3},
		cells: []cell{
			{planeOwner, 2, 2, 3},
			{planeOwner, 3, 3, 2},
			{planeOwner, 4, 4, 4},
			{planeUnit, 2, 2, 3},
			{planeUnit, 6, 7, 6},
		},
	}, {
		name:   "all tie",
		scores: [4]float32{0.3, 0.2, 0.2, 0.2},
		nr:     [4]uint8{0, 1, 2, 3},
		cells: []cell{
			{planeOwner, 2, 2, 2},
			{planeUnit, 6, 7, 7},
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			board := make([]byte, BoardBytes)
			for _, c := range tc.cells {
				board[c.plane*NumCells+c.idx] = c.in
			}
			wantBoard := make([]byte, BoardBytes)
			for _, c := range tc.cells {
				wantBoard[c.plane*NumCells+c.idx] = c.want
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
				g[2+r] = s
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
				t.Errorf("board[%d] (plane %d, cell %d) = %d, want %d", i, i/NumCells, i%NumCells, board[i], wantBoard[i])
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

// permuteClans returns a copy of s in which clan p is clan to[p]: the
// owners of units and caves and every per-clan list and count. Encoded
// for a seat that stays, it is that seat's observation with the
// opponents relabelled: the test's own statement of what the relabelling
// must give, which finds any tensor the transform would miss.
func permuteClans(s *State, to [NumPlayers]int) *State {
	var c State
	c.CopyFrom(s)
	for id := range c.Units {
		if p := c.Units[id].Player; p >= 0 {
			c.Units[id].Player = to[p]
		}
	}
	for idx := range c.Cells {
		if o := c.Cells[idx].Owner; o >= 0 {
			c.Cells[idx].Owner = int8(to[o])
		}
	}
	for p := range NumPlayers {
		c.Dwarves[to[p]] = slices.Clone(s.Dwarves[p])
		c.Wizards[to[p]] = slices.Clone(s.Wizards[p])
		c.NbCells[to[p]] = s.NbCells[p]
		c.NbTreasures[to[p]] = s.NbTreasures[p]
	}
	return &c
}

// TestOrderOpponentsByScoreIsAClanPermutation: in games with Balin at the
// table (scores that differ), every seat's tensors relabelled by
// OrderOpponentsByScore equal the encoder's for the same state with the
// opponents' clans renumbered in order of decreasing score
// (permuteClans), all four of them (gametest.OpponentsByScore).
func TestOrderOpponentsByScoreIsAClanPermutation(t *testing.T) {
	gametest.OpponentsByScore(t, Def, gametest.Relabel[State]{
		Games: []gametest.RelabelGame{
			{Seed: 3, Bots: [NumPlayers]string{"Demo", "Balin", "Demo", "Demo"}},
			{Seed: 8, Bots: [NumPlayers]string{"Demo", "Demo", "Balin", "Balin"}},
		},
		Rounds:    []int{0, 20, 60, 120, 199},
		Short:     []int{0, 40},
		Scores:    func(s *State) [NumPlayers]int { return s.Scores() },
		Permute:   permuteClans,
		Opponents: func(obs [][]byte) [3]float32 { g := getGlobals(obs[2]); return [3]float32{g[3], g[4], g[5]} },
	})
}

// TestOrderOpponentsByScoreOnAnyBytes: on random tensors with many ties,
// the codes of the relabelled planes and columns map one to one by the
// new rels and every other byte stays; the transform allocates nothing.
func TestOrderOpponentsByScoreOnAnyBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	moved := 0
	for k := range 300 {
		board := make([]byte, BoardBytes)
		for i := range board {
			board[i] = uint8(rng.IntN(14))
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
			scores[r] = int(4 * v[2+r])
		}
		nr := gametest.ByScore(scores, 0)
		if nr != [NumPlayers]uint8{0, 1, 2, 3} {
			moved++
		}
		b, u, g := slices.Clone(board), slices.Clone(units), slices.Clone(glob)
		OrderOpponentsByScore(b, u, g)
		for i := range board {
			want := board[i]
			switch plane, c := i/NumCells, board[i]; {
			case plane == planeOwner && c >= 1 && c <= 4:
				want = 1 + nr[c-1]
			case plane == planeUnit && c >= 1 && c <= 4:
				want = 1 + nr[c-1]
			case plane == planeUnit && c >= 5 && c <= 8:
				want = 5 + nr[c-5]
			}
			if b[i] != want {
				t.Fatalf("case %d: board[%d] (plane %d) %d became %d, want %d", k, i, i/NumCells, board[i], b[i], want)
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
	board, units := make([]byte, BoardBytes), make([]byte, 100*UnitFeatures)
	ascending := putGlobals([NumGlobals]float32{2: 0.1, 3: 0.2, 4: 0.3, 5: 0.4})
	glob := slices.Clone(ascending)
	if n := testing.AllocsPerRun(20, func() {
		copy(glob, ascending)
		OrderOpponentsByScore(board, units, glob)
	}); n != 0 {
		t.Errorf("OrderOpponentsByScore allocates %v times a call, want 0", n)
	}
}

// TestAttacks checks hand-placed neighbours of a dwarf and of a wizard of
// clan 0: a dwarf attacks another clan's dwarves and wizards, in any of
// the eight directions; not its own units, orcs, the Balrog, nor an empty
// cell; a wizard never attacks.
func TestAttacks(t *testing.T) {
	g := newTestGame(t, 5)
	s := &g.State
	var me *Unit
	for _, id := range s.Dwarves[0] {
		if p := s.Units[id].Pos; p.I > 0 && p.I < Rows-1 && p.J > 0 && p.J < Cols-1 {
			me = &s.Units[id]
			break
		}
	}
	if me == nil {
		t.Fatal("no dwarf of clan 0 off the edge")
	}
	wizard := s.Units[s.Wizards[0][0]] // clan 0's wizard, moved onto me's cell
	wizard.Pos = me.Pos
	neighbours := []struct {
		d    Dir
		id   int // -1: no unit
		want bool
	}{
		{Right, s.Dwarves[1][0], true},    // a rival dwarf
		{BR, s.Wizards[2][0], true},       // a rival wizard, diagonally
		{LB, s.Dwarves[3][1], true},       // another rival dwarf
		{Bottom, s.Cfg.FirstOrc(), false}, // an orc
		{Left, s.Wizards[0][0], false},    // my own wizard
		{Top, s.BalrogID, false},          // the Balrog
		{TL, s.Dwarves[0][1], false},      // my own dwarf
		{RT, -1, false},                   // no unit
	}
	for _, n := range neighbours {
		s.Cells[me.Pos.Add(n.d).Index()].ID = int16(n.id)
	}
	for _, n := range neighbours {
		if got := Attacks(s, me, n.d); got != n.want {
			t.Errorf("Attacks(dwarf, %v) = %v, want %v", n.d, got, n.want)
		}
		if Attacks(s, &wizard, n.d) {
			t.Errorf("Attacks(wizard, %v) = true, want false", n.d)
		}
		if prio, want := attacksFirst(s, 0, me.ID, n.d), b2i(!n.want); prio != want {
			t.Errorf("attacksFirst(dwarf, %v) = %d, want %d", n.d, prio, want)
		}
	}
	if Attacks(s, me, None) || Attacks(s, me, DirSize) {
		t.Error("Attacks(dwarf, None or an invalid direction) = true")
	}
}

// attacksTwin plays a seat with the bot of a model whose action_order is
// attacks_first and checks, every round, that its orders are those of
// the same weights in slot order, rearranged: first the attacks
// (Attacks), then the others, each group in increasing id.
type attacksTwin struct {
	t                         *testing.T
	first, slot               *PolicyBot
	me                        int
	rounds, attacks, reorders int
}

func (w *attacksTwin) Play(s *State, o *Orders) {
	w.first.Play(s, o)
	var plain Orders
	plain.Reset(len(s.Units))
	w.slot.Play(s, &plain)
	var want, later []Command
	for _, c := range plain.List() {
		if Attacks(s, &s.Units[c.ID], c.Dir) {
			want = append(want, c)
		} else {
			later = append(later, c)
		}
	}
	if len(want) > 0 && len(later) > 0 && later[0].ID < want[len(want)-1].ID {
		w.reorders++
	}
	w.attacks += len(want)
	want = append(want, later...)
	if got := o.List(); !slices.Equal(got, want) {
		w.t.Fatalf("round %d: the orders attacks first are %v, want %v", s.Round, got, want)
	}
	w.rounds++
}

// A model whose action_order is attacks_first gives the orders of the
// same weights in slot order, the attacks first; in a game against Balin
// and Demos some attacks are moved ahead of other commands.
func TestPolicyBotAttacksFirst(t *testing.T) {
	raw := tinyPolicy(NumSlots(&defaultConfig), 4)
	plain := parseModel(t, raw)
	m := parseModel(t, coursetest.WithMetadata(raw, policy.KeyActionOrder, policy.OrderAttacksFirst))
	if m.ActionOrder != policy.OrderAttacksFirst {
		t.Fatalf("ActionOrder = %q, want %q", m.ActionOrder, policy.OrderAttacksFirst)
	}
	const seed, me = 6, 1
	w := &attacksTwin{t: t, first: Def.NewPolicyBot(m, me), slot: Def.NewPolicyBot(plain, me), me: me}
	bots := [NumPlayers]Bot{NewBalin(0, seed), w, NewDemo(2, seed), NewBalin(3, seed)}
	if _, err := playTrace(withRounds(DefaultConfig(), 200), seed, [4]string{"Balin", "Tiny", "Demo", "Balin"}, bots); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rounds, %d attacks, %d rounds with an attack moved ahead", w.rounds, w.attacks, w.reorders)
	if w.reorders == 0 {
		t.Errorf("in %d rounds no attack was moved ahead of another command: the test proves little", w.rounds)
	}
}
