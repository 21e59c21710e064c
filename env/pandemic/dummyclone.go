package pandemic

// DummyClone plays as the course's Dummy player. Dummy is distributed only
// as a compiled object; its rules below were read off 100 recorded games of
// four Dummies (the course engine's traces and the commands every player
// issued), and DummyClone reproduces all of those games command for
// command and trace byte for byte, as it does the Dummy seats of the
// reference traces (TestDummyCloneMatchesDummy).
//
// Like Demo, Dummy draws from its own generator seeded with seed+me+1
// (SPEC §1.6). Every round it commands each of its units, in increasing id
// order, and issues a command for every unit (NONE included). For a unit
// u, with a "goal" cell being a CITY or PATH cell whose city or path the
// player does not own:
//
//  1. With R(0, 100) < 25 it moves in the direction R(0, 3) (walls
//     included).
//  2. Otherwise it draws a = R(0, 3) and scans the four directions in the
//     order a, a+1, a+2, a+3 (mod 4) for each of the checks below.
//  3. If a neighbour holds a mask, it moves there (even when u wears one).
//  4. It draws R(0, 9); unless that is 0, it attacks the first neighbour
//     holding an enemy unit.
//  5. If u stands on a goal cell: for every neighbouring goal cell, in scan
//     order, it draws R(0, 4), and a draw of 0 selects that cell (a later
//     selection replaces an earlier one); it moves to the selected cell, or
//     stays (NONE) if none was selected. With no goal cell beside it, it
//     walks towards the nearest other goal cell, as in 6.
//  6. Otherwise it takes one step on a shortest walk (through any non-wall
//     cell) to the nearest goal cell, preferring the directions in the
//     order a+3, a+2, a+1, a (the reverse of the scan). When a goal cell is
//     beside it, it first makes one R(0, 4) draw per neighbouring goal cell,
//     whose values do not change the step.
//
// DummyClone draws exactly as Dummy does, so a game with DummyClones in
// the Dummy seats is the game the course engine plays with Dummy.
type DummyClone struct {
	me  int
	rng Rand

	dist  []int32 // steps from each cell to the nearest goal cell, -1 if none
	queue []int32
	seen  []int32 // scratch of firstStep: stamp per cell
	stamp int32
}

func init() { RegisterBot("DummyClone", NewDummyClone) }

// NewDummyClone returns the Dummy clone for seat me of a game with the
// given seed.
func NewDummyClone(me, seed int) Bot {
	d := &DummyClone{me: me}
	d.rng.Seed(seed + me + 1)
	return d
}

// Play gives one command for every unit of the player.
func (d *DummyClone) Play(s *State, o *Orders) {
	d.goalField(s)
	for _, id := range s.PlayerUnits[d.me] {
		o.Move(id, d.decide(s, &s.Units[id]))
	}
}

// scanDir is the k-th direction (k = 0..3) of the scan that starts at a.
func scanDir(a, k int) Dir { return Dir((a + k) % 4) }

// decide is Dummy's choice for one unit (see the type's comment).
func (d *DummyClone) decide(s *State, u *Unit) Dir {
	if d.rng.Int(0, 100) < 25 {
		return Dir(d.rng.Int(0, 3))
	}
	a := d.rng.Int(0, 3)
	for k := 0; k < 4; k++ {
		dir := scanDir(a, k)
		if q := u.Pos.Add(dir); s.OnBoard(q) && s.MaskAt[s.Idx(q)] {
			return dir
		}
	}
	if d.rng.Int(0, 9) != 0 {
		for k := 0; k < 4; k++ {
			dir := scanDir(a, k)
			q := u.Pos.Add(dir)
			if !s.OnBoard(q) {
				continue
			}
			if v := s.UnitAt[s.Idx(q)]; v >= 0 && s.Units[v].Player != d.me {
				return dir
			}
		}
	}
	here := s.Idx(u.Pos)
	if d.goal(s, here) {
		beside, chosen := false, None
		for k := 0; k < 4; k++ {
			dir := scanDir(a, k)
			if q := u.Pos.Add(dir); s.OnBoard(q) && d.goal(s, s.Idx(q)) {
				beside = true
				if d.rng.Int(0, 4) == 0 {
					chosen = dir
				}
			}
		}
		if beside {
			return chosen
		}
		return d.firstStep(s, u.Pos, a)
	}
	if d.dist[here] == 1 {
		for k := 0; k < 4; k++ {
			if q := u.Pos.Add(scanDir(a, k)); s.OnBoard(q) && d.goal(s, s.Idx(q)) {
				d.rng.Int(0, 4)
			}
		}
	}
	cur := d.dist[here]
	if cur <= 0 {
		return None
	}
	for k := 3; k >= 0; k-- {
		dir := scanDir(a, k)
		if q := u.Pos.Add(dir); s.OnBoard(q) && d.dist[s.Idx(q)] == cur-1 {
			return dir
		}
	}
	return None
}

// goal reports whether cell idx is a CITY or PATH cell whose city or path
// the player does not own.
func (d *DummyClone) goal(s *State, idx int) bool {
	switch s.Types[idx] {
	case City:
		return s.CityOwner[s.CityOf[idx]] != d.me
	case Path:
		return s.PathOwner[s.PathOf[idx]] != d.me
	}
	return false
}

// goalField computes, for every cell, the number of steps to the nearest
// goal cell through non-wall cells (-1 where none is reachable).
func (d *DummyClone) goalField(s *State) {
	n := s.Rows * s.Cols
	if len(d.dist) != n {
		d.dist = make([]int32, n)
		d.seen = make([]int32, n)
		d.stamp = 0
	}
	q := d.queue[:0]
	for i := range d.dist {
		d.dist[i] = -1
		if s.Types[i] != Wall && d.goal(s, i) {
			d.dist[i] = 0
			q = append(q, int32(i))
		}
	}
	cols := int32(s.Cols)
	for h := 0; h < len(q); h++ {
		i := q[h]
		next := d.dist[i] + 1
		r, c := i/cols, i%cols
		visit := func(j int32) {
			if d.dist[j] < 0 && s.Types[j] != Wall {
				d.dist[j] = next
				q = append(q, j)
			}
		}
		if r+1 < int32(s.Rows) {
			visit(i + cols)
		}
		if r > 0 {
			visit(i - cols)
		}
		if c+1 < cols {
			visit(i + 1)
		}
		if c > 0 {
			visit(i - 1)
		}
	}
	d.queue = q
}

// firstStep is the first step of a breadth-first walk from p to the
// nearest goal cell other than p, expanding neighbours in the order a+3,
// a+2, a+1, a; NONE if there is none. Only a unit standing on a goal cell
// with no goal cell beside it needs it, which is rare.
func (d *DummyClone) firstStep(s *State, p Pos, a int) Dir {
	d.stamp++
	if d.stamp == 0 {
		clear(d.seen)
		d.stamp = 1
	}
	type node struct {
		idx   int
		first Dir
	}
	start := s.Idx(p)
	d.seen[start] = d.stamp
	queue := []node{{start, None}}
	for h := 0; h < len(queue); h++ {
		cur := queue[h]
		if cur.idx != start && d.goal(s, cur.idx) {
			return cur.first
		}
		cp := s.PosOf(cur.idx)
		for k := 3; k >= 0; k-- {
			dir := scanDir(a, k)
			q := cp.Add(dir)
			if !s.OnBoard(q) {
				continue
			}
			qi := s.Idx(q)
			if d.seen[qi] == d.stamp || s.Types[qi] == Wall {
				continue
			}
			d.seen[qi] = d.stamp
			first := cur.first
			if cur.idx == start {
				first = dir
			}
			queue = append(queue, node{qi, first})
		}
	}
	return None
}
