package dominator

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
		r = NewRand(tc.seed)
		if got := r.Perm(10); !slices.Equal(got, tc.perm) {
			t.Errorf("seed %d: P(10) = %v, want %v", tc.seed, got, tc.perm)
		}
		skip := NewRand(tc.seed)
		skip.SkipPerm(10)
		if got, want := skip.State(), r.State(); got != want {
			t.Errorf("seed %d: state after SkipPerm(10) = %d, want %d (P(10) makes 10 draws)", tc.seed, got, want)
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
	r.Int(5, 5)
	if r.State() == s {
		t.Error("R(5,5) did not advance the state")
	}
	if p := r.Perm(-1); p != nil {
		t.Errorf("P(-1) = %v, want nil", p)
	}
	s = r.State()
	if p := r.Perm(0); len(p) != 0 || r.State() != s {
		t.Errorf("P(0) = %v and moved the state; want empty and no draw", p)
	}
}

// TestLazyPerm checks that reading a prefix of a lazy permutation and
// finishing it gives the entries and the final state of P(n).
func TestLazyPerm(t *testing.T) {
	for _, c := range []struct{ n, read int }{{0, 0}, {1, 1}, {1, 0}, {5, 2}, {300, 7}, {300, 300}, {1000, 0}} {
		want := NewRand(99)
		perm := want.Perm(c.n)
		got := NewRand(99)
		var lp lazyPerm
		for round := 0; round < 2; round++ { // the buffers are clean for reuse
			lp.start(got, c.n)
			for k := 0; k < c.read; k++ {
				if e := lp.next(); e != perm[k] {
					t.Fatalf("P(%d) entry %d = %d, want %d", c.n, k, e, perm[k])
				}
			}
			lp.finish()
			if got.State() != want.State() {
				t.Fatalf("P(%d) reading %d: state %d, want %d", c.n, c.read, got.State(), want.State())
			}
			perm = want.Perm(c.n)
		}
	}
}

// Checkpoints of SPEC §4.4: walls, draws and the generator state after
// the map and after the initial units, and the first witches.
func TestMapAndPlacementCheckpoints(t *testing.T) {
	steps := func(seed int, st int64) int {
		r := NewRand(seed)
		for n := 0; n < 100000; n++ {
			if r.State() == st {
				return n
			}
			r.step()
		}
		return -1
	}
	for _, c := range []struct {
		cfg              string
		seed             int
		walls, mapSteps  int
		mapState         int64
		unitSteps        int
		unitState        int64
		w0, w1, w32, w33 Pos
	}{
		{"default", 1, 255, 274, 417007007, 3382, 1219907179, Pos{3, 2}, Pos{5, 13}, Pos{34, 16}, Pos{25, 4}},
		{"default", 2, 254, 274, 378125000, 3350, 1417331652, Pos{8, 5}, Pos{10, 11}, Pos{22, 13}, Pos{31, 16}},
		{"generator1", 1, 194, 250, 1858579671, 3526, 455300379, Pos{5, 1}, Pos{14, 11}, Pos{35, 7}, Pos{30, 14}},
		{"generator3", 1, 279, 120, 26891945, 3160, 1970183497, Pos{5, 6}, Pos{1, 8}, Pos{25, 4}, Pos{21, 4}},
		{"fixed1", 1, 196, 0, 1, 3268, 1724861645, Pos{1, 16}, Pos{7, 11}, Pos{22, 1}, Pos{29, 14}},
	} {
		t.Run(c.cfg, func(t *testing.T) {
			cfg, err := ShippedConfig(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var r Rand
			r.Seed(c.seed)
			grid := make([]Cell, cfg.Rows*cfg.Cols)
			if cfg.Board != Fixed {
				if err := generateBoard(&r, &cfg, grid); err != nil {
					t.Fatal(err)
				}
			}
			if got := steps(c.seed, r.State()); cfg.Board != Fixed && (got != c.mapSteps || r.State() != c.mapState) {
				t.Errorf("after the map: %d steps, state %d; want %d, %d", got, r.State(), c.mapSteps, c.mapState)
			}
			g, err := New(cfg, c.seed)
			if err != nil {
				t.Fatal(err)
			}
			walls := 0
			for _, cell := range g.Grid {
				if cell.Type == Wall {
					walls++
				}
			}
			if walls != c.walls {
				t.Errorf("walls = %d, want %d", walls, c.walls)
			}
			if got := steps(c.seed, g.rng.State()); got != c.unitSteps || g.rng.State() != c.unitState {
				t.Errorf("after the units: %d steps, state %d; want %d, %d", got, g.rng.State(), c.unitSteps, c.unitState)
			}
			for id, want := range map[int]Pos{0: c.w0, 1: c.w1, 32: c.w32, 33: c.w33} {
				if got := g.Units[id].Pos; got != want {
					t.Errorf("witch %d at %v, want %v", id, got, want)
				}
			}
			if g.Land != [NumPlayers]int{20, 20, 20, 20} || g.TotalScore != g.Land {
				t.Errorf("land, total = %v, %v, want 20 each", g.Land, g.TotalScore)
			}
		})
	}
}
