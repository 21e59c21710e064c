package moria

// DummyClone plays as the course's Dummy player. Dummy is distributed only
// as a compiled object; its rules below were read off recorded games of
// four Dummies (the course engine's traces and the commands every player
// issued). DummyClone issues Dummy's command lists in every round of all
// 100 of those games and of the 12 reference games with a Dummy seat, and
// four DummyClones play the seeds of the 100 games byte for byte
// (TestDummyCloneAgreement, TestDummyCloneTraces; docs/rules/moria.md).
//
// Like Demo, Dummy draws from its own generator seeded with seed+me+1.
// The "zone" is the set of cells within Manhattan distance 4 of the
// Balrog; a "free" cell holds no unit; "walkable" is CAVE or OUTSIDE; a
// "goal" is a cave cell outside the zone that the player does not own.
// Every round it decides for its dwarves, then its wizards, each in
// increasing id order. It skips a unit's command (after its draws) when
// the decided cell is held by one of its units or was already the target
// of an earlier command this round, and when the decision is to stay.
//
// A dwarf u, with R(n) a uniform draw among n candidates:
//
//  1. moves to an adjacent free treasure cell (R among them);
//  2. else attacks an adjacent unit of another player or of Sauron other
//     than the Balrog (R among them);
//  3. else, inside the zone, flees: R among the free walkable neighbours
//     farthest (Manhattan) from the Balrog, staying if there are none;
//  4. else, if no unit of another player or of Sauron is within Chebyshev
//     distance 5, digs: R among the rock neighbours with the fewest turns
//     left (if there are any);
//  5. else steps towards the nearest goal (8-connected walks through
//     walkable cells outside the zone): R among the free neighbours at the
//     least distance;
//  6. else (no goal reachable) R among the free walkable neighbours
//     outside the zone, staying if there are none.
//
// A wizard u (orthogonal moves only):
//
//  1. if units of another player or of Sauron are adjacent (scanned
//     orthogonal directions first), collects for each the direction away
//     from it (for a diagonal neighbour, the two orthogonal directions
//     beside the opposite one) and moves in R among them, even off the
//     board or into rock;
//  2. else, inside the zone, flees as a dwarf does, orthogonally;
//  3. else measures orthogonal walks through walkable cells outside the
//     zone from its dwarves outside the zone. Beside such a dwarf, it draws
//     among the first dwarf beside it (a draw that keeps it in place) and
//     the free neighbours one step from a dwarf;
//  4. with no dwarf reachable, it draws among staying and its free
//     walkable neighbours outside the zone;
//  5. else it steps towards the nearest dwarf: R among the free neighbours
//     at the least distance; if all those are held, among the first of
//     them (a draw that keeps it in place) and the free neighbours one
//     step farther.
//
// DummyClone draws exactly as Dummy does, so a game with DummyClones in
// the Dummy seats is, as far as these games show, the game the course
// engine plays with Dummy.
type DummyClone struct {
	me      int
	rng     Rand
	dist    [NumCells]int32 // dwarves: steps to the nearest goal, -1 if none
	wdist   [NumCells]int32 // wizards: orthogonal steps to a dwarf, -1 if none
	queue   []int32
	claimed [NumCells]bool // cells targeted by this round's commands
}

// zoneRadius is the Manhattan radius around the Balrog that Dummy's units
// avoid.
const zoneRadius = 4

// nearRadius is the Chebyshev radius within which a unit of another player
// or of Sauron stops a dwarf from digging.
const nearRadius = 5

func init() { RegisterBot("DummyClone", NewDummyClone) }

// NewDummyClone returns the Dummy clone for seat me of a game with the
// given seed.
func NewDummyClone(me, seed int) Bot {
	d := &DummyClone{me: me}
	d.rng.Seed(seed + me + 1)
	return d
}

// Play commands the player's dwarves, then its wizards, in increasing id
// order.
func (d *DummyClone) Play(s *State, o *Orders) {
	d.goalField(s)
	d.claimed = [NumCells]bool{}
	for _, id := range s.Dwarves[d.me] {
		d.command(s, o, id, d.dwarf(s, &s.Units[id]))
	}
	for _, id := range s.Wizards[d.me] {
		d.command(s, o, id, d.wizard(s, &s.Units[id]))
	}
}

// command issues unit id's move dir unless it stays, or its target cell
// is held by an own unit or already targeted this round.
func (d *DummyClone) command(s *State, o *Orders, id int, dir Dir) {
	if dir == None {
		return
	}
	t := s.Units[id].Pos.Add(dir)
	if t.OnBoard() {
		if d.claimed[t.Index()] {
			return
		}
		if v := s.Cell(t).ID; v >= 0 && s.Units[v].Player == d.me {
			return
		}
		d.claimed[t.Index()] = true
	}
	o.Command(id, dir)
}

// draw returns one of c, drawn uniformly, or None if c is empty (without
// drawing).
func (d *DummyClone) draw(c []Dir) Dir {
	if len(c) == 0 {
		return None
	}
	return c[d.rng.Int(0, len(c)-1)]
}

func inZone(s *State, p Pos) bool { return Manh(p, s.Balrog().Pos) <= zoneRadius }

func walkable(c *Cell) bool { return c.Type == Cave || c.Type == Outside }

func (d *DummyClone) dwarf(s *State, u *Unit) Dir {
	var buf [8]Dir
	c := buf[:0]
	for k := Dir(0); k < 8; k++ {
		if q := u.Pos.Add(k); q.OnBoard() && s.Cell(q).Treasure && s.Cell(q).ID < 0 {
			c = append(c, k)
		}
	}
	if len(c) > 0 {
		return d.draw(c)
	}
	for k := Dir(0); k < 8; k++ {
		q := u.Pos.Add(k)
		if !q.OnBoard() {
			continue
		}
		if id := s.Cell(q).ID; id >= 0 && s.Units[id].Player != d.me && s.Units[id].Type != Balrog {
			c = append(c, k)
		}
	}
	if len(c) > 0 {
		return d.draw(c)
	}
	if inZone(s, u.Pos) {
		return d.flee(s, u, 1)
	}
	if !d.unitNear(s, u.Pos, nearRadius) {
		least := 1 << 30
		for k := Dir(0); k < 8; k++ {
			q := u.Pos.Add(k)
			if !q.OnBoard() || s.Cell(q).Type != Rock {
				continue
			}
			if t := int(s.Cell(q).Turns); t < least {
				least, c = t, c[:0]
			}
			if int(s.Cell(q).Turns) == least {
				c = append(c, k)
			}
		}
		if len(c) > 0 {
			return d.draw(c)
		}
	}
	cur := int32(1 << 30)
	for k := Dir(0); k < 8; k++ {
		if q := u.Pos.Add(k); q.OnBoard() && s.Cell(q).ID < 0 {
			if x := d.dist[q.Index()]; x >= 0 && x < cur {
				cur = x
			}
		}
	}
	for k := Dir(0); k < 8; k++ {
		if q := u.Pos.Add(k); q.OnBoard() && s.Cell(q).ID < 0 && d.dist[q.Index()] == cur {
			c = append(c, k)
		}
	}
	if len(c) > 0 {
		return d.draw(c)
	}
	for k := Dir(0); k < 8; k++ {
		if q := u.Pos.Add(k); q.OnBoard() && walkable(s.Cell(q)) && s.Cell(q).ID < 0 && !inZone(s, q) {
			c = append(c, k)
		}
	}
	return d.draw(c)
}

// orth are the orthogonal directions, in the order a wizard scans its
// neighbours first.
var orth = [4]Dir{Bottom, Right, Top, Left}

func (d *DummyClone) wizard(s *State, u *Unit) Dir {
	var buf [16]Dir
	c := buf[:0]
	for _, k := range [8]Dir{Bottom, Right, Top, Left, BR, RT, TL, LB} {
		q := u.Pos.Add(k)
		if !q.OnBoard() {
			continue
		}
		if id := s.Cell(q).ID; id >= 0 && s.Units[id].Player != d.me {
			if away := (k + 4) % 8; away%2 == 0 {
				c = append(c, away)
			} else {
				c = append(c, (away+7)%8, (away+1)%8)
			}
		}
	}
	if len(c) > 0 {
		return d.draw(c)
	}
	if inZone(s, u.Pos) {
		return d.flee(s, u, 2)
	}
	d.wizardField(s)
	for _, k := range orth {
		if q := u.Pos.Add(k); q.OnBoard() && d.wdist[q.Index()] == 0 {
			c = append(c, k)
			break
		}
	}
	if len(c) > 0 {
		for _, k := range orth {
			if q := u.Pos.Add(k); q.OnBoard() && d.wdist[q.Index()] == 1 && s.Cell(q).ID < 0 {
				c = append(c, k)
			}
		}
		return d.draw(c)
	}
	cur := int32(1 << 30)
	for _, k := range orth {
		if q := u.Pos.Add(k); q.OnBoard() {
			if x := d.wdist[q.Index()]; x >= 0 && x < cur {
				cur = x
			}
		}
	}
	if cur == 1<<30 {
		c = append(c, None)
		for _, k := range orth {
			if q := u.Pos.Add(k); q.OnBoard() && walkable(s.Cell(q)) && s.Cell(q).ID < 0 && !inZone(s, q) {
				c = append(c, k)
			}
		}
		return d.draw(c)
	}
	free := false
	for _, k := range orth {
		if q := u.Pos.Add(k); q.OnBoard() && d.wdist[q.Index()] == cur && s.Cell(q).ID < 0 {
			free = true
		}
	}
	for _, k := range orth {
		if q := u.Pos.Add(k); q.OnBoard() && d.wdist[q.Index()] == cur && (!free || s.Cell(q).ID < 0) {
			c = append(c, k)
			if !free {
				break // only the first held one
			}
		}
	}
	if !free {
		for _, k := range orth {
			if q := u.Pos.Add(k); q.OnBoard() && d.wdist[q.Index()] == cur+1 && s.Cell(q).ID < 0 {
				c = append(c, k)
			}
		}
	}
	return d.draw(c)
}

// goalField sets dist: 8-connected steps from each cell to the nearest
// goal through walkable cells outside the zone.
func (d *DummyClone) goalField(s *State) {
	q := d.queue[:0]
	for i := range d.dist {
		d.dist[i] = -1
		if inZone(s, PosOf(i)) {
			continue
		}
		if c := &s.Cells[i]; c.Type == Cave && int(c.Owner) != d.me {
			d.dist[i] = 0
			q = append(q, int32(i))
		}
	}
	for h := 0; h < len(q); h++ {
		p := PosOf(int(q[h]))
		for k := Dir(0); k < 8; k++ {
			r := p.Add(k)
			if !r.OnBoard() {
				continue
			}
			ri := r.Index()
			if d.dist[ri] >= 0 || !walkable(&s.Cells[ri]) || inZone(s, r) {
				continue
			}
			d.dist[ri] = d.dist[q[h]] + 1
			q = append(q, int32(ri))
		}
	}
	d.queue = q
}

// wizardField sets wdist: orthogonal steps from each cell to the nearest
// dwarf of the player outside the zone, through walkable cells outside the
// zone.
func (d *DummyClone) wizardField(s *State) {
	q := d.queue[:0]
	for i := range d.wdist {
		d.wdist[i] = -1
	}
	for _, id := range s.Dwarves[d.me] {
		p := s.Units[id].Pos
		if inZone(s, p) {
			continue
		}
		d.wdist[p.Index()] = 0
		q = append(q, int32(p.Index()))
	}
	for h := 0; h < len(q); h++ {
		p := PosOf(int(q[h]))
		for _, k := range orth {
			r := p.Add(k)
			if !r.OnBoard() {
				continue
			}
			ri := r.Index()
			if d.wdist[ri] >= 0 || !walkable(&s.Cells[ri]) || inZone(s, r) {
				continue
			}
			d.wdist[ri] = d.wdist[q[h]] + 1
			q = append(q, int32(ri))
		}
	}
	d.queue = q
}

// flee returns a move of u (every step-th direction) to a free walkable
// neighbour as far (Manhattan) from the Balrog as possible, drawn among
// the farthest, or None if there is none.
func (d *DummyClone) flee(s *State, u *Unit, step Dir) Dir {
	var buf [8]Dir
	c := buf[:0]
	b := s.Balrog().Pos
	best := -1
	for k := Dir(0); k < 8; k += step {
		q := u.Pos.Add(k)
		if !q.OnBoard() || s.Cell(q).ID >= 0 || !walkable(s.Cell(q)) {
			continue
		}
		if m := Manh(q, b); m > best {
			best, c = m, c[:0]
		}
		if Manh(q, b) == best {
			c = append(c, k)
		}
	}
	return d.draw(c)
}

// unitNear reports whether a unit of another player or of Sauron (the
// Balrog included) is within Chebyshev distance r of p.
func (d *DummyClone) unitNear(s *State, p Pos, r int) bool {
	for i := max(p.I-r, 0); i <= min(p.I+r, Rows-1); i++ {
		for j := max(p.J-r, 0); j <= min(p.J+r, Cols-1); j++ {
			if id := s.Cells[i*Cols+j].ID; id >= 0 && s.Units[id].Player != d.me {
				return true
			}
		}
	}
	return false
}
