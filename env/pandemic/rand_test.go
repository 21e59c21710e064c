package pandemic

import (
	"math"
	"testing"
)

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
