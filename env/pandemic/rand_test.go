package pandemic

import (
	"math"
	"slices"
	"testing"
)

// Test vectors of SPEC §1.7, checked there against the reference code.
func TestRandVectors(t *testing.T) {
	r := NewRand(1)
	var raw []int64
	for range 4 {
		r.step()
		raw = append(raw, r.State())
	}
	if want := []int64{1297131554, 17103983, 1426780792, 2111429773}; !slices.Equal(raw, want) {
		t.Errorf("seed 1: raw states = %v, want %v", raw, want)
	}
	r = NewRand(1)
	var got []int
	for range 8 {
		got = append(got, r.Int(0, 9))
	}
	if want := []int{0, 9, 4, 6, 6, 0, 8, 1}; !slices.Equal(got, want) {
		t.Errorf("seed 1: R(0,9) x8 = %v, want %v", got, want)
	}
	r = NewRand(42)
	got = []int{r.Int(8, 22), r.Int(0, 69), r.Int(0, 69), r.Int(0, 69)}
	if want := []int{13, 52, 43, 46}; !slices.Equal(got, want) || r.State() != 1411794978 {
		t.Errorf("seed 42: draws = %v, state %d, want %v, state 1411794978", got, r.State(), want)
	}
	r = NewRand(7)
	if got, want := r.Perm(10), []int{5, 9, 3, 7, 0, 2, 8, 6, 4, 1}; !slices.Equal(got, want) || r.State() != 1375196195 {
		t.Errorf("seed 7: P(10) = %v, state %d, want %v, state 1375196195", got, r.State(), want)
	}
	if got := NewRand(-5).State(); got != 5 {
		t.Errorf("seed -5: state = %d, want 5", got)
	}
}

func TestThresholds(t *testing.T) {
	cfg := DefaultConfig()
	for v := 0; v <= 10; v++ {
		if got, want := Threshold(InfectProb(v, false, &cfg)), 200*v; got != want {
			t.Errorf("Threshold(%d/50) = %d, want %d", v, got, want)
		}
		if got, want := Threshold(InfectProb(v, true, &cfg)), 10*v; got != want {
			t.Errorf("Threshold(%d/50/20) = %d, want %d", v, got, want)
		}
	}
	heal := []int{12, 15, 20, 25, 32, 40, 50, 60, 72, 85}
	for k, want := range heal {
		if got := Threshold(HealProb(k + 2)); got != want {
			t.Errorf("healing threshold t=%d = %d, want %d", k+2, got, want)
		}
	}
	for _, c := range []struct {
		p    float64
		want int
	}{
		{57.0 / 100, 5699}, {69.0 / 100, 6899}, {3.0 / 50, 600}, {55.0 / 100, 5500}, {75.0 / 100, 7500},
		{math.NaN(), math.MinInt32}, {math.Inf(1), math.MinInt32}, {-1e12, math.MinInt32}, {-0.00005, 0}, {-0.5, -5000},
	} {
		if got := Threshold(c.p); got != c.want {
			t.Errorf("Threshold(%v) = %d, want %d", c.p, got, c.want)
		}
	}
}

func TestRandEdgeCases(t *testing.T) {
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
	r = NewRand(3)
	r.Perm(0)
	if r.State() != s {
		t.Error("P(0) drew")
	}
	if p := r.Perm(-1); p != nil {
		t.Errorf("P(-1) = %v, want nil", p)
	}
	a, b := NewRand(9), NewRand(9)
	a.Perm(6)
	for range 6 {
		b.Int(0, 5)
	}
	if a.State() != b.State() {
		t.Error("P(6) did not make exactly 6 draws")
	}
}

// Checkpoints of SPEC §4.9.
func TestMapCheckpoints(t *testing.T) {
	for _, c := range []struct {
		seed, attempts, cities, paths, ruins int
		counts                               [4]int // W, GRASS, CITY, PATH
		afterMap, afterUnits                 int64
	}{
		{1, 1, 8, 7, 116, [4]int{488, 4181, 102, 129}, 1087190405, 1008714033},
		{2, 1, 11, 13, 103, [4]int{432, 4038, 203, 227}, 1968824086, 253621912},
		{3, 1, 15, 14, 156, [4]int{466, 3893, 248, 293}, 366081245, 596062847},
		{30, 2, 18, 13, 342, [4]int{520, 3961, 233, 186}, 706592092, 2133008430},
	} {
		r := NewRand(c.seed)
		m, err := generateMap(r, 70, 70)
		if err != nil {
			t.Fatal(err)
		}
		var counts [4]int
		for _, ty := range m.types {
			counts[ty]++
		}
		if m.attempts != c.attempts || m.ruins != c.ruins || len(m.cities) != c.cities || len(m.paths) != c.paths || counts != c.counts || r.State() != c.afterMap {
			t.Errorf("seed %d: attempts %d cities %d paths %d cells %v state %d, want %d %d %d %v %d",
				c.seed, m.attempts, len(m.cities), len(m.paths), counts, r.State(), c.attempts, c.cities, c.paths, c.counts, c.afterMap)
		}
		g, err := New(DefaultConfig(), c.seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Rand().State(); got != c.afterUnits {
			t.Errorf("seed %d: state after the units = %d, want %d", c.seed, got, c.afterUnits)
		}
		if c.seed == 1 {
			if got, want := g.Cities[0][0], (Pos{5, 57}); got != want || len(g.Cities[0]) != 4 {
				t.Errorf("seed 1: city 0 at %v size %d, want %v size 4", got, len(g.Cities[0]), want)
			}
			if p := g.Paths[0]; p.A != 4 || p.B != 7 || len(p.Cells) != 24 {
				t.Errorf("seed 1: path 0 = %d-%d with %d cells, want 4-7 with 24", p.A, p.B, len(p.Cells))
			}
			if g.Units[0].Pos != (Pos{55, 68}) || g.Units[59].Pos != (Pos{32, 1}) {
				t.Errorf("seed 1: units 0 and 59 at %v %v, want (55, 68) (32, 1)", g.Units[0].Pos, g.Units[59].Pos)
			}
		}
	}
}
