package pandemic

import (
	"math/rand/v2"
	"testing"
)

// refDist is the walking distance from every cell to the nearest of
// srcs (cells off the board ignored): a plain breadth-first search over
// (row, column) pairs, entering only non-wall cells. -1 where unreachable.
func refDist(s *State, srcs []Pos) []int {
	d := make([]int, s.Rows*s.Cols)
	for i := range d {
		d[i] = -1
	}
	var q []Pos
	for _, p := range srcs {
		if s.OnBoard(p) && d[p.I*s.Cols+p.J] < 0 {
			d[p.I*s.Cols+p.J] = 0
			q = append(q, p)
		}
	}
	for len(q) > 0 {
		p := q[0]
		q = q[1:]
		for _, st := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			n := Pos{p.I + st[0], p.J + st[1]}
			if n.I < 0 || n.J < 0 || n.I >= s.Rows || n.J >= s.Cols {
				continue
			}
			if k := n.I*s.Cols + n.J; d[k] < 0 && s.Types[k] != Wall {
				d[k] = d[p.I*s.Cols+p.J] + 1
				q = append(q, n)
			}
		}
	}
	return d
}

// refTargets is the targets tensor of seat me from its definition: the
// kinds' cells (counting units cell by cell), refDist, and the bits of
// each unit of me on the board.
func refTargets(s *State, me int) []byte {
	out := make([]byte, len(s.Units)*TargetFeatures)
	needs := func(cells []Pos, owner int) bool {
		var per [NumPlayers]int
		for _, p := range cells {
			if id := s.UnitAt[p.I*s.Cols+p.J]; id >= 0 {
				per[s.Units[id].Player]++
			}
		}
		want := 0
		for pl, c := range per {
			if pl != me && c > want {
				want = c
			}
		}
		if owner != me {
			want++
		}
		return per[me] < want
	}
	var srcs [NumTargetKinds][]Pos
	for k, cells := range s.Cities {
		if needs(cells, s.CityOwner[k]) {
			srcs[TargetCity] = append(srcs[TargetCity], cells...)
		}
	}
	for k, pa := range s.Paths {
		if needs(pa.Cells, s.PathOwner[k]) {
			srcs[TargetPath] = append(srcs[TargetPath], pa.Cells...)
			if s.CityOwner[pa.A] == me && s.CityOwner[pa.B] == me {
				srcs[TargetBridge] = append(srcs[TargetBridge], pa.Cells...)
			}
		}
	}
	srcs[TargetMask] = s.Masks
	for _, u := range s.Units {
		if u.Player != me {
			srcs[TargetEnemy] = append(srcs[TargetEnemy], u.Pos)
		}
	}
	for k := range srcs {
		d := refDist(s, srcs[k])
		for id, u := range s.Units {
			if u.Player != me || !s.OnBoard(u.Pos) || d[s.Idx(u.Pos)] < 0 {
				continue
			}
			cur := d[s.Idx(u.Pos)]
			g := out[id*TargetFeatures+k*TargetColumns:]
			g[TargetNear2], g[TargetNear6], g[TargetNear15] = b2u(cur <= 2), b2u(cur <= 6), b2u(cur <= 15)
			for dir := Bottom; dir < None; dir++ {
				if q := u.Pos.Add(dir); s.OnBoard(q) && d[s.Idx(q)] >= 0 && d[s.Idx(q)] < cur {
					g[dir] = 1
				}
			}
		}
	}
	return out
}

// TestTargetsRandomStates checks the targets tensor against refTargets on
// games of three board widths (one bitboard word a row, two, and wider
// than the bitboards), every seat, one Observer for everything, in the
// states of the game and in copies changed at random: units off the
// board, no enemy on the board, masks removed or added, owners shuffled,
// cities walled in (unreachable targets, another map).
func TestTargetsRandomStates(t *testing.T) {
	var ob Observer
	rng := rand.New(rand.NewPCG(7, 33))
	var seen [NumTargetKinds][3]int // per kind: units reached, not reached, steps set
	checks := 0
	for _, size := range []int{40, 70, 130} {
		for seed := 1; seed <= 2; seed++ {
			cfg := DefaultConfig()
			cfg.Rows, cfg.Cols = size, size
			g, err := New(cfg, seed)
			if err != nil {
				t.Fatal(err)
			}
			rounds := 40
			if size > 128 {
				rounds = 12
			}
			var c State
			for r := 0; r < rounds && !g.Done(); r++ {
				playRounds(t, g, 1)
				states := []*State{&g.State}
				if r%3 == 0 {
					c.CopyFrom(&g.State)
					mutate(rng, &c)
					states = append(states, &c)
				}
				for _, s := range states {
					for me := 0; me < NumPlayers; me++ {
						dst := make([]byte, len(s.Units)*TargetFeatures)
						ob.Targets(s, me, dst)
						want := refTargets(s, me)
						checks++
						for i := range want {
							if dst[i] != want[i] {
								id, c := i/TargetFeatures, i%TargetFeatures
								t.Fatalf("size %d seed %d round %d me %d unit %d (%v) kind %d column %d: %d, want %d",
									size, seed, r, me, id, s.Units[id].Pos, c/TargetColumns, c%TargetColumns, dst[i], want[i])
							}
						}
						for id, u := range s.Units {
							if u.Player != me || !s.OnBoard(u.Pos) {
								continue
							}
							for k := 0; k < NumTargetKinds; k++ {
								g := want[id*TargetFeatures+k*TargetColumns:]
								if g[TargetNear15]|g[TargetNear6]|g[TargetNear2] == 0 && g[0]|g[1]|g[2]|g[3] == 0 {
									seen[k][1]++
								} else {
									seen[k][0]++
								}
								if g[0]|g[1]|g[2]|g[3] != 0 {
									seen[k][2]++
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d checks; per kind (reached, not reached or far, steps set): %v", checks, seen)
	for k := range seen {
		if seen[k][0] == 0 || seen[k][1] == 0 || seen[k][2] == 0 {
			t.Errorf("kind %d never reached, never out of reach or never a step: %v", k, seen[k])
		}
	}
}

// mutate changes a copy of a game state at random, keeping UnitAt, MaskAt
// and Masks consistent: the edge cases of the targets tensor.
func mutate(rng *rand.Rand, s *State) {
	off := func(id int) {
		u := &s.Units[id]
		if s.OnBoard(u.Pos) {
			s.UnitAt[s.Idx(u.Pos)] = -1
		}
		u.Pos = NoPos
	}
	switch rng.IntN(8) {
	case 0: // some units off the board (killed during a round)
		for id := range s.Units {
			if rng.IntN(4) == 0 {
				off(id)
			}
		}
	case 1: // only player 0's units on the board: no enemy for seat 0, no unit for the others
		for id := range s.Units {
			if s.Units[id].Player != 0 {
				off(id)
			}
		}
	case 2: // no masks
		for _, p := range s.Masks {
			s.MaskAt[s.Idx(p)] = false
		}
		s.Masks = s.Masks[:0]
	case 3: // masks added at the end of the list, as the engine does
		for n := rng.IntN(4); n >= 0; n-- {
			idx := rng.IntN(s.Rows * s.Cols)
			if s.Types[idx] == Grass && s.UnitAt[idx] < 0 && !s.MaskAt[idx] {
				s.MaskAt[idx] = true
				s.Masks = append(s.Masks, s.PosOf(idx))
			}
		}
	case 4: // owners at random: bridges
		for k := range s.CityOwner {
			s.CityOwner[k] = rng.IntN(NumPlayers+1) - 1
		}
		for k := range s.PathOwner {
			s.PathOwner[k] = rng.IntN(NumPlayers+1) - 1
		}
	case 5: // a mask removed from the middle of the list
		if n := len(s.Masks); n > 1 {
			k := rng.IntN(n - 1)
			s.MaskAt[s.Idx(s.Masks[k])] = false
			s.Masks = append(s.Masks[:k], s.Masks[k+1:]...)
		}
	case 7: // player 0's units and one other unit only: most of seat 0's
		// units far from its only enemy
		keep := -1
		for id := range s.Units {
			if s.Units[id].Player != 0 && s.OnBoard(s.Units[id].Pos) && (keep < 0 || rng.IntN(3) == 0) {
				keep = id
			}
		}
		for id := range s.Units {
			if s.Units[id].Player != 0 && id != keep {
				off(id)
			}
		}
	case 6: // another map: the grass around some cities walled in,
		types := append([]CellType(nil), s.Types...)
		for k, cells := range s.Cities {
			if k%2 != 0 {
				continue
			}
			for _, p := range cells {
				for d := Bottom; d < None; d++ {
					if q := p.Add(d); s.OnBoard(q) && types[s.Idx(q)] == Grass &&
						s.UnitAt[s.Idx(q)] < 0 && !s.MaskAt[s.Idx(q)] {
						types[s.Idx(q)] = Wall
					}
				}
			}
		}
		// and a wall across the middle row, through cities and paths too
		// (targets on walls), open only where a unit or a mask is.
		if rng.IntN(2) == 0 {
			for j := 0; j < s.Cols; j++ {
				if idx := s.Rows/2*s.Cols + j; s.UnitAt[idx] < 0 && !s.MaskAt[idx] {
					types[idx] = Wall
				}
			}
		}
		// Some units shut in: walls on their free neighbours.
		for id := range s.Units {
			if p := s.Units[id].Pos; rng.IntN(3) == 0 && s.OnBoard(p) {
				for d := Bottom; d < None; d++ {
					if q := p.Add(d); s.OnBoard(q) && s.UnitAt[s.Idx(q)] < 0 && !s.MaskAt[s.Idx(q)] {
						types[s.Idx(q)] = Wall
					}
				}
			}
		}
		s.Types = types
	}
}
