package moria

import "fmt"

// DummyClone plays as the course's Dummy player (draft).
type DummyClone struct {
	me      int
	rng     Rand
	dist    [NumCells]int32
	wdist   [NumCells]int32
	q       []int32
	claimed [NumCells]bool

	digTarget   map[int]int // dwarf id -> rock cell it digs
	prevDwarves []int
	first       bool

	Dbg    map[int]int64        // TEMP: generator state before each unit
	Why    map[int]string       // TEMP
	Oracle func(id int) Dir     // TEMP
	Note   func(string, ...any) // TEMP
}

var BalR = -1
var scanOrder = [8]Dir{0, 2, 4, 6, 1, 3, 5, 7}
var BalM = 4
var WizAvoid = 0

func init() { RegisterBot("DummyClone", NewDummyClone) }

// NewDummyClone returns the Dummy clone for seat me of a game with the
// given seed.
func NewDummyClone(me, seed int) Bot {
	d := &DummyClone{me: me, digTarget: map[int]int{}, first: true}
	d.rng.Seed(seed + me + 1)
	return d
}

// Play gives one command for every unit of the player: dwarves, then
// wizards, in increasing id order.
func (d *DummyClone) Play(s *State, o *Orders) {
	d.goalField(s)
	d.claimed = [NumCells]bool{}
	d.Dbg = map[int]int64{}
	d.Why = map[int]string{}
	for _, id := range s.Dwarves[d.me] {
		d.Dbg[id] = d.rng.State()
		u := &s.Units[id]
		dir := d.dwarf(s, u)
		if dir == None {
			continue
		}
		t := u.Pos.Add(dir)
		if d.claimed[t.Index()] {
			continue
		}
		if id := s.Cell(t).ID; id >= 0 && s.Units[id].Player == d.me {
			continue
		}
		d.claimed[t.Index()] = true
		o.Command(id, dir)
	}
	for _, id := range s.Wizards[d.me] {
		d.Dbg[id] = d.rng.State()
		u := &s.Units[id]
		dir := d.wizard(s, u)
		if dir == None {
			continue
		}
		t := u.Pos.Add(dir)
		if t.OnBoard() {
			if d.claimed[t.Index()] {
				continue
			}
			if id := s.Cell(t).ID; id >= 0 && s.Units[id].Player == d.me {
				continue
			}
			d.claimed[t.Index()] = true
		}
		o.Command(id, dir)
	}
}

func (d *DummyClone) dwarf(s *State, u *Unit) Dir {
	var c [8]Dir
	n := 0
	for k := Dir(0); k < 8; k++ {
		q := u.Pos.Add(k)
		if q.OnBoard() && s.Cell(q).Treasure && s.Cell(q).ID < 0 {
			c[n] = k
			n++
		}
	}
	if n > 0 && (TreasureAlways || !d.unitNear(s, u.Pos, 5)) {
		d.Why[u.ID] = fmt.Sprintf("treasure %v", c[:n])
		return c[d.rng.Int(0, n-1)]
	}
	n = 0
	for k := Dir(0); k < 8; k++ {
		q := u.Pos.Add(k)
		if !q.OnBoard() {
			continue
		}
		if id := s.Cell(q).ID; id >= 0 {
			v := &s.Units[id]
			if v.Player != d.me && v.Type != Balrog {
				c[n] = k
				n++
			}
		}
	}
	if n > 0 {
		return c[d.rng.Int(0, n-1)]
	}
	if Manh(u.Pos, s.Balrog().Pos) <= BalM {
		return d.flee(s, u, 1)
	}
	if !d.unitNear(s, u.Pos, 5) {
		least := 1 << 30
		for k := Dir(0); k < 8; k++ {
			q := u.Pos.Add(k)
			if !q.OnBoard() || s.Cell(q).Type != Rock {
				continue
			}
			t := int(s.Cell(q).Turns)
			if t < least {
				least, n = t, 0
			}
			if t == least {
				c[n] = k
				n++
			}
		}
		if n > 0 {
			d.Why[u.ID] = fmt.Sprintf("dig %v", c[:n])
			return c[d.rng.Int(0, n-1)]
		}
	}
	cur := int32(1 << 30)
	for k := Dir(0); k < 8; k++ {
		q := u.Pos.Add(k)
		if !q.OnBoard() || s.Cell(q).ID >= 0 {
			continue
		}
		if x := d.dist[q.Index()]; x >= 0 && x < cur {
			cur = x
		}
	}
	for k := Dir(0); k < 8; k++ {
		q := u.Pos.Add(k)
		if !q.OnBoard() || s.Cell(q).ID >= 0 {
			continue
		}
		if x := d.dist[q.Index()]; x == cur {
			c[n] = k
			n++
		}
	}
	if n > 0 {
		return c[d.rng.Int(0, n-1)]
	}
	if NoGoalFlee {
		b := s.Balrog().Pos
		for k := Dir(0); k < 8; k++ {
			q := u.Pos.Add(k)
			if !q.OnBoard() {
				continue
			}
			if t := s.Cell(q).Type; t != Cave && t != Outside {
				continue
			}
			if !NGOcc && s.Cell(q).ID >= 0 {
				continue
			}
			if !NGZone && Manh(q, b) <= BalM {
				continue
			}
			c[n] = k
			n++
		}
		d.Why[u.ID] = fmt.Sprintf("nogoal %v", c[:n])
		if n == 0 {
			return None
		}
		k := c[d.rng.Int(0, n-1)]
		if Manh(u.Pos.Add(k), b) <= BalM {
			return None
		}
		return k
	}
	return None
}

// danger reports whether a unit at p could be hit by an adjacent
// enemy: another clan's dwarf, an orc, a troll or the Balrog.
func (d *DummyClone) danger(s *State, p Pos) bool {
	for k := Dir(0); k < 8; k++ {
		q := p.Add(k)
		if !q.OnBoard() {
			continue
		}
		if id := s.Cell(q).ID; id >= 0 {
			v := &s.Units[id]
			if v.Player != d.me && v.Type != Wizard {
				return true
			}
		}
	}
	return false
}

func (d *DummyClone) wizard(s *State, u *Unit) Dir {
	var c [12]Dir
	n := 0
	var en [8]Dir
	ne := 0
	for _, k := range scanOrder {
		q := u.Pos.Add(k)
		if !q.OnBoard() {
			continue
		}
		if id := s.Cell(q).ID; id >= 0 && s.Units[id].Player != d.me {
			en[ne] = k
			ne++
		}
	}
	if ne > 0 {
		var f [16]Dir
		nf := 0
		for _, e := range en[:ne] {
			o := (e + 4) % 8
			if o%2 == 0 {
				f[nf] = o
				nf++
			} else {
				f[nf], f[nf+1] = (o+7)%8, (o+1)%8
				nf += 2
			}
		}
		d.Why[u.ID] = fmt.Sprintf("wflee-enemy %v cands %v", en[:ne], f[:nf])
		return f[d.rng.Int(0, nf-1)]
	}
	if Manh(u.Pos, s.Balrog().Pos) <= BalM {
		return d.flee(s, u, 2)
	}
	d.wizardField(s, u.Pos)
	atSpot := false
	for k := Dir(0); k < 8; k += 2 {
		if q := u.Pos.Add(k); q.OnBoard() && d.wdist[q.Index()] == 0 {
			atSpot = true
		}
	}
	if atSpot {
		for pass := int32(0); pass < 2; pass++ {
			for k := Dir(0); k < 8; k += 2 {
				q := u.Pos.Add(k)
				if !q.OnBoard() || d.wdist[q.Index()] != pass {
					continue
				}
				if pass == 0 && OneD && n > 0 {
					continue
				}
				if pass == 1 && SpotFreeOnly && s.Cell(q).ID >= 0 {
					continue
				}
				c[n] = k
				n++
			}
		}
		d.Why[u.ID] = fmt.Sprintf("spot cands %v", c[:n])
		if n == 0 {
			return None
		}
		return c[d.rng.Int(0, n-1)]
	}
	cur := int32(1 << 30)
	for k := Dir(0); k < 8; k += 2 {
		q := u.Pos.Add(k)
		if !q.OnBoard() {
			continue
		}
		if x := d.wdist[q.Index()]; x >= 0 && x < cur {
			cur = x
		}
	}
	if cur == 1<<30 && (WNG == 2 || WNG == 3 || WNG == 4) {
		b := s.Balrog().Pos
		for k := Dir(0); k < 8; k += 2 {
			q := u.Pos.Add(k)
			if !q.OnBoard() {
				continue
			}
			t := s.Cell(q).Type
			if WNG == 2 && t != Cave && t != Outside {
				continue
			}
			if WNG == 4 && (t != Cave && t != Outside || Manh(q, b) <= BalM) {
				continue
			}
			c[n] = k
			n++
		}
		d.Why[u.ID] = fmt.Sprintf("wbfs none %v", c[:n])
		if n == 0 {
			return None
		}
		k := c[d.rng.Int(0, n-1)]
		q := u.Pos.Add(k)
		if t := s.Cell(q).Type; s.Cell(q).ID >= 0 || Manh(q, b) <= BalM || (t != Cave && t != Outside) {
			return None
		}
		return k
	}
	if cur == 1<<30 && WNG == 1 {
		k := Dir(2 * d.rng.Int(0, 3))
		d.Why[u.ID] = fmt.Sprintf("wbfs none random %v", k)
		q := u.Pos.Add(k)
		if q.OnBoard() && (s.Cell(q).ID >= 0 || Manh(q, s.Balrog().Pos) <= BalM) {
			return None
		}
		return k
	}
	if cur == 1<<30 {
		b := s.Balrog().Pos
		for k := Dir(0); k < 8; k += 2 {
			q := u.Pos.Add(k)
			if !q.OnBoard() || s.Cell(q).ID >= 0 || Manh(q, b) <= BalM {
				continue
			}
			if t := s.Cell(q).Type; t != Cave && t != Outside {
				continue
			}
			c[n] = k
			n++
		}
		d.Why[u.ID] = fmt.Sprintf("wbfs none %v", c[:n])
		if n == 0 {
			return None
		}
		return c[d.rng.Int(0, n-1)]
	}
	free := false
	for k := Dir(0); k < 8; k += 2 {
		q := u.Pos.Add(k)
		if q.OnBoard() && d.wdist[q.Index()] == cur && s.Cell(q).ID < 0 {
			free = true
		}
	}
	for k := Dir(0); k < 8; k += 2 {
		q := u.Pos.Add(k)
		if q.OnBoard() && d.wdist[q.Index()] == cur && (!free || s.Cell(q).ID < 0) {
			c[n] = k
			n++
		}
	}
	if !free && NextLevel {
		for k := Dir(0); k < 8; k += 2 {
			q := u.Pos.Add(k)
			if q.OnBoard() && d.wdist[q.Index()] == cur+1 {
				c[n] = k
				n++
			}
		}
	}
	d.Why[u.ID] = fmt.Sprintf("wbfs cur %d cands %v", cur, c[:n])
	return c[d.rng.Int(0, n-1)]
}

// goalField: steps from each cell to the nearest cave the player does not
// own, through caves and outside cells, 8-connected.
func (d *DummyClone) goalField(s *State) {
	q := d.q[:0]
	b := s.Balrog().Pos
	for i := range d.dist {
		d.dist[i] = -1
		if Manh(PosOf(i), b) <= BalM {
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
			if t := s.Cells[ri].Type; d.dist[ri] >= 0 || (t != Cave && t != Outside) {
				continue
			}
			if Manh(r, b) <= BalM {
				continue
			}
			d.dist[ri] = d.dist[q[h]] + 1
			q = append(q, int32(ri))
		}
	}
	d.q = q
}

// wizardField: orthogonal steps from each cell to the nearest own dwarf
// (except those orthogonally next to w) through caves and outside cells.
func (d *DummyClone) wizardField(s *State, w Pos) {
	q := d.q[:0]
	for i := range d.wdist {
		d.wdist[i] = -1
	}
	for _, id := range s.Dwarves[d.me] {
		p := s.Units[id].Pos
		if ExclAdj && Manh(p, w) == 1 {
			continue
		}
		if WSrcZone && Manh(p, s.Balrog().Pos) <= BalM {
			continue
		}
		i := p.Index()
		d.wdist[i] = 0
		q = append(q, int32(i))
	}
	for h := 0; h < len(q); h++ {
		p := PosOf(int(q[h]))
		if M3 && d.wdist[q[h]] > 0 && s.Cells[q[h]].ID >= 0 {
			continue // a held cell gets a distance but leads nowhere
		}
		for k := Dir(0); k < 8; k += 2 {
			r := p.Add(k)
			if !r.OnBoard() {
				continue
			}
			ri := r.Index()
			if t := s.Cells[ri].Type; d.wdist[ri] >= 0 || (t != Cave && t != Outside) {
				continue
			}
			if Manh(r, s.Balrog().Pos) <= BalM {
				continue
			}
			if id := s.Cells[ri].ID; WBlock && id >= 0 && d.blocks(s, &s.Units[id]) {
				continue
			}
			d.wdist[ri] = d.wdist[q[h]] + 1
			q = append(q, int32(ri))
		}
	}
	d.q = q
}

// flee moves u to a free cave or outside neighbour (every step-th
// direction) as far (Manhattan) from the Balrog as possible.
func (d *DummyClone) flee(s *State, u *Unit, step Dir) Dir { return d.fleeM(s, u, step, false) }

func (d *DummyClone) fleeM(s *State, u *Unit, step Dir, cheb bool) Dir {
	var c [8]Dir
	n := 0
	b := s.Balrog().Pos
	best := -1
	for k := Dir(0); k < 8; k += step {
		q := u.Pos.Add(k)
		if !q.OnBoard() || s.Cell(q).ID >= 0 {
			continue
		}
		if t := s.Cell(q).Type; t != Cave && t != Outside {
			continue
		}
		m := Manh(q, b)
		if cheb {
			m = Cheb(q, b)
		}
		if m > best {
			best, n = m, 0
		}
		if m == best {
			c[n] = k
			n++
		}
	}
	d.Why[u.ID] = fmt.Sprintf("flee-balrog cands %v", c[:n])
	if n > 0 {
		return c[d.rng.Int(0, n-1)]
	}
	return None
}

// nearEnemy reports whether a unit of another clan or of Sauron is next to p.
func (d *DummyClone) nearEnemy(s *State, p Pos) bool {
	for k := Dir(0); k < 8; k++ {
		q := p.Add(k)
		if !q.OnBoard() {
			continue
		}
		if id := s.Cell(q).ID; id >= 0 {
			v := &s.Units[id]
			if v.Player != d.me && (WizAvoid == 1 || v.Type != Wizard) {
				return true
			}
		}
	}
	return false
}

// DbgDist TEMP
func (d *DummyClone) DbgDist(p Pos) (int32, int32) {
	if !p.OnBoard() {
		return -9, -9
	}
	return d.dist[p.Index()], d.wdist[p.Index()]
}

var ServStep = Dir(2)
var Served = false
var FleeEnemy = false
var OrthDraw = true
var FleeWalk = false
var DigDraw = true
var Injured = false
var Stale = false
var ExclAdj = false
var WSrcZone = true
var WBlock = false
var SpotFree = true
var SpotK = 4
var SpotV = 1

// served reports whether an own wizard stands next to p.
func (d *DummyClone) served(s *State, p Pos) bool {
	for k := Dir(0); k < 8; k += ServStep {
		q := p.Add(k)
		if !q.OnBoard() {
			continue
		}
		if id := s.Cell(q).ID; id >= 0 {
			v := &s.Units[id]
			if v.Player == d.me && v.Type == Wizard {
				return true
			}
		}
	}
	return false
}

// adjEnemy returns the position of the first unit next to p (directions
// in order) that could hit a wizard.
func (d *DummyClone) adjEnemy(s *State, p Pos) (Dir, bool) {
	for k := Dir(0); k < 8; k++ {
		q := p.Add(k)
		if !q.OnBoard() {
			continue
		}
		if id := s.Cell(q).ID; id >= 0 {
			v := &s.Units[id]
			if v.Player != d.me && v.Type != Wizard {
				return k, true
			}
		}
	}
	return None, false
}

// spot reports whether p is orthogonally next to a dwarf of the player.
func (d *DummyClone) spot(s *State, p Pos) bool {
	for k := Dir(0); k < 8; k += 2 {
		q := p.Add(k)
		if !q.OnBoard() {
			continue
		}
		if id := s.Cell(q).ID; id >= 0 {
			v := &s.Units[id]
			if v.Player == d.me && v.Type == Dwarf {
				return true
			}
		}
	}
	return false
}

// TryUnit TEMP: the decision for unit id with the generator in state st.
func (d *DummyClone) TryUnit(s *State, id int, st int64) Dir {
	save := d.rng.State()
	dig := map[int]int{}
	for k, v := range d.digTarget {
		dig[k] = v
	}
	why := d.Why
	d.Why = map[int]string{}
	d.rng.SetState(st)
	var r Dir
	if s.Units[id].Type == Dwarf {
		d.goalField(s)
		r = d.dwarf(s, &s.Units[id])
	} else {
		r = d.wizard(s, &s.Units[id])
	}
	d.rng.SetState(save)
	d.digTarget = dig
	d.Why = why
	return r
}

// unitNear reports whether a unit of another clan or of Sauron (the
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

var BlockMode = 3

func (d *DummyClone) blocks(s *State, v *Unit) bool {
	switch BlockMode {
	case 0:
		return v.Player == d.me && v.Type == Wizard
	case 1:
		return v.Player == d.me
	case 2:
		return v.Type != Dwarf
	case 3:
		return v.Type == Wizard
	}
	return true
}

var CandMode = 2
var SpotFreeOnly = true
var OneD = true
var CurAll = true
var SkipDraw = true
var TreasureAlways = true
var M3 = false
var NextLevel = true
var NoGoalFlee = true
var NGOcc = false
var NGZone = false
var WNG = 2
var NoGoalCheb = true

func (d *DummyClone) candBlocked(s *State, q Pos) bool {
	id := s.Cell(q).ID
	if id < 0 {
		return false
	}
	switch CandMode {
	case 0:
		return false
	case 1:
		return s.Units[id].Player == d.me
	}
	return true
}
