package dominator

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"testing"

	"jgym/env"
)

// cloneGame returns an independent copy of g that can be stepped without
// touching g.
func cloneGame(g *Game) *Game {
	c := &Game{cfg: g.cfg, seed: g.seed, rng: g.rng, owned: g.owned}
	c.State.CopyFrom(&g.State)
	c.State.Cfg = &c.cfg
	c.moved = append([]int32(nil), g.moved...)
	c.killed = append([]int32(nil), g.killed...)
	return c
}

func newTestGame(t testing.TB, seed int) *Game {
	t.Helper()
	g, err := New(DefaultConfig(), seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playRounds plays n rounds of g with the given bots (Demos when nil).
func playRounds(t testing.TB, g *Game, n int, bots *[NumPlayers]Bot) {
	t.Helper()
	if bots == nil {
		bots = &[NumPlayers]Bot{}
		for p := range bots {
			bots[p] = NewDemo(p, g.Seed())
		}
	}
	var o [NumPlayers]Orders
	var cmds [NumPlayers][]Command
	var view State
	for r := 0; r < n && !g.Done(); r++ {
		for p := range bots {
			o[p].Reset(len(g.Units))
			g.State.View(p, &view)
			bots[p].Play(&view, &o[p])
			cmds[p] = o[p].List()
		}
		if err := g.Step(&cmds); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCloneGame(t *testing.T) {
	g := newTestGame(t, 4)
	playRounds(t, g, 20, nil)
	c := cloneGame(g)
	playRounds(t, c, 30, nil)
	playRounds(t, g, 30, nil)
	var a, b bytes.Buffer
	NewTraceWriter(&a).State(&g.State)
	NewTraceWriter(&b).State(&c.State)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("a clone played the same rounds differently")
	}
}

func TestViewPos(t *testing.T) {
	const n = 37
	for k := 0; k < NumPlayers; k++ {
		for _, p := range []Pos{{0, 0}, {1, 5}, {36, 2}, {18, 18}} {
			if got := RealPos(ViewPos(p, k, n), k, n); got != p {
				t.Errorf("RealPos(ViewPos(%v, %d)) = %v, want %v", p, k, got, p)
			}
		}
	}
	// Player 1's Right is the real Top (SPEC §3.4): the view cell to the
	// right of a unit is the real cell above it.
	p := Pos{20, 3}
	v := ViewPos(p, 1, n)
	if got, want := RealPos(v.Add(Right), 1, n), p.Add(Top); got != want {
		t.Errorf("player 1: view Right of %v is real %v, want %v", p, got, want)
	}
	if got := Right.Rotate(1); got != Top {
		t.Errorf("Right.Rotate(1) = %v, want Top", got)
	}
}

// TestObservationMatchesView checks that encoding the real state for seat
// me gives the same tensors as encoding me's view (State.View) for seat 0,
// and decodes the board back against the view, over a game.
func TestObservationMatchesView(t *testing.T) {
	g := newTestGame(t, 7)
	var ob Observer
	n := g.cfg.Rows
	cells := n * n
	u := NumSlots(&g.cfg)
	size := []int{BoardPlanes * cells, u * UnitFeatures, 4 * NumGlobals, u * NumDirs, u * NumDirs}
	enc := func(s *State, me int) [][]byte {
		out := make([][]byte, len(size))
		for i := range out {
			out[i] = make([]byte, size[i])
		}
		ob.Board(s, me, out[0])
		ob.Units(s, me, out[1])
		ob.Globals(s, me, out[2])
		ob.Mask(s, me, out[3])
		ob.MoveMask(s, me, out[4])
		return out
	}
	var view State
	for r := 0; r < 60; r += 3 {
		for me := 0; me < NumPlayers; me++ {
			g.State.View(me, &view)
			a, b := enc(&g.State, me), enc(&view, 0)
			for i := range a {
				if !bytes.Equal(a[i], b[i]) {
					t.Fatalf("round %d seat %d: tensor %d of the real state differs from the view's", g.Round, me, i)
				}
			}
			board := a[0]
			for k := 0; k < cells; k++ {
				c := view.Grid[k]
				wantU, wantH := uint8(0), uint8(0)
				if c.ID >= 0 {
					x := view.Units[c.ID]
					wantU, wantH = uint8(1+3*x.Player+int(x.Type)), healthPercent(&g.cfg, &x)
				}
				got := [5]uint8{board[k], board[cells+k], board[2*cells+k], board[3*cells+k], board[4*cells+k]}
				want := [5]uint8{b2u(c.Type != Wall), uint8(c.Owner + 1), wantU, wantH, b2u(c.Haunted)}
				if got != want {
					t.Fatalf("round %d seat %d view cell %d: planes %v, want %v", g.Round, me, k, got, want)
				}
			}
		}
		playRounds(t, g, 3, nil)
	}
}

// TestObservationHandChecked checks values of seed 1's initial state
// worked out by hand from SPEC §4.4 and §5.
func TestObservationHandChecked(t *testing.T) {
	g := newTestGame(t, 1)
	var ob Observer
	n := 37
	cells := n * n
	board := make([]byte, BoardPlanes*cells)
	// Witch 32 (player 1) stands at (34, 16). Seat 1 sees it at ViewPos:
	// (16, 36-34) = (16, 2), its own witch: 1 + 0 + 2 = 3, health 100.
	ob.Board(&g.State, 1, board)
	at := func(plane, i, j int) byte { return board[plane*cells+i*n+j] }
	if got := at(PlaneUnit, 16, 2); got != 3 {
		t.Errorf("seat 1 view (16, 2) unit = %d, want 3 (own witch)", got)
	}
	if got := at(PlaneHaunted, 16, 2); got != 1 {
		t.Errorf("seat 1 view (16, 2) haunted = %d, want 1", got)
	}
	// Seat 0 sees player 1's witch 32 at (34, 16) as rel 1: 1 + 3 + 2 = 6;
	// the cells within 3 of it are in reach of an enemy witch step.
	ob.Board(&g.State, 0, board)
	if got := at(PlaneUnit, 34, 16); got != 6 {
		t.Errorf("seat 0 (34, 16) unit = %d, want 6", got)
	}
	if got := at(PlaneThreat, 31, 16) & ThreatWitchStep; got == 0 {
		t.Errorf("seat 0 (31, 16): no ThreatWitchStep bit (3 rows above witch 32)")
	}
	if got := at(PlaneThreat, 1, 1) & MyBox; got == 0 {
		t.Errorf("seat 0 (1, 1): not in its box")
	}
	units := make([]byte, NumSlots(&g.cfg)*UnitFeatures)
	ob.Units(&g.State, 1, units)
	want := []byte{1, 0, 2, 100, 16, 2, 1, 1} // witch 32, seen by seat 1
	if got := units[32*UnitFeatures : 33*UnitFeatures]; !bytes.Equal(got, want) {
		t.Errorf("units[32] for seat 1 = %v, want %v", got, want)
	}
	want = []byte{0, 3, 2, 100, 2, 33, 1, 1} // witch 0 at (3, 2) is (2, 36-3); player 0 is rel 3 of seat 1
	if got := units[:UnitFeatures]; !bytes.Equal(got, want) {
		t.Errorf("units[0] for seat 1 = %v, want %v", got, want)
	}
	gl := make([]byte, 4*NumGlobals)
	ob.Globals(&g.State, 2, gl)
	free := float32(37*37 - 255)
	wantG := []float32{0, 1, 20 / free, 20 / free, 20 / free, 20 / free, 20 / (free * 201), 20 / (free * 201), 20 / (free * 201), 20 / (free * 201)}
	for i, w := range wantG {
		got := math.Float32frombits(binary.LittleEndian.Uint32(gl[4*i:]))
		if math.Abs(float64(got-w)) > 1e-7 {
			t.Errorf("globals[%d] = %v, want %v", i, got, w)
		}
	}
	for i := 10; i < 18; i++ {
		got := math.Float32frombits(binary.LittleEndian.Uint32(gl[4*i:]))
		if w := [2]float32{20, 10}[(i-10)/4] / 128; got != w {
			t.Errorf("globals[%d] = %v, want %v", i, got, w)
		}
	}
}

// TestMasksAgainstEngine checks both masks against the engine from several
// states, for every seat, unit and direction: a direction is in the action
// mask exactly when the engine's validation (SPEC §8.2) keeps the command,
// and in the move mask exactly when the command, alone in its round, is
// printed as a movement (SPEC §8.4).
func TestMasksAgainstEngine(t *testing.T) {
	cases := []struct{ seed, rounds int }{{3, 0}, {3, 25}, {5, 60}, {8, 130}, {11, 199}}
	if testing.Short() || raceEnabled {
		cases = cases[:2]
	}
	khan := newKhan(t)
	for _, c := range cases {
		g := newTestGame(t, c.seed)
		var khans [NumPlayers]Bot
		for p := range khans {
			khans[p] = khan(p, c.seed) // fights: many units next to each other
		}
		playRounds(t, g, c.rounds, &khans)
		var ob Observer
		u := NumSlots(&g.cfg)
		mask, moves := make([]byte, u*NumDirs), make([]byte, u*NumDirs)
		count := map[string]int{}
		for me := 0; me < NumPlayers; me++ {
			ob.Mask(&g.State, me, mask)
			ob.MoveMask(&g.State, me, moves)
			for id := 0; id < u; id++ {
				if mask[id*NumDirs+int(None)] != 1 || moves[id*NumDirs+int(None)] != 1 {
					t.Fatalf("seed %d round %d: slot %d: None not legal", c.seed, g.Round, id)
				}
				for d := Bottom; d < None; d++ {
					var cmds [NumPlayers][]Command
					cmds[me] = []Command{{ID: id, Dir: d}}
					g.validate(&cmds)
					valid := len(g.valid) == 1
					if got := mask[id*NumDirs+int(d)] == 1; got != valid {
						t.Errorf("seed %d round %d seat %d: unit %d %v: mask %v, validation keeps it %v", c.seed, g.Round, me, id, d, got, valid)
					}
					if got := moves[id*NumDirs+int(d)] == 1; got && !valid {
						t.Errorf("seed %d round %d seat %d: unit %d %v: in the move mask, not valid", c.seed, g.Round, me, id, d)
					}
					if !valid {
						count["invalid"]++
						continue
					}
					cg := cloneGame(g)
					if err := cg.Step(&cmds); err != nil {
						t.Fatal(err)
					}
					printed := len(cg.Moves) == 1 && cg.Moves[0] == Command{ID: id, Dir: d.Rotate(me)}
					if got := moves[id*NumDirs+int(d)] == 1; got != printed {
						t.Errorf("seed %d round %d seat %d: unit %d (%v at %v) %v: move mask %v, printed %v",
							c.seed, g.Round, me, id, g.Units[id].Type, g.Units[id].Pos, d, got, printed)
					}
					if printed {
						count["works"]++
					} else {
						count["fails"]++
					}
				}
			}
		}
		if count["invalid"] == 0 || count["works"] == 0 || count["fails"] == 0 {
			t.Errorf("seed %d round %d: %v: the test saw one side only", c.seed, g.Round, count)
		}
	}
}

func FuzzObserve(f *testing.F) {
	f.Add(1, 0)
	f.Add(42, 77)
	f.Fuzz(func(t *testing.T, seed, rounds int) {
		if seed < 0 || rounds < 0 || rounds > 200 {
			t.Skip()
		}
		g := newTestGame(t, seed)
		playRounds(t, g, rounds, nil)
		var ob Observer
		u := NumSlots(&g.cfg)
		for me := 0; me < NumPlayers; me++ {
			ob.Board(&g.State, me, make([]byte, BoardPlanes*37*37))
			ob.Units(&g.State, me, make([]byte, u*UnitFeatures))
			ob.Globals(&g.State, me, make([]byte, 4*NumGlobals))
			ob.Mask(&g.State, me, make([]byte, u*NumDirs))
			ob.MoveMask(&g.State, me, make([]byte, u*NumDirs))
		}
	})
}

// BenchmarkObserve encodes one seat's whole observation.
func BenchmarkObserve(b *testing.B) {
	g := newTestGame(b, 3)
	var ob Observer
	u := NumSlots(&g.cfg)
	board, units, gl := make([]byte, BoardPlanes*37*37), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals)
	mask, moves := make([]byte, u*NumDirs), make([]byte, u*NumDirs)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ob.Board(&g.State, 1, board)
		ob.Units(&g.State, 1, units)
		ob.Globals(&g.State, 1, gl)
		ob.Mask(&g.State, 1, mask)
		ob.MoveMask(&g.State, 1, moves)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "obs/s")
}

func TestSpec(t *testing.T) {
	sp := Def.Host().Spec()
	got := map[string][]int{}
	for _, ts := range sp.Observation {
		got[ts.Name] = ts.Shape
	}
	want := map[string][]int{"board": {6, 37, 37}, "units": {128, 8}, "globals": {18},
		"action_mask": {128, 9}, "move_mask": {128, 9}, "targets": {128, 12}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("observation shapes = %v, want %v", got, want)
	}
	if got, want := sp.ObservationBytes(), 6*37*37+128*8+4*18+2*128*9+128*12; got != want {
		t.Errorf("ObservationBytes() = %d, want %d", got, want)
	}
	if sp.Action.Dtype != env.Int8 || sp.ActionOrder.Dtype != env.Int16 || sp.NumActions != 9 || sp.NumRounds != 200 {
		t.Errorf("action spec = %+v / %+v / %d / %d rounds", sp.Action, sp.ActionOrder, sp.NumActions, sp.NumRounds)
	}
	if sp.ID != "Dominator-v0" || sp.ObservationVersion != "dominator-obs-2" {
		t.Errorf("id, version = %q, %q", sp.ID, sp.ObservationVersion)
	}
	small, err := Def.Host().NewFactory(env.Setup{Seats: []string{"", "", "", ""}, Config: mustShippedText("generator3")})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	if got := small.Spec().Observation[0].Shape; !reflect.DeepEqual(got, []int{6, 37, 37}) {
		t.Errorf("generator3 board shape = %v", got)
	}
	big := DefaultConfig()
	big.Rows, big.Cols = 256, 256
	if _, err := specFor(&big); !errors.Is(err, env.ErrBadSetup) {
		t.Errorf("a board of 256 rows: %v, want env.ErrBadSetup", err)
	}
}

// TestDecode checks that actions become orders: only legal slots of the
// seat, None and illegal directions dropped, in increasing order value,
// ties by slot.
func TestDecode(t *testing.T) {
	g := newTestGame(t, 4)
	s := &g.State
	u := NumSlots(&g.cfg)
	dirs := make([]byte, u)
	for i := range dirs {
		dirs[i] = byte(None)
	}
	// Player 1 owns 32..63: witch 32, knight 34, farmers 44 and 45.
	dirs[32], dirs[34], dirs[44], dirs[45] = byte(Right), byte(TL), byte(Top), byte(BR)
	dirs[0] = byte(Top) // not player 1's
	dirs[46] = 0xfd     // -3 as int8: out of range
	order := make([]byte, 2*u)
	put := func(id int, v int16) { binary.LittleEndian.PutUint16(order[2*id:], uint16(v)) }
	put(32, 3)
	put(34, -1)
	put(44, 3)
	put(0, -5)
	for _, c := range []struct {
		name  string
		order []byte
		want  []Command
	}{
		{"slot order", nil, []Command{{ID: 32, Dir: Right}, {ID: 34, Dir: TL}, {ID: 44, Dir: Top}}},
		{"given order", order, []Command{{ID: 34, Dir: TL}, {ID: 32, Dir: Right}, {ID: 44, Dir: Top}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var o Orders
			o.Reset(len(s.Units))
			Def.Decode(s, 1, dirs, c.order, &o)
			if got := o.List(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Decode = %v, want %v", got, c.want)
			}
		})
	}
}
