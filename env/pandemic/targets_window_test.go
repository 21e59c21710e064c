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

// TestTargetsKeptOutOfOrder checks the targets tensor against refTargets
// with one Observer fed the states of a game out of order: a random
// earlier or later round each call, for a random seat, and copies with
// units given to another player or taken off the board, so that what
// the Observer keeps from a seat's last call (the enemy search's results
// per unit) is often stale: units back on a cell they held some calls
// ago, units that were another player's in between.
func TestTargetsKeptOutOfOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	for seed := 1; seed <= 2; seed++ {
		g := newTestGame(t, seed)
		var states []*State
		for r := 0; r < 60 && !g.Done(); r++ {
			playRounds(t, g, 1)
			c := new(State)
			c.CopyFrom(&g.State)
			states = append(states, c)
		}
		var ob Observer
		var c State
		kept := 0
		for call := 0; call < 600; call++ {
			s := states[rng.IntN(len(states))]
			if call%2 == 1 { // near the last state: most units where they were
				s = states[min(len(states)-1, rng.IntN(3)+call%len(states))]
			}
			if rng.IntN(4) == 0 {
				c.CopyFrom(s)
				for id := range c.Units {
					switch rng.IntN(6) {
					case 0:
						c.Units[id].Player = (c.Units[id].Player + 1 + rng.IntN(3)) % NumPlayers
					case 1:
						if p := c.Units[id].Pos; c.OnBoard(p) {
							c.UnitAt[c.Idx(p)] = -1
							c.Units[id].Pos = NoPos
						}
					}
				}
				c.rebuildUnitLists()
				s = &c
			}
			me := rng.IntN(NumPlayers)
			if call%3 != 0 {
				me = 0 // mostly one seat: longer runs of its calls
			}
			dst := make([]byte, len(s.Units)*TargetFeatures)
			ob.Targets(s, me, dst)
			want := refTargets(s, me)
			for i := range want {
				if dst[i] != want[i] {
					id, col := i/TargetFeatures, i%TargetFeatures
					t.Fatalf("seed %d call %d me %d unit %d (%v) kind %d column %d: %d, want %d",
						seed, call, me, id, s.Units[id].Pos, col/TargetColumns, col%TargetColumns, dst[i], want[i])
				}
			}
			for _, k := range ob.targets.kept[me].units {
				if k.ok && k.seq == ob.targets.kept[me].seq {
					kept++
				}
			}
		}
		t.Logf("seed %d: %d unit results kept or found", seed, kept)
	}
}

// TestFieldUpdate checks a kept field changed by update (targets taken
// out by remove, added by nearer) against refDist after each change, on
// random boards of 1 to 90 rows and 1 to 160 columns (the bitboard rows
// and wider) with walls, the targets changing at random: some taken out,
// some added, some on walls, sometimes none.
func TestFieldUpdate(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	var tf targetFields
	var c targetCache
	removed, added := 0, 0
	for trial := 0; trial < 150; trial++ {
		rows, cols := 1+rng.IntN(90), 1+rng.IntN(160)
		n := rows * cols
		s := &State{Rows: rows, Cols: cols, Types: make([]CellType, n), CityOf: make([]int32, n), PathOf: make([]int32, n)}
		wall := rng.Float64() * 0.5
		for i := range s.Types {
			s.Types[i] = Grass
			if rng.Float64() < wall {
				s.Types[i] = Wall
			}
		}
		tf.grid.update(s)
		c.ok = false
		var cells []Pos
		for step := 0; step < 12; step++ {
			next := cells[:0:0]
			for _, p := range cells {
				if rng.IntN(3) != 0 {
					next = append(next, p)
				} else {
					removed++
				}
			}
			in := map[Pos]bool{}
			for _, p := range next {
				in[p] = true
			}
			for k := rng.IntN(4); k > 0; k-- {
				if p := (Pos{rng.IntN(rows), rng.IntN(cols)}); !in[p] {
					in[p] = true
					next = append(next, p)
					added++
				}
			}
			if rng.IntN(10) == 0 {
				next = next[:0]
			}
			rng.Shuffle(len(next), func(i, j int) { next[i], next[j] = next[j], next[i] })
			cells = next
			tf.update(&c, cells)
			c.ok = true
			ref := refDist(s, cells)
			if len(cells) == 0 {
				if len(c.dist) != 0 {
					t.Fatalf("trial %d step %d: a field without targets", trial, step)
				}
				continue
			}
			for idx := range ref {
				got := int(c.dist[tf.grid.pad(s.PosOf(idx))])
				if got == gridWall {
					got = -1
				}
				if got != ref[idx] {
					t.Fatalf("trial %d step %d %dx%d cell %v: %d, want %d", trial, step, rows, cols, s.PosOf(idx), got, ref[idx])
				}
			}
		}
	}
	t.Logf("%d targets taken out, %d added", removed, added)
}
