package crematoria

import (
	"encoding/binary"
	"math"
	"testing"
)

// cloneGame returns an independent copy of g that can be stepped without
// touching g (the scratch buffers are rebuilt every round).
func cloneGame(g *Game) *Game {
	c := *g
	c.State = State{}
	c.State.CopyFrom(&g.State)
	c.State.Cfg = &c.cfg
	c.Moves = nil
	return &c
}

func newTestGame(t *testing.T, seed int) *Game {
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
	playRoundsWith(t, g, n, NewDemo)
}

// newRiddick returns the factory of the Riddick bot, package riddick,
// registered by name in Def's bots (riddick_link_test.go links it in).
func newRiddick(t testing.TB) BotFactory {
	t.Helper()
	f, err := Def.Bots.Lookup("Riddick")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// playRoundsWith plays n rounds with bots of newBot in every seat.
func playRoundsWith(t testing.TB, g *Game, n int, newBot func(me, seed int) Bot) {
	t.Helper()
	var s seats
	for p := range s.bots {
		s.bots[p] = newBot(p, g.Seed())
	}
	for r := 0; r < n && !g.Done(); r++ {
		s.playRound(t, g)
	}
}

// seats holds a bot per seat and the orders they give, kept from round
// to round.
type seats struct {
	bots [NumPlayers]Bot
	o    [NumPlayers]Orders
	cmds [NumPlayers][]Command
}

// playRound plays one round of g: each seat's bot orders, then the step.
func (s *seats) playRound(t testing.TB, g *Game) {
	t.Helper()
	for p, b := range s.bots {
		s.o[p].Reset(len(g.Units))
		b.Play(&g.State, &s.o[p])
		s.cmds[p] = s.o[p].List()
	}
	if err := g.Step(&s.cmds); err != nil {
		t.Fatal(err)
	}
}

// TestBoardHandChecked checks cells of seed 1's initial board against the
// values worked out by hand from SPEC §5.2 and docs/observation.md.
func TestBoardHandChecked(t *testing.T) {
	g := newTestGame(t, 1)
	var ob Observer
	board := make([]byte, BoardBytes)
	ob.Board(&g.State, 0, board)
	at := func(plane, i, j int) byte { return board[plane*LevelCells+i*Cols+j] }
	// Hellhounds of seed 1 (SPEC §5.2 checkpoint): 90 at (26,51), 91 at
	// (31,56), 92 at (23,25), all on unowned caves: 1 | 9<<3 = 73.
	for _, h := range []struct{ id, i, j int }{{90, 26, 51}, {91, 31, 56}, {92, 23, 25}} {
		if got, want := at(0, h.i, h.j), byte(1|9<<3); got != want {
			t.Errorf("level 0 (%d,%d) = %d, want %d (hellhound %d on a cave)", h.i, h.j, got, want, h.id)
		}
		if got := at(2, h.i, h.j) & (32 | 64); got != 32|64 {
			t.Errorf("flags (%d,%d) hellhound bits = %d, want 96", h.i, h.j, got)
		}
	}
	// (29,51) is 3 rows from hellhound 90 and 5 columns from 91: bit 6 only.
	if got := at(2, 29, 51) & (32 | 64); got != 64 {
		t.Errorf("flags (29,51) hellhound bits = %d, want 64", got)
	}
	if got := at(2, 27, 52) & (32 | 64); got != 96 {
		t.Errorf("flags (27,52) hellhound bits = %d, want 96", got)
	}
	if got := at(2, 26, 55) & 32; got != 0 {
		t.Errorf("flags (26,55) bit 5 = %d, want 0 (4 columns from hellhound 90)", got)
	}
	// Round 0: night band is columns 0..39; the sun burns columns 0 and 1;
	// columns 40 and 41 enter the night at the end of the round.
	for _, c := range []struct {
		j    int
		want byte
	}{{0, 2}, {1, 2}, {2, 0}, {39, 0}, {40, 1 | 4}, {41, 1 | 4}, {42, 1}, {79, 1}} {
		if got := at(2, 0, c.j) & 31; got != c.want {
			t.Errorf("flags (0,%d) sun bits = %d, want %d", c.j, got, c.want)
		}
	}
	// Each initial Pioneer stands on a cave it owns: me=0 sees its own
	// Pioneer 5 as 3 | 1<<3; seat 2 sees it as owner rel 2: 5 | 3<<3.
	p := g.Units[5].Pos
	if got, want := at(0, p.I, p.J), byte(3|1<<3); got != want {
		t.Errorf("me=0: Pioneer 5's cell = %d, want %d", got, want)
	}
	ob.Board(&g.State, 2, board)
	if got, want := at(0, p.I, p.J), byte(5|3<<3); got != want {
		t.Errorf("me=2: Pioneer 5's cell = %d, want %d", got, want)
	}
	// Furyan 20 (group 1) seen by seat 2: rel 3, code 5+3 = 8, on an
	// unowned cave: 1 | 8<<3.
	f := g.Units[20].Pos
	if got, want := at(0, f.I, f.J), byte(1|8<<3); got != want {
		t.Errorf("me=2: Furyan 20's cell = %d, want %d", got, want)
	}
}

// TestBoardMatchesState decodes every cell of the board back and compares
// it with the state, for every seat, over a game.
func TestBoardMatchesState(t *testing.T) {
	g := newTestGame(t, 7)
	var ob Observer
	board := make([]byte, BoardBytes)
	sawDescending := false
	for r := 0; r < 60; r++ {
		for me := 0; me < NumPlayers; me++ {
			ob.Board(&g.State, me, board)
			for idx := 0; idx < NumCells; idx++ {
				c := g.Cells[idx]
				b := board[idx]
				terrain, unit := b&7, b>>3
				var wantT byte
				switch {
				case c.Type == Rock:
					wantT = 0
				case c.Type == Elevator:
					wantT = 2
				case c.Type == Cave && c.Owner < 0:
					wantT = 1
				case c.Type == Cave:
					wantT = 3 + rel(int(c.Owner), me)
				case c.Gem:
					wantT = 1
				}
				if terrain != wantT {
					t.Fatalf("round %d me %d cell %v: terrain %d, want %d", g.Round, me, PosOf(idx), terrain, wantT)
				}
				var wantU byte
				if c.ID >= 0 {
					u := g.Units[c.ID]
					switch u.Type {
					case Pioneer:
						wantU = 1 + rel(u.Player, me)
					case Furyan:
						wantU = 5 + rel(u.Player, me)
					case Hellhound:
						wantU = 9
					case Necromonger:
						wantU = 10
					}
				}
				if unit != wantU {
					t.Fatalf("round %d me %d cell %v: unit %d, want %d", g.Round, me, PosOf(idx), unit, wantU)
				}
			}
			for _, id := range g.Necromongers {
				u := g.Units[id]
				f := board[2*LevelCells+u.Pos.I*Cols+u.Pos.J]
				if u.Turns > 0 {
					sawDescending = true
					if f&8 == 0 || (f&16 != 0) != (u.Turns == 1) {
						t.Fatalf("round %d: necromonger %d turns %d at %v: flags %d", g.Round, id, u.Turns, u.Pos, f)
					}
				}
			}
		}
		playRounds(t, g, 1)
	}
	if !sawDescending {
		t.Error("no descending necromonger in 60 rounds: the flag test did not run")
	}
}

func TestUnitsAndGlobals(t *testing.T) {
	g := newTestGame(t, 1)
	var ob Observer
	u := NumSlots(&g.cfg)
	units := make([]byte, u*UnitFeatures)
	ob.Units(&g.State, 1, units)
	// Furyan 0 (group 0) seen by seat 1: not mine, rel 3, Furyan, 100.
	p := g.Units[0].Pos
	want := []byte{0, 3, 1, 100, byte(p.I), byte(p.J), 0, 0}
	if got := units[:8]; string(got) != string(want) {
		t.Errorf("units[0] for seat 1 = %v, want %v", got, want)
	}
	// Pioneer 25 (group 1) seen by seat 1: mine, rel 0, Pioneer, 50.
	p = g.Units[25].Pos
	want = []byte{1, 0, 0, 50, byte(p.I), byte(p.J), 0, 0}
	if got := units[25*8 : 26*8]; string(got) != string(want) {
		t.Errorf("units[25] for seat 1 = %v, want %v", got, want)
	}
	gl := make([]byte, 4*NumGlobals)
	ob.Globals(&g.State, 0, gl)
	wantG := []float32{0, 1, 0, 0.015, 0.015, 0.015, 0.015, 0.015, 0.015, 0.015, 0.015, 0, 0, 0, 0, 0}
	for i, w := range wantG {
		got := math.Float32frombits(binary.LittleEndian.Uint32(gl[4*i:]))
		if math.Abs(float64(got-w)) > 1e-6 {
			t.Errorf("globals[%d] at round 0 = %v, want %v", i, got, w)
		}
	}
	playRounds(t, g, 30)
	ob.Globals(&g.State, 2, gl)
	got := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(gl[4*i:])) }
	if w := float32(30) / 120; got(0) != w {
		t.Errorf("globals[0] at round 30 = %v, want %v", got(0), w)
	}
	if w := float32(60) / 80; got(2) != w {
		t.Errorf("globals[2] at round 30 = %v, want %v", got(2), w)
	}
	// Seat 2 sees group 3 as rel 1.
	if w := float32(g.Score(3)) / 1000; got(4) != w {
		t.Errorf("globals[4] (score of rel 1 = group 3) = %v, want %v", got(4), w)
	}
	if w := float32(len(g.Necromongers)) / 10; got(15) != w {
		t.Errorf("globals[15] = %v, want %v", got(15), w)
	}
}

// TestMaskAgainstEngine plays every direction of every unit, alone and
// first in the round, from several states: a masked-legal move must be
// accepted by the engine (printed as a movement) and a masked-illegal one
// refused.
func TestMaskAgainstEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("plays thousands of rounds")
	}
	for _, c := range []struct{ seed, rounds int }{{3, 0}, {3, 25}, {5, 50}, {8, 90}, {11, 117}} {
		g := newTestGame(t, c.seed)
		playRounds(t, g, c.rounds)
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

// TestMaskAgainstCanMove compares Mask (maskRow) with CanMove for every
// direction of every slot, for the four seats, after every 7th round of
// three games.
func TestMaskAgainstCanMove(t *testing.T) {
	for _, seed := range []int{2, 4, 9} {
		g := newTestGame(t, seed)
		var ob Observer
		u := NumSlots(&g.cfg)
		mask := make([]byte, u*NumDirs)
		for !g.Done() {
			for me := 0; me < NumPlayers; me++ {
				ob.Mask(&g.State, me, mask)
				for id := 0; id < u; id++ {
					un := &g.Units[id]
					live := un.Player == me && un.Health > 0 && un.Pos.OnBoard()
					for d := Bottom; d <= None; d++ {
						want := d == None || live && CanMove(&g.State, un, d)
						if got := mask[id*NumDirs+int(d)] == 1; got != want {
							t.Fatalf("seed %d round %d me %d: slot %d (%v at %v) %v: mask %v, CanMove %v",
								seed, g.Round, me, id, un.Type, un.Pos, d, got, want)
						}
					}
				}
			}
			playRounds(t, g, 7)
		}
	}
}

func FuzzObserve(f *testing.F) {
	f.Add(1, 0)
	f.Add(42, 77)
	f.Fuzz(func(t *testing.T, seed, rounds int) {
		if seed < 0 || rounds < 0 || rounds > 120 {
			t.Skip()
		}
		g := newTestGame(t, seed)
		playRounds(t, g, rounds)
		var ob Observer
		u := NumSlots(&g.cfg)
		for me := 0; me < NumPlayers; me++ {
			ob.Board(&g.State, me, make([]byte, BoardBytes))
			ob.Units(&g.State, me, make([]byte, u*UnitFeatures))
			ob.Globals(&g.State, me, make([]byte, 4*NumGlobals))
			ob.Mask(&g.State, me, make([]byte, u*NumDirs))
			ob.Paths(&g.State, me, make([]byte, u*PathColumns))
		}
	})
}

// BenchmarkObserve encodes one seat's whole observation (every tensor of
// crematoria-obs-3) of states spread over a game of Demos: rounds 0, 20,
// .., 100 in turn, the seat turning too (a training env observes every
// round; the paths' searches depend on how the board has been taken).
func BenchmarkObserve(b *testing.B) {
	states := gameStates(b, NewDemo)
	var ob Observer
	u := NumSlots(states[0].Cfg)
	board, units, gl, mask := make([]byte, BoardBytes), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals), make([]byte, u*NumDirs)
	paths, sun := make([]byte, u*PathColumns), make([]byte, u*SunColumns)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, me := states[i%len(states)], i%NumPlayers
		ob.Board(s, me, board)
		ob.Units(s, me, units)
		ob.Globals(s, me, gl)
		ob.Mask(s, me, mask)
		ob.Paths(s, me, paths)
		ob.SunPaths(s, me, sun)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "obs/s")
}

// BenchmarkSunPaths is the sun_paths tensor alone, over the states of a
// game of Riddicks (who go up for gems) and the four seats.
func BenchmarkSunPaths(b *testing.B) {
	states := gameStates(b, newRiddick(b))
	var ob Observer
	sun := make([]byte, NumSlots(states[0].Cfg)*SunColumns)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ob.SunPaths(states[i%len(states)], i%NumPlayers, sun)
	}
}

// gameStates returns the states of rounds 0, 20, .., 100 of seed 3's game
// played by bots of newBot.
func gameStates(b *testing.B, newBot func(me, seed int) Bot) []*State {
	g, err := New(DefaultConfig(), 3)
	if err != nil {
		b.Fatal(err)
	}
	var states []*State
	for r := 0; r <= 100; r += 20 {
		playRoundsWith(b, g, r-g.Round, newBot)
		states = append(states, &cloneGame(g).State)
	}
	return states
}
