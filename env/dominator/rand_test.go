package dominator

import (
	"testing"
)

// Checkpoints of SPEC §4.4: walls, draws and the generator state after
// the map and after the initial units, and the first witches.
func TestMapAndPlacementCheckpoints(t *testing.T) {
	steps := func(seed int, st int64) int {
		r := NewRand(seed)
		for n := 0; n < 100000; n++ {
			if r.State() == st {
				return n
			}
			r.Step()
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
