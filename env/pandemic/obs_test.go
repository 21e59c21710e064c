package pandemic

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func newTestGame(t testing.TB, seed int) *Game {
	t.Helper()
	g, err := New(DefaultConfig(), seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playRounds plays n rounds with Demo bots in every seat.
func playRounds(t testing.TB, g *Game, n int) {
	t.Helper()
	var bots [NumPlayers]Bot
	for p := range bots {
		bots[p] = NewDemo(p, g.Seed())
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
	board := make([]byte, BoardBytes(&g.cfg))
	n := g.Rows * g.Cols
	saw := map[string]bool{}
	for r := 0; r < 60; r++ {
		for me := 0; me < NumPlayers; me++ {
			ob.Board(&g.State, me, board)
			for idx := 0; idx < n; idx++ {
				p := g.PosOf(idx)
				at := func(plane int) byte { return board[plane*n+idx] }
				if got, want := at(PlaneTerrain), byte(g.Types[idx]); got != want {
					t.Fatalf("round %d me %d %v: terrain %d, want %d", g.Round, me, p, got, want)
				}
				if got, want := at(PlaneVirus), g.Virus[idx]; got != want {
					t.Fatalf("round %d me %d %v: virus %d, want %d", g.Round, me, p, got, want)
				}
				if got, want := at(PlaneConquest), conquest(&g.State, idx, me); got != want {
					t.Fatalf("round %d me %d %v: conquest %d, want %d", g.Round, me, p, got, want)
				}
				ring := p.I >= 1 && p.J >= 1 && p.I <= g.Rows-2 && p.J <= g.Cols-2 && (p.I == 1 || p.J == 1 || p.I == g.Rows-2 || p.J == g.Cols-2)
				wantF := b2u(g.MaskAt[idx])*FlagMask | b2u(ring)*FlagRing
				var wantU, wantH byte
				if id := g.UnitAt[idx]; id >= 0 {
					u := &g.Units[id]
					wantU, wantH = 1+Rel(u.Player, me), sat(u.Health)
					wantF |= b2u(u.Mask)*FlagMasked | b2u(u.Damage > 0)*FlagInfected | b2u(u.Immune)*FlagImmune
					saw["unit"] = true
					if u.Mask {
						saw["masked"] = true
					}
					if u.Immune {
						saw["immune"] = true
					}
				}
				if at(PlaneUnit) != wantU || at(PlaneHealth) != wantH || at(PlaneFlags) != wantF {
					t.Fatalf("round %d me %d %v: unit %d health %d flags %d, want %d %d %d", g.Round, me, p,
						at(PlaneUnit), at(PlaneHealth), at(PlaneFlags), wantU, wantH, wantF)
				}
				if g.MaskAt[idx] {
					saw["mask"] = true
				}
				if at(PlaneConquest) > 0 {
					saw["conquest"] = true
				}
			}
		}
		playRounds(t, g, 1)
	}
	for _, k := range []string{"unit", "mask", "conquest", "immune"} {
		if !saw[k] {
			t.Errorf("no %s seen in 60 rounds: that part of the test did not run", k)
		}
	}
}

// TestUnitsAndGlobals checks values of seed 1's initial state worked out
// from SPEC §4.9 and §5.
func TestUnitsAndGlobals(t *testing.T) {
	g := newTestGame(t, 1)
	var ob Observer
	u := NumSlots(&g.cfg)
	units := make([]byte, u*UnitFeatures)
	ob.Units(&g.State, 1, units)
	// Unit 0 (player 0, infected with damage 1) at (55, 68) seen by seat 1:
	// not mine, rel 3, health 100, damage 1, turns 1, on grass.
	want := []byte{0, 3, 100, 55, 68, 1, 1, 0, 0, byte(Grass), 0, 0, 0}
	if got := units[:UnitFeatures]; string(got) != string(want) {
		t.Errorf("units[0] for seat 1 = %v, want %v", got, want)
	}
	// Unit 59 (player 3, healthy) at (32, 1) seen by seat 3: mine, rel 0.
	ob.Units(&g.State, 3, units)
	want = []byte{1, 0, 100, 32, 1, 0, 0, 0, 0, byte(Grass), 0, 0, 0}
	if got := units[59*UnitFeatures:]; string(got) != string(want) {
		t.Errorf("units[59] for seat 3 = %v, want %v", got, want)
	}
	gl := make([]byte, 4*NumGlobals)
	get := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(gl[4*i:])) }
	ob.Globals(&g.State, 0, gl)
	wantG := map[int]float32{0: 0, 1: 1, 2: 0, 3: 0, 7: 0, 15: 0.25, 16: 0.25, 19: 0, 23: 0}
	for i, w := range wantG {
		if got := get(i); math.Abs(float64(got-w)) > 1e-6 {
			t.Errorf("globals[%d] at round 0 = %v, want %v", i, got, w)
		}
	}
	playRounds(t, g, 40)
	ob.Globals(&g.State, 2, gl)
	if w := float32(40) / 200; get(0) != w {
		t.Errorf("globals[0] at round 40 = %v, want %v", get(0), w)
	}
	if w := float32(len(g.Masks)) / 10; get(23) != w {
		t.Errorf("globals[23] = %v, want %v", get(23), w)
	}
	// Seat 2 sees player 3 as rel 1.
	if w := float32(math.Log1p(float64(g.Scores[3])) / 16); get(4) != w {
		t.Errorf("globals[4] (score of rel 1 = player 3) = %v, want %v", get(4), w)
	}
	if w := float32(math.Log1p(float64(g.Income(2))) / 16); get(19) != w {
		t.Errorf("globals[19] (income of player 2) = %v, want %v", get(19), w)
	}
}

// TestMaskAgainstEngine plays every direction of every unit, alone in the
// round, from several states: a direction the mask allows must be carried
// out by the engine (the unit moves, or attacks the unit in its way) and
// a masked one refused (nothing happens).
func TestMaskAgainstEngine(t *testing.T) {
	cases := []struct{ seed, rounds int }{{3, 0}, {3, 25}, {5, 50}, {8, 90}, {11, 140}}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		g := newTestGame(t, c.seed)
		playRounds(t, g, c.rounds)
		var ob Observer
		u := NumSlots(&g.cfg)
		mask := make([]byte, u*NumDirs)
		legal, illegal, attacks := 0, 0, 0
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
					cg := g.Clone()
					from := g.Units[id].Pos
					target := g.Cell(from.Add(d)).UnitID
					var cmds [NumPlayers][]Command
					cmds[me] = []Command{{ID: id, Dir: d}}
					cg.collect(&cmds)
					if len(cg.valid) != 1 {
						t.Fatalf("engine validation dropped %v", cmds[me][0])
					}
					rngBefore := cg.rng.State()
					cg.perm = cg.rng.FullPermInto(make([]int, 1))
					moved := cg.move(id, d)
					attacked := target >= 0 && cg.rng.State() != rngBefore && cg.Units[target].Health != g.Units[target].Health
					accepted := moved || attacked
					if got := mask[id*NumDirs+int(d)] == 1; got != accepted {
						t.Errorf("seed %d round %d: unit %d at %v %v: mask %v, engine carried it out %v",
							c.seed, g.Round, id, from, d, got, accepted)
					}
					switch {
					case attacked:
						attacks++
						legal++
					case accepted:
						legal++
					default:
						illegal++
					}
				}
			}
		}
		if legal == 0 || illegal == 0 {
			t.Errorf("seed %d round %d: %d legal and %d illegal moves: the test saw one side only", c.seed, g.Round, legal, illegal)
		}
		t.Logf("seed %d round %d: %d legal (%d attacks), %d illegal", c.seed, g.Round, legal, attacks, illegal)
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
		playRounds(t, g, rounds)
		var ob Observer
		u := NumSlots(&g.cfg)
		for me := 0; me < NumPlayers; me++ {
			ob.Board(&g.State, me, make([]byte, BoardBytes(&g.cfg)))
			ob.Units(&g.State, me, make([]byte, u*UnitFeatures))
			ob.Globals(&g.State, me, make([]byte, 4*NumGlobals))
			ob.Mask(&g.State, me, make([]byte, u*NumDirs))
		}
	})
}

// BenchmarkObserve encodes one seat's whole observation.
func BenchmarkObserve(b *testing.B) {
	g := newTestGame(b, 3)
	playRounds(b, g, 50)
	var ob Observer
	u := NumSlots(&g.cfg)
	board, units, gl, mask := make([]byte, BoardBytes(&g.cfg)), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals), make([]byte, u*NumDirs)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ob.Board(&g.State, 1, board)
		ob.Units(&g.State, 1, units)
		ob.Globals(&g.State, 1, gl)
		ob.Mask(&g.State, 1, mask)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "obs/s")
}

// TestBoardMapSizes checks the per-map planes (boardMap.update: terrain,
// spawn ring, the cells of cities and paths) against a cell-by-cell
// reference on random boards of 1 to 12 rows and columns, one boardMap
// throughout.
func TestBoardMapSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 17))
	var m boardMap
	for trial := 0; trial < 400; trial++ {
		rows, cols := 1+rng.IntN(12), 1+rng.IntN(12)
		n := rows * cols
		s := &State{Rows: rows, Cols: cols, Types: make([]CellType, n), CityOf: make([]int32, n), PathOf: make([]int32, n)}
		for i := range s.Types {
			s.Types[i] = CellType(rng.IntN(4))
			s.CityOf[i], s.PathOf[i] = -1, -1
			switch rng.IntN(4) {
			case 0:
				s.CityOf[i] = int32(rng.IntN(3))
			case 1:
				s.PathOf[i] = int32(rng.IntN(3))
			case 2:
				s.CityOf[i], s.PathOf[i] = int32(rng.IntN(3)), int32(rng.IntN(3))
			}
		}
		m.update(s)
		var cells, owners []int32
		for idx := 0; idx < n; idx++ {
			i, j := idx/cols, idx%cols
			ring := i >= 1 && j >= 1 && i <= rows-2 && j <= cols-2 && (i == 1 || j == 1 || i == rows-2 || j == cols-2)
			if m.terrain[idx] != byte(s.Types[idx]) || m.ring[idx] != b2u(ring)*FlagRing {
				t.Fatalf("trial %d %dx%d cell %d: terrain %d ring %d, want %d %v", trial, rows, cols, idx, m.terrain[idx], m.ring[idx], s.Types[idx], ring)
			}
			if c := s.CityOf[idx]; c >= 0 {
				cells, owners = append(cells, int32(idx)), append(owners, c)
			} else if p := s.PathOf[idx]; p >= 0 {
				cells, owners = append(cells, int32(idx)), append(owners, -1-p)
			}
		}
		if !slices.Equal(m.cells, cells) || !slices.Equal(m.ownerOf, owners) {
			t.Fatalf("trial %d %dx%d: cells %v owners %v, want %v %v", trial, rows, cols, m.cells, m.ownerOf, cells, owners)
		}
	}
}
