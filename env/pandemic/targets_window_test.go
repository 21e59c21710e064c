package pandemic

import (
	"math/rand/v2"
	"testing"
)

// TestEnemyWindow checks the search from one unit (enemyWindow.search)
// against refDist on random boards of 1 to 90 rows and 1 to 128 columns
// (one bitboard word a row and two), with walls, few enemies (distances
// around the window's radius) and enemies on walls, from every cell: the
// distance and the steps one nearer when the nearest enemy is at most
// winR away, winFar when it is farther, -1 or winFar when none is
// reachable.
func TestEnemyWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 31))
	var w enemyWindow
	var g targetGrid
	var en []uint64
	var near, edge, far, none, steps, zero int
	for trial := 0; trial < 300; trial++ {
		rows, cols := 1+rng.IntN(90), 1+rng.IntN(128)
		if trial%4 == 0 {
			cols = 60 + rng.IntN(69) // the second word, and columns past 64
		}
		n := rows * cols
		s := &State{Rows: rows, Cols: cols, Types: make([]CellType, n), CityOf: make([]int32, n), PathOf: make([]int32, n)}
		wall := rng.Float64() * 0.45
		for i := range s.Types {
			s.Types[i] = Grass
			if rng.Float64() < wall {
				s.Types[i] = Wall
			}
		}
		var srcs []Pos
		for k := rng.IntN(5); k >= 0; k-- {
			srcs = append(srcs, Pos{rng.IntN(rows), rng.IntN(cols)})
		}
		if trial%7 == 0 {
			srcs = srcs[:0] // no enemy
		}
		g.update(s)
		en = bits3(en, rows, srcs)
		ref := refDist(s, srcs)
		for idx := 0; idx < n; idx++ {
			u := s.PosOf(idx)
			d, st := w.search(g.open3, en, u)
			want := ref[idx]
			switch {
			case want < 0:
				if d != -1 && d != winFar {
					t.Fatalf("trial %d %dx%d unit %v: %d, want none", trial, rows, cols, u, d)
				}
				none++
				continue
			case want > winR:
				if d != winFar {
					t.Fatalf("trial %d %dx%d unit %v: %d, want winFar (distance %d)", trial, rows, cols, u, d, want)
				}
				far++
				continue
			}
			var ws uint
			for dir := Bottom; dir < None; dir++ {
				if q := u.Add(dir); s.OnBoard(q) && ref[s.Idx(q)] >= 0 && ref[s.Idx(q)] < want {
					ws |= 1 << dir
				}
			}
			if d != want || st != ws {
				t.Fatalf("trial %d %dx%d unit %v: distance %d steps %04b, want %d %04b", trial, rows, cols, u, d, st, want, ws)
			}
			near++
			if want >= winR-2 {
				edge++
			}
			if ws != 0 {
				steps++
			}
			if want == 0 {
				zero++
			}
		}
	}
	t.Logf("cells: %d near (%d within 2 of the radius, %d with steps, %d on an enemy), %d far, %d none", near, edge, steps, zero, far, none)
	if edge == 0 || far == 0 || none == 0 || steps == 0 || zero == 0 {
		t.Errorf("a case never seen")
	}
}
