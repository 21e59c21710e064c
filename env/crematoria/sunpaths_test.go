package crematoria

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The night of rules/crematoria.md, "Distances and the sun": in round 0
// daylight covers columns 40..79 and the sun burns columns 0 and 1 at the
// end of the round; in round 1, columns 0-1 and 42-79 are in daylight.
func TestNightLeft(t *testing.T) {
	for _, c := range []struct {
		r, c, left int
		night      bool
	}{
		{0, 0, 0, true}, {0, 1, 0, true}, {0, 2, 1, true}, {0, 39, 19, true}, {0, 40, 0, false}, {0, 79, 0, false},
		{1, 0, 0, false}, {1, 1, 0, false}, {1, 2, 0, true}, {1, 41, 19, true}, {1, 42, 0, false},
		{39, 78, 0, true}, {39, 79, 0, true}, {39, 0, 1, true}, {39, 37, 19, true}, {39, 38, 0, false},
		{40, 0, 0, true}, {119, 78, 0, true}, {119, 37, 19, true}, {119, 77, 0, false},
	} {
		left, night := NightLeft(c.r, c.c)
		if night != c.night || night && left != c.left {
			t.Errorf("NightLeft(round %d, column %d) = %d, %v, want %d, %v", c.r, c.c, left, night, c.left, c.night)
		}
	}
}

// relaxedSun computes the escape and gem trip values another way than
// SunPaths' search, from docs/observation.md's definitions: every cell
// starts at its source value or unreachable, then all cells are relaxed
// from their neighbours until nothing changes; values over SunMaxValue
// become unreachable.
func relaxedSun(s *State) (escape, trip []int) {
	const inf = 1 << 20
	t1 := 2 * s.Round % Cols
	left := func(idx int) (int, bool) {
		o := (idx%Cols - t1 + Cols) % Cols
		return o / 2, o < 40
	}
	allowed := func(idx int) bool {
		if s.Cells[idx].Type == Rock {
			return false
		}
		_, night := left(idx)
		return idx < LevelCells || night
	}
	relax := func(d []int, levels bool) {
		for changed := true; changed; {
			changed = false
			for idx := range d {
				if !allowed(idx) || !levels && idx < LevelCells {
					continue
				}
				p := PosOf(idx)
				for dir := Bottom; dir < None; dir++ {
					q := p.Add(dir)
					if !q.OnBoard() || !allowed(q.Index()) || dir >= Up && (!levels || s.Cells[idx].Type != Elevator) {
						continue
					}
					if dq := d[q.Index()]; dq+1 < d[idx] {
						d[idx], changed = dq+1, true
					}
				}
			}
		}
		for idx := range d {
			if d[idx] > SunMaxValue {
				d[idx] = sunFar
			}
		}
	}
	escape = make([]int, 2*LevelCells)
	for idx := range escape {
		escape[idx] = inf
		if l, night := left(idx); idx >= LevelCells && night && s.Cells[idx].Type == Elevator {
			escape[idx] = -l
		}
	}
	relax(escape, false)
	trip = make([]int, 2*LevelCells)
	for idx := range trip {
		trip[idx] = inf
		if l, night := left(idx); idx >= LevelCells && night && s.Cells[idx].Gem && escape[idx] <= 0 {
			trip[idx] = -min(l, -escape[idx])
		}
	}
	relax(trip, true)
	return escape, trip
}

// Every flag of the sun_paths tensor agrees with the values of the
// relaxation, for every seat, on boards of several seeds and rounds; the
// slots of other players are zeros.
func TestSunPathsAgainstRelaxation(t *testing.T) {
	var feasible, doomed, trips, descents int
	// One Observer for every board and seat: nothing of a search may leak
	// into the next.
	var ob Observer
	for _, c := range []struct {
		seed, rounds int
		scatter      bool
	}{{1, 0, false}, {7, 30, false}, {42, 57, false}, {3, 90, false}, {5, 21, true}} {
		// Riddicks send Pioneers up for gems.
		g := newTestGame(t, c.seed)
		playRoundsWith(t, g, c.rounds, newRiddick(t))
		s := &g.State
		u := NumSlots(&g.cfg)
		if c.scatter {
			// Every Pioneer and Furyan moved to a free cell of level 1 in
			// the night, spread over the band: some can escape, some not.
			t1 := 2 * s.Round % Cols
			for id := 0; id < u; id++ {
				p := Pos{I: id * 7 % Rows, J: id * 13 % 40, K: 1}
				p.J = (t1 + p.J) % Cols
				for s.Cells[p.Index()].ID >= 0 {
					p.I = (p.I + 1) % Rows
				}
				s.Cells[s.Units[id].Pos.Index()].ID = -1
				s.Units[id].Pos = p
				s.Cells[p.Index()].ID = int16(id)
			}
		}
		escape, trip := relaxedSun(s)
		got := make([]byte, u*SunColumns)
		for me := 0; me < NumPlayers; me++ {
			ob.SunPaths(s, me, got)
			for id := 0; id < u; id++ {
				p := s.Units[id].Pos
				row := got[id*SunColumns : (id+1)*SunColumns]
				if s.Units[id].Player != me {
					for _, x := range row {
						if x != 0 {
							t.Fatalf("seed %d seat %d: slot %d of player %d has sun_paths features", c.seed, me, id, s.Units[id].Player)
						}
					}
					continue
				}
				elevator := s.Cells[p.Index()].Type == Elevator
				for f, val := range [][]int{escape, trip} {
					if f == SunEscape && p.K == 0 {
						for k := 0; k < NumDirs; k++ {
							if row[f*NumDirs+k] != 0 || row[(NumSunFields+f)*NumDirs+k] != 0 {
								t.Fatalf("seed %d seat %d slot %d underground has escape flags %v", c.seed, me, id, row)
							}
						}
						continue
					}
					v := val[p.Index()]
					for dir := Bottom; dir < DirSize; dir++ {
						q := p.Add(dir)
						want := dir != None && q.OnBoard() && (dir < Up || elevator) &&
							(f == SunEscape && dir == Down || val[q.Index()] != sunFar && val[q.Index()] < v)
						if (row[f*NumDirs+int(dir)] == 1) != want {
							t.Fatalf("seed %d round %d seat %d field %d slot %d at %v (value %d) direction %v: flag %d, want %v",
								c.seed, s.Round, me, f, id, p, v, dir, row[f*NumDirs+int(dir)], want)
						}
						if want {
							descents++
						}
					}
					for k, th := range SunThresholds {
						if want := v >= int(th); (row[(NumSunFields+f)*NumDirs+k] == 1) != want {
							t.Fatalf("seed %d seat %d field %d slot %d: value %d, threshold %d flag %d", c.seed, me, f, id, v, th, row[(NumSunFields+f)*NumDirs+k])
						}
					}
					switch {
					case f == SunEscape && v <= 0:
						feasible++
					case f == SunEscape:
						doomed++
					case v <= 0:
						trips++
					}
				}
			}
		}
	}
	// The test must have seen every kind of value.
	if feasible == 0 || doomed == 0 || trips == 0 || descents == 0 {
		t.Errorf("%d units that can escape, %d doomed, %d feasible gem trips, %d descents", feasible, doomed, trips, descents)
	}
	t.Logf("%d units that can escape, %d doomed, %d feasible gem trips, %d descents", feasible, doomed, trips, descents)
}

// A hand-made board in round 0 (night on columns 0..39, column j burning
// at the end of round j/2): a Pioneer of seat 0 on level 1, elevators and
// a gem placed so that each value is worked out from the rules alone.
func TestSunPathsHandChecked(t *testing.T) {
	g := newTestGame(t, 1)
	s := &g.State
	s.Round = 0
	for idx := range s.Cells {
		c := &s.Cells[idx]
		c.ID, c.Gem, c.Owner = -1, false, -1
		c.Type = Cave
		if idx >= LevelCells {
			c.Type = Outside
		}
	}
	at := func(i, j, k int) *Cell { return &s.Cells[Pos{i, j, k}.Index()] }
	elevator := func(i, j int) { at(i, j, 0).Type, at(i, j, 1).Type = Elevator, Elevator }
	// The only night elevators: (20, 10), which burns at the end of round
	// 5, and (20, 30), burning at the end of round 15. (5, 50) is in
	// daylight.
	elevator(20, 10)
	elevator(20, 30)
	elevator(5, 50)
	for id := range s.Units {
		s.Units[id].Pos = NoPos
	}
	put := func(p Pos) {
		if old := s.Units[5].Pos; old.OnBoard() {
			s.Cells[old.Index()].ID = -1
		}
		s.Units[5].Pos = p
		s.Cells[p.Index()].ID = 5
	}
	if s.Units[5].Type != Pioneer || s.Units[5].Player != 0 {
		t.Fatalf("slot 5 is %v of %d", s.Units[5].Type, s.Units[5].Player)
	}
	var ob Observer
	u := NumSlots(&g.cfg)
	got := make([]byte, u*SunColumns)
	row := got[5*SunColumns : 6*SunColumns]
	flags := func(f int) string { return fmt.Sprint(row[f*NumDirs : (f+1)*NumDirs]) }
	therm := func(f int) string { return fmt.Sprint(row[(NumSunFields+f)*NumDirs : (NumSunFields+f+1)*NumDirs]) }
	// SunThresholds: -16, -12, -8, -6, -4, -3, -2, -1, 0, 1, 4.
	for _, c := range []struct {
		what       string
		at         Pos
		gem        Pos
		f          int
		flags, thm string
	}{
		// (20, 14): 4 moves to (20, 10), which has 5 rounds: value -1 (16
		// moves to (20, 30), 15 rounds: 1). TL, Left and LB are 3 moves
		// from (20, 10): -2.
		{"escape towards the nearer elevator", Pos{20, 14, 1}, NoPos, SunEscape,
			"[0 0 0 0 0 1 1 1 0 0 0]", "[1 1 1 1 1 1 1 1 0 0 0]"},
		// (20, 20): 10 moves to either, 10-5 = 5 and 10-15 = -5; BR, Right
		// and RT are 9 from (20, 30): -6.
		{"escape towards the later elevator", Pos{20, 20, 1}, NoPos, SunEscape,
			"[0 1 1 1 0 0 0 0 0 0 0]", "[1 1 1 1 0 0 0 0 0 0 0]"},
		// On (20, 10): value -5; its neighbours are at -4; Down escapes.
		{"escape on an elevator", Pos{20, 10, 1}, NoPos, SunEscape,
			"[0 0 0 0 0 0 0 0 0 1 0]", "[1 1 1 1 0 0 0 0 0 0 0]"},
		// (20, 2): 8 moves to (20, 10): 3, doomed (28 to (20, 30): 13);
		// BR, Right and RT are at 2.
		{"doomed", Pos{20, 2, 1}, NoPos, SunEscape,
			"[0 1 1 1 0 0 0 0 0 0 0]", "[1 1 1 1 1 1 1 1 1 1 0]"},
		// A gem at (20, 24) (12 rounds left): 6 - 15 = -9 to escape from
		// it, so latest = min(12, 9) = 9. From (20, 27, 0) the trip is 3
		// moves to (20, 30, 0), Up, 6 moves Left: 10, value 1 (via (20,
		// 10): 32). BR, Right and RT are one move nearer: 0.
		{"a gem trip just too long", Pos{20, 27, 0}, Pos{20, 24, 1}, SunGemTrip,
			"[0 1 1 1 0 0 0 0 0 0 0]", "[1 1 1 1 1 1 1 1 1 1 0]"},
		// From (20, 29, 0): 1 + 1 + 6 = 8 moves, value -1: feasible. Only
		// Right, onto the elevator, is nearer (BR and RT are 1 from it).
		{"a gem trip in time", Pos{20, 29, 0}, Pos{20, 24, 1}, SunGemTrip,
			"[0 0 1 0 0 0 0 0 0 0 0]", "[1 1 1 1 1 1 1 1 0 0 0]"},
		// On level 1 at (20, 26): 2 moves, value 2 - 9 = -7; TL, Left and
		// LB are at -8.
		{"a gem trip on the surface", Pos{20, 26, 1}, Pos{20, 24, 1}, SunGemTrip,
			"[0 0 0 0 0 1 1 1 0 0 0]", "[1 1 1 0 0 0 0 0 0 0 0]"},
		// A gem at (20, 1) burns at the end of this round, and nobody on
		// it escapes in time (9 - 5 = 4 > 0): no source, no trip at all.
		{"a gem too late", Pos{20, 3, 1}, Pos{20, 1, 1}, SunGemTrip,
			"[0 0 0 0 0 0 0 0 0 0 0]", "[1 1 1 1 1 1 1 1 1 1 1]"},
	} {
		if c.gem.OnBoard() {
			at(c.gem.I, c.gem.J, 1).Gem = true
		}
		put(c.at)
		ob.SunPaths(s, 0, got)
		if flags(c.f) != c.flags || therm(c.f) != c.thm {
			t.Errorf("%s: flags %s thresholds %s, want %s %s", c.what, flags(c.f), therm(c.f), c.flags, c.thm)
		}
		if c.gem.OnBoard() {
			at(c.gem.I, c.gem.J, 1).Gem = false
		}
	}
}

// expandFront against a cell-by-cell expansion: random fronts (a few cells
// to most of the board, on the edge rows and across the wrapping columns),
// random Rock, Elevators and reached cells, over both levels and over level
// 1 only.
func TestExpandFrontAgainstCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	random := func(p float64, levels int) (b bitboard) {
		for k := 2 - levels; k < 2; k++ {
			for i := 0; i < Rows; i++ {
				for j := 0; j < Cols; j++ {
					if rng.Float64() < p {
						b.set(k, i, j)
					}
				}
			}
		}
		return b
	}
	for _, density := range []float64{0.001, 0.01, 0.1, 0.5} {
		for from := 0; from <= 1; from++ {
			for range 20 {
				fr := random(density, 2-from)
				if density < 0.01 { // the board's edges
					fr.set(1, 0, 79)
					fr.set(1, Rows-1, 0)
				}
				pass, elev, reached := random(0.8, 2), random(0.1, 2), random(0.3, 2)
				reached.or(&fr) // as in the searches: the front is reached
				var want bitboard
				for k := from; k < 2; k++ {
					for i := 0; i < Rows; i++ {
						for j := 0; j < Cols; j++ {
							p := Pos{I: i, J: j, K: k}
							if !fr.has(p) {
								continue
							}
							next := []Pos{}
							for d := Bottom; d < Up; d++ {
								next = append(next, p.Add(d))
							}
							if from == 0 && elev.has(p) {
								next = append(next, Pos{I: i, J: j, K: 1 - k})
							}
							for _, q := range next {
								if q.OnBoard() && pass.has(q) && !reached.has(q) {
									want.set(q.K, q.I, q.J)
								}
							}
						}
					}
				}
				wantReached := reached
				wantReached.or(&want)
				for _, impl := range expandImpls(from) {
					got, gotReached := fr, reached
					some := impl.f(&got, &pass, &elev, &gotReached)
					if got != want || gotReached != wantReached || some != (want != bitboard{}) {
						t.Fatalf("density %g, from %d: %s differs from the cell-by-cell expansion", density, from, impl.name)
					}
				}
			}
		}
	}
	var empty, pass bitboard
	for _, impl := range expandImpls(0) {
		if impl.f(&empty, &pass, &pass, &pass) {
			t.Errorf("%s: an empty front expanded", impl.name)
		}
	}
}

// expandImpl is an expansion under test.
type expandImpl struct {
	name string
	f    func(fr, pass, elev, reached *bitboard) bool
}

// expandImpls returns the expansions to test for from: expandFront, and
// its Go and (where the CPU has them) AVX2 and AVX-512 versions.
func expandImpls(from int) []expandImpl {
	impls := []expandImpl{{"expandFront", func(fr, pass, elev, reached *bitboard) bool {
		return expandFront(fr, pass, elev, reached, from)
	}}}
	if from == 0 {
		impls = append(impls, expandImpl{"expandBoth", expandBoth})
		if haveAVX2 {
			impls = append(impls, expandImpl{"expandBothAVX2", expandBothAVX2})
		}
		if haveAVX512 {
			impls = append(impls, expandImpl{"expandBothAVX512", expandBothAVX512})
		}
		// expandInto must leave reached as it is and write every word of
		// into.
		impls = append(impls, expandImpl{"expandInto", func(fr, pass, elev, reached *bitboard) bool {
			was := *reached
			var into bitboard
			for k := range into {
				for j := range into[k] {
					into[k][j] = ^uint64(0)
				}
			}
			some := expandInto(fr, pass, elev, reached, &into)
			if *reached != was {
				*reached = bitboard{} // fails the comparison
				return some
			}
			*reached = into
			return some
		}})
		return impls
	}
	impls = append(impls, expandImpl{"expandSurface", func(fr, pass, _, reached *bitboard) bool {
		return expandSurface(&fr[1], &pass[1], &reached[1])
	}})
	if haveAVX2 {
		impls = append(impls, expandImpl{"expandSurfaceAVX2", func(fr, pass, _, reached *bitboard) bool {
			return expandSurfaceAVX2(&fr[1], &pass[1], &reached[1])
		}})
	}
	if haveAVX512 {
		impls = append(impls, expandImpl{"expandSurfaceAVX512", func(fr, pass, _, reached *bitboard) bool {
			return expandSurfaceAVX512(&fr[1], &pass[1], &reached[1])
		}})
	}
	return impls
}

// or sets b |= o.
func (b *bitboard) or(o *bitboard) {
	for k := range b {
		for j := range b[k] {
			b[k][j] |= o[k][j]
		}
	}
}

// BenchmarkExpandLayer times one layer of the searches as they call it
// on this CPU (expandFront on both levels and on level 1) on
// a board with Rock on a tenth of the cells and Elevators on a hundredth,
// from a front of one cell; the front and reached are restored every 32
// layers (a search's length), their copy included.
func BenchmarkExpandLayer(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 5))
	var pass, elev, fr0 bitboard
	for k := 0; k < 2; k++ {
		for i := 0; i < Rows; i++ {
			for j := 0; j < Cols; j++ {
				if rng.Float64() > 0.1 {
					pass.set(k, i, j)
				}
				if rng.Float64() < 0.01 {
					elev.set(0, i, j)
					elev.set(1, i, j)
				}
			}
		}
	}
	fr0.set(1, 20, 40)
	pass.set(1, 20, 40)
	for _, c := range []struct {
		name string
		f    func(fr, reached *bitboard) bool
	}{
		{"both", func(fr, reached *bitboard) bool { return expandFront(fr, &pass, &elev, reached, 0) }},
		{"level1", func(fr, reached *bitboard) bool { return expandFront(fr, &pass, &elev, reached, 1) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			fr, reached := fr0, fr0
			for n := 0; n < b.N; n++ {
				if n%32 == 0 {
					fr, reached = fr0, fr0
				}
				c.f(&fr, &reached)
			}
		})
	}
}
