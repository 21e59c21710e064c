package moria

import (
	"encoding/binary"
	"jgym/env"
	"jgym/internal/race"
	"math"
	"reflect"
	"testing"
)

func newTestGame(t *testing.T, seed int) *Game {
	t.Helper()
	g, err := New(DefaultConfig(), seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playRounds plays n rounds with the given bots (Demo when nil).
func playRounds(t *testing.T, g *Game, n int, bots [NumPlayers]Bot) {
	t.Helper()
	for p := range bots {
		if bots[p] == nil {
			bots[p] = NewDemo(p, g.Seed())
		}
	}
	var o [NumPlayers]Orders
	var cmds [NumPlayers][]Command
	for r := 0; r < n && !g.Done(); r++ {
		for p := range bots {
			o[p].Reset(len(g.Units))
			bots[p].Play(&g.State, &o[p])
			cmds[p] = o[p].List()
		}
		if err := g.Step(&cmds); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBoardMatchesState decodes every cell of the board back and compares
// it with the state, for every seat, over a game.
func TestBoardMatchesState(t *testing.T) {
	g := newTestGame(t, 7)
	var ob Observer
	board := make([]byte, BoardBytes)
	at := func(plane, idx int) byte { return board[plane*NumCells+idx] }
	for r := 0; r < 120; r += 10 {
		for me := 0; me < NumPlayers; me++ {
			ob.Board(&g.State, me, board)
			b := g.Units[g.BalrogID].Pos
			for idx := range g.Cells {
				c := g.Cells[idx]
				p := PosOf(idx)
				wantOwner := byte(0)
				if c.Owner >= 0 {
					wantOwner = 1 + rel(int(c.Owner), me)
				}
				wantRock := byte(0)
				if c.Type == Rock {
					wantRock = byte(c.Turns)
				}
				var wantUnit, wantHealth byte
				if c.ID >= 0 {
					u := g.Units[c.ID]
					wantUnit = map[UnitType]byte{Dwarf: 1 + rel(u.Player, me), Wizard: 5 + rel(u.Player, me), Orc: 9, Troll: 10, Balrog: 11}[u.Type]
					wantHealth = 250
					if u.Type != Balrog {
						wantHealth = byte(u.Health * 250 / u.Type.MaxHealth())
					}
				}
				for plane, want := range []byte{byte(c.Type), wantOwner, b2u(c.Treasure), wantRock, wantUnit, wantHealth} {
					if got := at(plane, idx); got != want {
						t.Fatalf("round %d me %d cell %v plane %d = %d, want %d", g.Round, me, p, plane, got, want)
					}
				}
				f := at(planeFlags, idx)
				if got, want := f&flagBalrogAdj != 0, Cheb(p, b) <= 1; got != want {
					t.Fatalf("round %d cell %v: Balrog-adjacent flag %v, want %v", g.Round, p, got, want)
				}
				if got, want := f&flagDiamond != 0, Manh(p, b) <= 4; got != want {
					t.Fatalf("round %d cell %v: diamond flag %v, want %v", g.Round, p, got, want)
				}
				if got, want := f&flagBirth != 0, c.Type == Abyss && c.ID < 0 && Manh(p, b) > 2; got != want {
					t.Fatalf("round %d cell %v: birth flag %v, want %v", g.Round, p, got, want)
				}
				lethal := false
				for _, d := range [5]Dir{None, Bottom, Right, Top, Left} {
					if q := b.Add(d); (d == None || g.Inside(q)) && Cheb(p, q) <= 1 {
						lethal = true
					}
				}
				if got := f&flagLethal != 0; got != lethal {
					t.Fatalf("round %d cell %v: lethal flag %v, want %v", g.Round, p, got, lethal)
				}
			}
		}
		playRounds(t, g, 10, [NumPlayers]Bot{})
	}
}

func TestUnitsAndGlobals(t *testing.T) {
	g := newTestGame(t, 1)
	var ob Observer
	u := NumSlots(&g.cfg)
	units := make([]byte, u*UnitFeatures)
	ob.Units(&g.State, 1, units)
	// Dwarf 0 (clan 0) seen by seat 1: not mine, rel 3, a dwarf, 100, on a
	// cave (SPEC §5.2: initial units stand on treasure-free caves).
	p := g.Units[0].Pos
	b := g.Units[g.BalrogID].Pos
	want := []byte{0, 3, 0, 100, byte(p.I), byte(p.J), byte(Cave), byte(Manh(p, b))}
	if got := units[:8]; string(got) != string(want) {
		t.Errorf("units[0] for seat 1 = %v, want %v", got, want)
	}
	// Wizard 45 (clan 1) seen by seat 1: mine, rel 0, a wizard, 50.
	p = g.Units[45].Pos
	want = []byte{1, 0, 1, 50, byte(p.I), byte(p.J), byte(Cave), byte(Manh(p, b))}
	if got := units[45*UnitFeatures : 45*UnitFeatures+8]; string(got) != string(want) {
		t.Errorf("units[45] for seat 1 = %v, want %v", got, want)
	}
	gl := make([]byte, 4*NumGlobals)
	ob.Globals(&g.State, 0, gl)
	get := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(gl[4*i:])) }
	wantG := map[int]float32{0: 0, 1: 1, 2: 0.02, 5: 0.02, 6: 0.02, 10: 0, 14: 1, 17: 1, 18: 0, 21: 1, 22: 1, 23: 1}
	for i, w := range wantG {
		if got := get(i); math.Abs(float64(got-w)) > 1e-6 {
			t.Errorf("globals[%d] at round 0 = %v, want %v", i, got, w)
		}
	}
	playRounds(t, g, 50, [NumPlayers]Bot{})
	ob.Globals(&g.State, 2, gl)
	if w := float32(50) / 200; get(0) != w {
		t.Errorf("globals[0] at round 50 = %v, want %v", get(0), w)
	}
	// Seat 2 sees clan 3 as rel 1.
	if w := float32(g.Score(3)) / 1000; get(3) != w {
		t.Errorf("globals[3] (score of rel 1 = clan 3) = %v, want %v", get(3), w)
	}
	if w := float32(len(g.Dwarves[0])+len(g.Wizards[0])) / 25; get(16) != w {
		t.Errorf("globals[16] (units of rel 2 = clan 0) = %v, want %v", get(16), w)
	}
}

// TestMaskAgainstEngine plays every direction of every unit, alone and
// first in the round, from several states: a masked-legal move must be
// accepted by the engine (printed as a movement) and a masked-illegal one
// refused.
func TestMaskAgainstEngine(t *testing.T) {
	cases := []struct{ seed, rounds int }{{3, 0}, {3, 40}, {5, 90}, {8, 150}, {11, 199}}
	if testing.Short() || race.Enabled {
		cases = cases[1:3]
	}
	for _, c := range cases {
		g := newTestGame(t, c.seed)
		var bots [NumPlayers]Bot
		for p := range bots {
			bots[p] = newBrawler(p, c.seed, false)
		}
		playRounds(t, g, c.rounds, bots)
		var ob Observer
		u := NumSlots(&g.cfg)
		mask := make([]byte, u*NumDirs)
		legal, illegal := 0, 0
		for me := 0; me < NumPlayers; me++ {
			ob.Mask(&g.State, me, mask)
			for id := 0; id < u; id++ {
				if mask[id*NumDirs+int(None)] != 1 {
					t.Fatalf("seed %d round %d: slot %d: None not legal", c.seed, g.Round, id)
				}
				if g.Units[id].Player != me {
					for d := Bottom; d < None; d++ {
						if mask[id*NumDirs+int(d)] != 0 {
							t.Fatalf("seed %d round %d me %d: slot %d not mine but %v legal", c.seed, g.Round, me, id, d)
						}
					}
					continue
				}
				for d := Bottom; d < None; d++ {
					cg := cloneGame(g)
					var cmds [NumPlayers][]Command
					cmds[me] = []Command{{ID: id, Dir: d}}
					if err := cg.Step(&cmds); err != nil {
						t.Fatal(err)
					}
					accepted := len(cg.Moves) > 0 && cg.Moves[0] == Command{ID: id, Dir: d}
					if got := mask[id*NumDirs+int(d)] == 1; got != accepted {
						t.Errorf("seed %d round %d: unit %d (%v at %v) %v: mask %v, engine accepted %v",
							c.seed, g.Round, id, g.Units[id].Type, g.Units[id].Pos, d, got, accepted)
					}
					if accepted {
						legal++
					} else {
						illegal++
					}
				}
			}
		}
		if legal == 0 || illegal == 0 {
			t.Errorf("seed %d round %d: %d legal and %d illegal moves: the test saw one side only", c.seed, g.Round, legal, illegal)
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
		playRounds(t, g, rounds, [NumPlayers]Bot{})
		var ob Observer
		u := NumSlots(&g.cfg)
		for me := 0; me < NumPlayers; me++ {
			ob.Board(&g.State, me, make([]byte, BoardBytes))
			ob.Units(&g.State, me, make([]byte, u*UnitFeatures))
			ob.Globals(&g.State, me, make([]byte, 4*NumGlobals))
			ob.Mask(&g.State, me, make([]byte, u*NumDirs))
		}
	})
}

// BenchmarkObserve encodes one seat's whole observation.
func BenchmarkObserve(b *testing.B) {
	g, err := New(DefaultConfig(), 3)
	if err != nil {
		b.Fatal(err)
	}
	var ob Observer
	u := NumSlots(&g.cfg)
	board, units, gl, mask := make([]byte, BoardBytes), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals), make([]byte, u*NumDirs)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ob.Board(&g.State, 1, board)
		ob.Units(&g.State, 1, units)
		ob.Globals(&g.State, 1, gl)
		ob.Mask(&g.State, 1, mask)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "obs/s")
}

// TestSpec checks the env's spaces of the default configuration: the
// tensors of moria-obs-2 and the action of one direction per unit slot.
func TestSpec(t *testing.T) {
	sp := Def.Host().Spec()
	got := map[string][]int{}
	for _, ts := range sp.Observation {
		got[ts.Name] = ts.Shape
	}
	want := map[string][]int{"board": {7, 60, 60}, "units": {100, 10}, "globals": {24}, "action_mask": {100, 9}, "targets": {100, 33}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("observation shapes = %v, want %v", got, want)
	}
	if got, want := sp.ObservationBytes(), 25200+1000+96+900+3300; got != want {
		t.Errorf("ObservationBytes() = %d, want %d", got, want)
	}
	if sp.ID != "Moria-v0" || sp.ObservationVersion != "moria-obs-2" || sp.NumRounds != 200 || sp.NumSeats != 4 {
		t.Errorf("spec = %q %q %d rounds %d seats", sp.ID, sp.ObservationVersion, sp.NumRounds, sp.NumSeats)
	}
	if sp.Action.Dtype != env.Int8 || sp.ActionOrder.Dtype != env.Int16 || sp.NumActions != 9 {
		t.Errorf("action spec = %+v / %+v / %d", sp.Action, sp.ActionOrder, sp.NumActions)
	}
	if names, _ := Def.Host().Bots(); !reflect.DeepEqual(names, []string{"Balin", "Demo", "DummyClone", "Null", "Search"}) {
		t.Errorf("Bots() = %v, want [Balin Demo DummyClone Null Search]", names)
	}
}
