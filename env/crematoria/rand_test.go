package crematoria

import (
	"slices"
	"testing"
)

// Test vectors of SPEC §1.6, checked there against the reference code.
func TestRandVectors(t *testing.T) {
	tests := []struct {
		seed  int
		raw   []int64
		r99   []int
		mixed []int
		perm  []int
	}{
		{0, []int64{453816693, 1623591814, 474883, 709372028}, []int{75, 33, 62, 68, 6, 66}, []int{4, 0, 41, 0, 5}, []int{7, 3, 0, 2, 4, 8, 6, 1, 5, 9}},
		{1, []int64{1297131554, 17103983, 1426780792, 2111429773}, []int{0, 98, 41, 68, 66, 7}, []int{1, 2, 35, 0, 53}, []int{0, 9, 5, 7, 3, 2, 1, 4, 8, 6}},
		{30, []int64{2130942395, 673597140, 1987462841, 1968915066}, []int{31, 91, 19, 66, 98, 11}, []int{2, 2, 30, 0, 78}, []int{3, 9, 0, 7, 1, 5, 6, 8, 2, 4}},
		{12345, []int64{175050234, 1542807399, 528491536, 394031173}, []int{71, 18, 46, 36, 90, 8}, []int{3, 0, 36, 0, 72}, []int{7, 2, 5, 1, 9, 3, 4, 6, 8, 0}},
	}
	for _, tc := range tests {
		r := NewRand(tc.seed)
		var raw []int64
		for range 4 {
			r.step()
			raw = append(raw, r.State())
		}
		if !slices.Equal(raw, tc.raw) {
			t.Errorf("seed %d: raw states = %v, want %v", tc.seed, raw, tc.raw)
		}
		r = NewRand(tc.seed)
		var got []int
		for range 6 {
			got = append(got, r.Int(0, 99))
		}
		if !slices.Equal(got, tc.r99) {
			t.Errorf("seed %d: R(0,99) x6 = %v, want %v", tc.seed, got, tc.r99)
		}
		r = NewRand(tc.seed)
		got = []int{r.Int(1, 4), r.Int(0, 2), r.Int(25, 50), r.Int(0, 0), r.Int(0, 79)}
		if !slices.Equal(got, tc.mixed) {
			t.Errorf("seed %d: mixed draws = %v, want %v", tc.seed, got, tc.mixed)
		}
		if got := NewRand(tc.seed).Perm(10); !slices.Equal(got, tc.perm) {
			t.Errorf("seed %d: P(10) = %v, want %v", tc.seed, got, tc.perm)
		}
	}
}

func TestRandEdgeCases(t *testing.T) {
	a, b := NewRand(-7), NewRand(7)
	for range 10 {
		if x, y := a.Int(0, 1000), b.Int(0, 1000); x != y {
			t.Fatalf("seed -7 drew %d, seed 7 drew %d", x, y)
		}
	}
	r := NewRand(3)
	s := r.State()
	if got := r.Int(5, 4); got != 5 || r.State() != s {
		t.Errorf("R(5,4) = %d and moved the state; want 5 and no step", got)
	}
	if got := r.Int(0, 1000000); got != 0 || r.State() != s {
		t.Errorf("R(0,10^6) = %d and moved the state; want 0 and no step", got)
	}
	r.Int(0, 0)
	if r.State() == s {
		t.Error("R(0,0) did not advance the state")
	}
	if p := r.Perm(-1); p != nil {
		t.Errorf("P(-1) = %v, want nil", p)
	}
}

// Checkpoints of SPEC §4.3, §5 and §8.16.
func TestMapAndPlacementCheckpoints(t *testing.T) {
	countSteps := func(seed int, st int64) int {
		r := NewRand(seed)
		for n := 0; n < 100000; n++ {
			if r.State() == st {
				return n
			}
			r.step()
		}
		return -1
	}
	g, err := New(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.rng.State(); got != 207944597 {
		t.Errorf("seed 1: state after placement = %d, want 207944597", got)
	}
	if got := countSteps(1, g.rng.State()); got != 14364 {
		t.Errorf("seed 1: steps after placement = %d, want 14364", got)
	}
	caves := len(g.caves)
	if caves != 1458 {
		t.Errorf("seed 1: %d cave cells, want 1458", caves)
	}
	want := map[int]Pos{90: {26, 51, 0}, 91: {31, 56, 0}, 92: {23, 25, 0}}
	for id, p := range want {
		if got := g.Units[id].Pos; got != p {
			t.Errorf("seed 1: hellhound %d at %v, want %v", id, got, p)
		}
	}
	var none [NumPlayers][]Command
	if err := g.Step(&none); err != nil {
		t.Fatal(err)
	}
	if got := g.rng.State(); got != 1707777015 {
		t.Errorf("seed 1: state after round 0 = %d, want 1707777015", got)
	}
	wantMoves := []Move{{90, Left}, {91, RT}, {92, TL}}
	if !slices.Equal(g.Moves, wantMoves) {
		t.Errorf("seed 1 round 0 moves = %v, want %v", g.Moves, wantMoves)
	}

	g30, err := New(DefaultConfig(), 30)
	if err != nil {
		t.Fatal(err)
	}
	if got := countSteps(30, g30.rng.State()); got != 14190 {
		t.Errorf("seed 30: steps after placement = %d, want 14190", got)
	}
	if len(g30.caves) != 1461 {
		t.Errorf("seed 30: %d cave cells, want 1461", len(g30.caves))
	}
}

// SPEC §12 checkpoint: seed 1, four Demos, round 0, player 0's list.
func TestDemoCheckpoint(t *testing.T) {
	m, err := NewMatch(DefaultConfig(), 1, [4]string{"Demo", "Demo", "Demo", "Demo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.PlayRound(); err != nil {
		t.Fatal(err)
	}
	want := []int{1, 4, 3, 6, 2, 6, 4, 6, 0, 6, 5, 3, 6, 0, 7, 0, 8, 0, 9, 2, 10, 0, 11, 0, 12, 2, 13, 0, 14, 4, 15, 6, 16, 0, 17, 3, 18, 0, 19, 6}
	var got []int
	for _, c := range m.Orders(0) {
		got = append(got, c.ID, int(c.Dir))
	}
	if !slices.Equal(got, want) {
		t.Errorf("Demo round 0 list = %v, want %v", got, want)
	}
}

// TestSkipDraws checks the O(log k) jump against k draws made one by one.
func TestSkipDraws(t *testing.T) {
	for _, seed := range []int{0, 1, 12345, -7, 1 << 30} {
		for _, k := range []int{0, 1, 2, 3, 7, 64, 999, 4097} {
			a, b := NewRand(seed), NewRand(seed)
			for i := 0; i < k; i++ {
				a.Int(0, 9)
			}
			b.SkipDraws(k)
			if a.State() != b.State() {
				t.Fatalf("seed %d, %d draws: state %d after skipping, %d drawing", seed, k, b.State(), a.State())
			}
		}
	}
}

// TestLazyPerm checks that reading a prefix of P(m) lazily and finishing
// gives the same entries and leaves the generator where P(m) does.
func TestLazyPerm(t *testing.T) {
	var l lazyPerm
	for _, seed := range []int{3, 77, 2024} {
		for _, m := range []int{0, 1, 2, 5, 300, 1500} {
			for _, read := range []int{0, 1, 3, m / 2, m} {
				read = min(read, m)
				full := NewRand(seed)
				want := full.Perm(m)
				r := NewRand(seed)
				l.start(r, m)
				for i := 0; i < read; i++ {
					v, ok := l.next()
					if !ok || v != want[i] {
						t.Fatalf("seed %d m %d: entry %d = %d (ok %v), want %d", seed, m, i, v, ok, want[i])
					}
				}
				l.finish()
				if r.State() != full.State() {
					t.Fatalf("seed %d m %d read %d: state %d, want %d", seed, m, read, r.State(), full.State())
				}
				if read == m {
					if _, ok := l.next(); ok {
						t.Fatalf("seed %d m %d: an entry after the last", seed, m)
					}
				}
			}
		}
	}
}
