package crematoria

import "sync"

// DummyClone plays like the course's Dummy player, the strongest of the
// course's reference bots. Dummy is distributed only as a compiled object;
// its rules were read from 20 games of four Dummies (the trace and every
// player's commands of each round), studied on seeds 1000001-1000014 and
// measured on the held-out seeds 1000015-1000020, where the clone gives
// 99.96% of the units Dummy's command and four clones score 1.9% below
// four Dummies (benchmarks/notebook/crematoria-dummy.md has the figures
// and the commands that measure them). Students can seat
// it as a sparring partner (`jgym match`, `jgym eval --opponents
// DummyClone`).
//
// Like Demo, it draws from the player's own generator seeded with
// seed+me+1, R(l, u) below. Each round it decides its furyans, then its
// pioneers, in the order of State.Furyans and State.Pioneers:
//
//   - Furyan: the enemies next to it (an enemy pioneer or furyan, or a
//     necromonger; the eight directions, and up and down on an elevator)
//     are attacked, one drawn among them by R(0, n-1). Otherwise
//     R(0, 99) < 35 moves in direction R(0, 7); otherwise a furyan on
//     level 0 within 4 steps of a hellhound flees it (below; walled in,
//     it goes on); otherwise it steps towards the nearest enemy pioneer
//     (both levels).
//   - Pioneer: a threat next to it (an enemy furyan or a necromonger)
//     makes it step the opposite way, (d+4) mod 8 for the threat d drawn
//     among them; otherwise a pioneer on level 0 within 4 steps of a
//     hellhound flees it, or, walled in, gets no command; otherwise
//     R(0, 99) < 35 moves in direction R(0, 7); otherwise it steps
//     towards a gem within 9 steps (walking only where the sun does not
//     shine, and onto occupied cells too); otherwise, on level 1, towards
//     the nearest elevator; otherwise towards the nearest cave it does not
//     own, walking around the cells within 4 steps of a hellhound (it may
//     end on one); if no free neighbour is on such a walk, by any walk.
//
// A step goes to a free neighbour (no unit on it) whose distance to the
// goal is least, one drawn among the ties by R(0, n-1); a unit without
// such a neighbour gets no command. Fleeing a hellhound goes to the free
// neighbour on level 0 farthest from the hellhounds, drawn among the ties.
// A command is given only if no unit of the player stands on its target
// and no earlier command of the round goes there; Dummy never commands
// None.
//
// Distances are breadth-first walks over cells that are not rock, in the
// eight directions and through elevators; the hellhound distance is taken
// on level 0 only.
type DummyClone struct {
	me    int
	rng   Rand
	taken []bool // targets of the round, by cell index; NumCells is off the board

	// Distance fields: to the hellhounds (level 0), the enemy pioneers,
	// the caves the player does not own (around the hellhounds, and by
	// any walk), the gems (in the shade) and the elevators of level 0.
	hound, enemy, cave, anyCave, gem, lift []int32
	anyCaveDone                            bool   // anyCave is this round's
	notRock, shade, near                   []bool // cells not rock; not rock nor in daylight; near a hellhound
	queue                                  []int32
}

func init() { RegisterBot("DummyClone", NewDummyClone) }

// NewDummyClone returns the Dummy clone for seat me of a game with the
// given seed.
func NewDummyClone(me, seed int) Bot {
	d := &DummyClone{me: me}
	d.rng.Seed(seed + me + 1)
	return d
}

// The constants of Dummy's rules, as read from its games.
const (
	dummyRandomPct = 35 // percent of units moving at random
	dummyHoundNear = 4  // hellhound distance fled, and walked around
	dummyGemNear   = 9  // gems sought within this distance
)

// Play gives the orders of one round.
func (d *DummyClone) Play(s *State, o *Orders) {
	d.prepare(s)
	for _, ids := range [][]int{s.Furyans[d.me], s.Pioneers[d.me]} {
		for _, id := range ids {
			u := &s.Units[id]
			var dir Dir
			var ok bool
			if u.Type == Furyan {
				dir, ok = d.furyan(s, u)
			} else {
				dir, ok = d.pioneer(s, u)
			}
			if ok {
				d.issue(o, u, dir)
			}
		}
	}
}

func (d *DummyClone) unitAt(s *State, idx int) *Unit {
	if v := s.Cells[idx].ID; v >= 0 {
		return &s.Units[v]
	}
	return nil
}

// prepare marks the player's units' cells taken and computes the round's
// distance fields.
func (d *DummyClone) prepare(s *State) {
	if d.taken == nil {
		d.taken = make([]bool, NumCells+1)
		d.notRock = make([]bool, NumCells)
		d.shade = make([]bool, NumCells)
		d.near = make([]bool, NumCells)
		for idx := range d.notRock {
			d.notRock[idx] = s.Cells[idx].Type != Rock
		}
		d.lift = d.field(s, d.lift, func(idx int) bool { return idx < LevelCells && s.Cells[idx].Type == Elevator }, d.notRock, NumCells, nil)
	}
	clear(d.taken)
	for _, ids := range [][]int{s.Furyans[d.me], s.Pioneers[d.me]} {
		for _, id := range ids {
			d.taken[s.Units[id].Pos.Index()] = true
		}
	}
	d.hound = d.field(s, d.hound, func(idx int) bool {
		u := d.unitAt(s, idx)
		return u != nil && u.Type == Hellhound
	}, d.notRock, LevelCells, nil)
	for idx := range d.near {
		h := d.hound[idx]
		d.near[idx] = idx < LevelCells && h >= 0 && h <= dummyHoundNear
	}
	d.enemy = d.field(s, d.enemy, func(idx int) bool {
		u := d.unitAt(s, idx)
		return u != nil && u.Type == Pioneer && u.Player != d.me
	}, d.notRock, NumCells, nil)
	d.cave = d.field(s, d.cave, d.notOwnCave(s), d.notRock, NumCells, d.near)
	d.anyCaveDone = false
	for idx := range d.shade {
		d.shade[idx] = d.notRock[idx] && (idx < LevelCells || !Daylight(PosOf(idx), s.Round))
	}
	d.gem = d.field(s, d.gem, func(idx int) bool { return s.Cells[idx].Gem }, d.shade, NumCells, nil)
}

// notOwnCave is the goal of the caves the player does not own.
func (d *DummyClone) notOwnCave(s *State) func(idx int) bool {
	return func(idx int) bool {
		c := &s.Cells[idx]
		return c.Type == Cave && int(c.Owner) != d.me
	}
}

// issue commands u in direction dir unless its target is taken.
func (d *DummyClone) issue(o *Orders, u *Unit, dir Dir) {
	key := NumCells
	if t := u.Pos.Add(dir); t.OnBoard() {
		key = t.Index()
	}
	if d.taken[key] {
		return
	}
	d.taken[key] = true
	o.Command(u.ID, dir)
}

// around lists the directions from u that lead to a cell on the board
// holding a unit accepted by is: the eight, and up and down on an
// elevator.
func (d *DummyClone) around(s *State, u *Unit, is func(w *Unit) bool) []Dir {
	var out []Dir
	last := LB
	if s.Cells[u.Pos.Index()].Type == Elevator {
		last = Down
	}
	for dir := Bottom; dir <= last; dir++ {
		t := u.Pos.Add(dir)
		if !t.OnBoard() {
			continue
		}
		if w := d.unitAt(s, t.Index()); w != nil && is(w) {
			out = append(out, dir)
		}
	}
	return out
}

func (d *DummyClone) randomMove() (Dir, bool) {
	if d.rng.Int(0, 99) < dummyRandomPct {
		return Dir(d.rng.Int(0, 7)), true
	}
	return None, false
}

func (d *DummyClone) furyan(s *State, u *Unit) (Dir, bool) {
	enemies := d.around(s, u, func(w *Unit) bool {
		return (w.Type == Pioneer || w.Type == Furyan) && w.Player != d.me || w.Type == Necromonger
	})
	if len(enemies) > 0 {
		return enemies[d.rng.Int(0, len(enemies)-1)], true
	}
	if dir, ok := d.randomMove(); ok {
		return dir, true
	}
	if dir, _ := d.fleeHound(s, u); dir != None {
		return dir, true
	}
	return d.step(s, u, d.enemy, true)
}

func (d *DummyClone) pioneer(s *State, u *Unit) (Dir, bool) {
	threats := d.around(s, u, func(w *Unit) bool {
		return w.Type == Furyan && w.Player != d.me || w.Type == Necromonger
	})
	if len(threats) > 0 {
		return (threats[d.rng.Int(0, len(threats)-1)] + 4) % 8, true
	}
	if dir, near := d.fleeHound(s, u); near {
		return dir, dir != None
	}
	if dir, ok := d.randomMove(); ok {
		return dir, true
	}
	switch here := u.Pos.Index(); {
	case d.gem[here] >= 0 && d.gem[here] <= dummyGemNear:
		return d.step(s, u, d.gem, false)
	case u.Pos.K == 1:
		return d.step(s, u, d.lift, true)
	}
	if dir, ok := d.step(s, u, d.cave, true); ok {
		return dir, true
	}
	if !d.anyCaveDone {
		d.anyCave = d.field(s, d.anyCave, d.notOwnCave(s), d.notRock, NumCells, nil)
		d.anyCaveDone = true
	}
	return d.step(s, u, d.anyCave, true)
}

// fleeHound moves a unit on level 0 within dummyHoundNear of a hellhound
// to the free neighbour farthest from the hellhounds, drawn among the
// ties. near reports whether the unit is within reach; a unit within
// reach without a free neighbour gets None.
func (d *DummyClone) fleeHound(s *State, u *Unit) (dir Dir, near bool) {
	here := d.hound[u.Pos.Index()]
	if u.Pos.K != 0 || here < 0 || here > dummyHoundNear {
		return None, false
	}
	var best []Dir
	bx := int32(-1)
	for dir := Bottom; dir <= LB; dir++ {
		t := u.Pos.Add(dir)
		if !t.OnBoard() {
			continue
		}
		c := &s.Cells[t.Index()]
		if c.Type == Rock || c.ID >= 0 {
			continue
		}
		x := d.hound[t.Index()]
		if x > bx {
			bx, best = x, best[:0]
		}
		if x == bx {
			best = append(best, dir)
		}
	}
	if len(best) == 0 {
		return None, true
	}
	return best[d.rng.Int(0, len(best)-1)], true
}

// step moves u to a neighbour of least distance in dist, drawn among the
// ties; free excludes the neighbours holding a unit.
func (d *DummyClone) step(s *State, u *Unit, dist []int32, free bool) (Dir, bool) {
	var c []Dir
	bx := int32(-1)
	last := LB
	if s.Cells[u.Pos.Index()].Type == Elevator {
		last = Down
	}
	for dir := Bottom; dir <= last; dir++ {
		t := u.Pos.Add(dir)
		if !t.OnBoard() || (free && s.Cells[t.Index()].ID >= 0) {
			continue
		}
		if x := dist[t.Index()]; x >= 0 {
			if x < bx || bx < 0 {
				bx, c = x, c[:0]
			}
			if x == bx {
				c = append(c, dir)
			}
		}
	}
	if len(c) == 0 {
		return None, false
	}
	return c[d.rng.Int(0, len(c)-1)], true
}

// field computes into dist (allocated if nil) the distances to the goal
// cells among the first n (n = LevelCells: on level 0 only; n = NumCells:
// on both levels, joined by the elevators) through the cells where pass
// holds. A cell where block holds gets its distance but is not
// walked through, and is no goal.
func (d *DummyClone) field(s *State, dist []int32, goal func(idx int) bool, pass []bool, n int, block []bool) []int32 {
	if dist == nil {
		dist = make([]int32, NumCells)
	}
	both := n == NumCells
	d.queue = d.queue[:0]
	for idx := range dist {
		dist[idx] = -1
		if idx < n && pass[idx] && goal(idx) && (block == nil || !block[idx]) {
			dist[idx] = 0
			d.queue = append(d.queue, int32(idx))
		}
	}
	nb := neighbours()
	for h := 0; h < len(d.queue); h++ {
		pi := d.queue[h]
		last := LB
		if both && s.Cells[pi].Type == Elevator {
			last = Down
		}
		next := dist[pi] + 1
		for _, ti := range nb[pi][:last+1] {
			if ti < 0 || dist[ti] >= 0 || !pass[ti] {
				continue
			}
			dist[ti] = next
			if block != nil && block[ti] {
				continue
			}
			d.queue = append(d.queue, ti)
		}
	}
	return dist
}

// neighbours is, for every cell and direction Bottom..Down, the index of
// the neighbouring cell, or -1 off the board; built on first use.
var neighbours = sync.OnceValue(func() *[NumCells][Down + 1]int32 {
	var nb [NumCells][Down + 1]int32
	for idx := range nb {
		p := PosOf(idx)
		for dir := Bottom; dir <= Down; dir++ {
			nb[idx][dir] = -1
			if t := p.Add(dir); t.OnBoard() {
				nb[idx][dir] = int32(t.Index())
			}
		}
	}
	return &nb
})
