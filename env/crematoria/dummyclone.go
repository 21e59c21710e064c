package crematoria

import "fmt"

// DummyClone plays as the course's Dummy player (draft under study).
type DummyClone struct {
	me        int
	rng       Rand
	fdist     []int32
	pdist     []int32
	gdist     []int32
	hdist     []int32
	edist     []int32
	p0dist    []int32
	queue     []int32
	four      bool
	prevH     []Pos
	studyPrev []Pos
	hprev     []int32
	taken     map[int]bool
	// Trace, when set, receives one line per decision (study only).
	Trace func(id int, what string)
}

func init() { RegisterBot("DummyClone", NewDummyClone) }

// NewDummyClone returns the Dummy clone for seat me of a game with the
// given seed.
func NewDummyClone(me, seed int) Bot {
	d := &DummyClone{me: me}
	d.rng.Seed(seed + me + 1)
	return d
}

// Study knobs.
var (
	StudyPct    = 35
	StudyHound  = 4
	StudyAvoid  = 4
	StudyGemK   = 9
	StudyDay    = true
	StudyFlags  = 12368325
	StudyPBlock = 7
	StudyHBlock = 0
	StudyOut    = 2
)

// Rng exposes the generator (study only).
func (d *DummyClone) Rng() *Rand { return &d.rng }

// Play gives the orders of one round.
func (d *DummyClone) Play(s *State, o *Orders) {
	d.Prepare(s)
	for _, id := range d.Order(s) {
		if dir, ok := d.Decide(s, &s.Units[id]); ok {
			d.Issue(o, &s.Units[id], dir)
		}
	}
}

// Order is the order in which units are decided (study).
func (d *DummyClone) Order(s *State) []int {
	return append(append([]int(nil), s.Furyans[d.me]...), s.Pioneers[d.me]...)
}

// Taken exposes the taken set (study).
func (d *DummyClone) Taken() map[int]bool { return d.taken }

func (d *DummyClone) unitAt(s *State, idx int) *Unit {
	if v := s.Cells[idx].ID; v >= 0 {
		return &s.Units[v]
	}
	return nil
}

// Prepare computes the round's fields (study).
func (d *DummyClone) Prepare(s *State) {
	d.taken = map[int]bool{}
	for _, id := range d.Order(s) {
		d.taken[s.Units[id].Pos.Index()] = true
	}
	rock := func(idx int) bool { return s.Cells[idx].Type != Rock }
	walk := func(idx int) bool {
		if s.Cells[idx].Type == Rock {
			return false
		}
		return !StudyDay || idx < LevelCells || !Daylight(PosOf(idx), s.Round)
	}
	var hb func(int) bool
	switch StudyHBlock {
	case 1:
		hb = func(idx int) bool { u := d.unitAt(s, idx); return u != nil && u.Type != Hellhound }
	case 2:
		hb = func(idx int) bool { return s.Cells[idx].Type == Elevator }
	}
	hpass := rock
	if StudyHBlock == 3 {
		hpass = func(idx int) bool { return s.Cells[idx].Type == Cave }
	}
	d.four = StudyHBlock == 4
	d.hdist = d.field(s, d.hdist, func(idx int) bool {
		u := d.unitAt(s, idx)
		return u != nil && u.Type == Hellhound
	}, hpass, false, hb)
	d.four = false
	var prev []Pos
	for _, h := range s.Hellhounds {
		prev = append(prev, s.Units[h].Pos)
	}
	if d.prevH == nil {
		d.prevH = prev
	}
	d.studyPrev = append(d.studyPrev[:0], d.prevH...)
	old := map[int]bool{}
	for k, p := range d.prevH {
		if StudyFlags&16384 != 0 {
			c := prev[k]
			q := Pos{2*c.I - p.I, c.J, 0}
			dj := c.J - p.J
			if dj > 1 {
				dj -= Cols
			} else if dj < -1 {
				dj += Cols
			}
			q.J = (c.J + dj + Cols) % Cols
			if !q.OnBoard() {
				q = c
			}
			old[q.Index()] = true
			continue
		}
		old[p.Index()] = true
	}
	d.hprev = d.field(s, d.hprev, func(idx int) bool { return old[idx] }, func(int) bool { return true }, false, nil)
	d.prevH = prev
	if StudyFlags&4096 != 0 {
		fw := walk
		if StudyFlags&(1<<20) != 0 {
			fw = rock
		}
		d.fdist = d.field(s, d.fdist, func(idx int) bool {
			u := d.unitAt(s, idx)
			return u != nil && u.Type == Pioneer && u.Player != d.me
		}, fw, true, nil)
	} else {
		d.fdist = d.field(s, d.fdist, func(idx int) bool {
			u := d.unitAt(s, idx)
			return u != nil && u.Type == Pioneer && u.Player != d.me
		}, rock, false, nil)
	}
	occ := func(idx int) bool { return s.Cells[idx].ID >= 0 }
	var pb, gb func(int) bool
	switch StudyPBlock {
	case 1:
		pb = occ
	case 3:
		pb = func(idx int) bool { u := d.unitAt(s, idx); return u != nil && u.Player != d.me }
	case 4:
		pb = func(idx int) bool { u := d.unitAt(s, idx); return u != nil && u.Player == d.me }
	case 5:
		pb = func(idx int) bool { u := d.unitAt(s, idx); return u != nil && u.Player != d.me && u.Type != Pioneer }
	}
	if StudyFlags&2 != 0 {
		gb = occ
	}
	dang := func(idx int) bool {
		if idx >= LevelCells {
			return false
		}
		h := d.hdist[idx]
		return h >= 0 && int(h) <= StudyAvoid
	}
	ppass := walk
	if StudyFlags&(1<<21) != 0 {
		ppass = rock
	}
	switch StudyPBlock {
	case 6: // dangerous cells are neither goals nor passable
		ppass = func(idx int) bool { return walk(idx) && !dang(idx) }
	case 7: // dangerous cells may be goals but are not passed through
		pb = dang
	}
	d.pdist = d.field(s, d.pdist, func(idx int) bool {
		c := &s.Cells[idx]
		if StudyPBlock == 2 && c.ID >= 0 {
			return false
		}
		return c.Type == Cave && int(c.Owner) != d.me
	}, ppass, true, pb)
	if StudyFlags&65536 != 0 {
		gb = dang
	}
	switch StudyOut {
	case 1:
		d.edist = d.field(s, d.edist, func(idx int) bool { return idx < LevelCells && s.Cells[idx].Type == Elevator }, walk, true, nil)
	case 2:
		d.edist = d.field(s, d.edist, func(idx int) bool { return idx < LevelCells && s.Cells[idx].Type == Elevator }, rock, true, nil)
	}
	if StudyFlags&(1<<23) != 0 {
		d.p0dist = d.field(s, d.p0dist, func(idx int) bool {
			c := &s.Cells[idx]
			return c.Type == Cave && int(c.Owner) != d.me
		}, rock, true, nil)
	}
	gw := walk
	if StudyFlags&(1<<22) != 0 {
		gw = rock
	}
	d.gdist = d.field(s, d.gdist, func(idx int) bool { return s.Cells[idx].Gem }, gw, true, gb)
}

// Decide is the decision for one unit (study).
func (d *DummyClone) Decide(s *State, u *Unit) (Dir, bool) {
	if u.Type == Furyan {
		return d.furyan(s, u)
	}
	return d.pioneer(s, u)
}

func (d *DummyClone) note(id int, f string, a ...any) {
	if d.Trace != nil {
		d.Trace(id, fmt.Sprintf(f, a...))
	}
}

// Issue commands u unless its target is taken (study).
func (d *DummyClone) Issue(o *Orders, u *Unit, dir Dir) {
	t := u.Pos.Add(dir)
	key := -1
	if t.OnBoard() {
		key = t.Index()
	}
	if d.taken[key] {
		d.note(u.ID, "taken")
		return
	}
	d.taken[key] = true
	o.Command(u.ID, dir)
}

func (d *DummyClone) draw(id int, l, u int, what string) int {
	r := NewRand(0)
	r.SetState(d.rng.State())
	r.Step()
	r.Step()
	x := d.rng.Int(l, u)
	d.note(id, "%s=%d(%.3f)", what, x, float64(r.State())/(1<<31))
	return x
}

func (d *DummyClone) randomMove(id int) bool { return d.draw(id, 0, 99, "t") < StudyPct }

func (d *DummyClone) furyan(s *State, u *Unit) (Dir, bool) {
	var enemies []Dir
	flast := LB
	if StudyFlags&524288 != 0 {
		flast = Down
	}
	for dir := Bottom; dir <= flast; dir++ {
		if dir >= Up && s.Cells[u.Pos.Index()].Type != Elevator {
			continue
		}
		t := u.Pos.Add(dir)
		if !t.OnBoard() {
			continue
		}
		if w := d.unitAt(s, t.Index()); w != nil && ((w.Type == Pioneer || w.Type == Furyan) && w.Player != d.me || StudyFlags&8192 != 0 && w.Type == Necromonger) {
			enemies = append(enemies, dir)
		}
	}
	if len(enemies) > 0 {
		return enemies[d.draw(u.ID, 0, len(enemies)-1, "attack")], true
	}
	if StudyFlags&8 != 0 {
		if dir, ok := d.fleeHound(s, u); ok {
			return dir, true
		}
	}
	rnd := d.randomMove(u.ID)
	if StudyFlags&16 != 0 {
		if dir, ok := d.fleeHound(s, u); ok {
			return dir, true
		}
	}
	if rnd {
		return Dir(d.draw(u.ID, 0, 7, "rnd")), true
	}
	if StudyFlags&64 != 0 {
		if dir, ok := d.fleeHound(s, u); ok {
			return dir, true
		}
	}
	return d.step(s, u, d.fdist, true, true)
}

func (d *DummyClone) pioneer(s *State, u *Unit) (Dir, bool) {
	var threats []Dir
	last := LB
	if StudyFlags&262144 != 0 {
		last = Down
	}
	for dir := Bottom; dir <= last; dir++ {
		if dir >= Up && s.Cells[u.Pos.Index()].Type != Elevator {
			continue
		}
		t := u.Pos.Add(dir)
		if !t.OnBoard() {
			continue
		}
		if w := d.unitAt(s, t.Index()); w != nil && ((w.Type == Furyan && w.Player != d.me) || w.Type == Necromonger) {
			threats = append(threats, dir)
		}
	}
	if len(threats) > 0 {
		return (threats[d.draw(u.ID, 0, len(threats)-1, "flee")] + 4) % 8, true
	}
	if dir, ok := d.fleeHound(s, u); ok {
		return dir, true
	}
	if d.randomMove(u.ID) {
		return Dir(d.draw(u.ID, 0, 7, "rnd")), true
	}
	if g := d.gdist[u.Pos.Index()]; g >= 0 && int(g) <= StudyGemK {
		d.note(u.ID, "gem d=%d", g)
		return d.step(s, u, d.gdist, StudyFlags&4 == 0, StudyFlags&256 == 0)
	}
	if u.Pos.K == 1 && StudyOut > 0 {
		d.note(u.ID, "out")
		return d.step(s, u, d.edist, true, false)
	}
	if StudyFlags&(1<<23) != 0 && d.pdist[u.Pos.Index()] < 0 {
		d.note(u.ID, "fallback")
		return d.step(s, u, d.p0dist, true, false)
	}
	return d.step(s, u, d.pdist, true, StudyFlags&32768 == 0)
}

func (d *DummyClone) fleeHound(s *State, u *Unit) (Dir, bool) {
	hd := d.hdist
	if StudyFlags&1024 != 0 {
		hd = d.hprev
	}
	here := hd[u.Pos.Index()]
	if u.Pos.K != 0 || here < 0 || int(here) > StudyHound {
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
		x := hd[t.Index()]
		if x > bx {
			bx, best = x, best[:0]
		}
		if x == bx {
			best = append(best, dir)
		}
	}
	if len(best) == 0 {
		d.note(u.ID, "hound-stuck")
		return None, false
	}
	d.note(u.ID, "hound %v", best)
	return best[d.draw(u.ID, 0, len(best)-1, "hidx")], true
}

// step moves u to a free neighbour nearer to the goal, drawn among them.
func (d *DummyClone) step(s *State, u *Unit, dist []int32, free, avoid bool) (Dir, bool) {
	c := d.cands(s, u, dist, free, avoid)
	if d.Trace != nil && avoid {
		if all := d.cands(s, u, dist, free, false); len(all) != len(c) {
			d.note(u.ID, "avoidmatters %v", all)
		}
	}
	if len(c) == 0 {
		d.note(u.ID, "nocand")
		return None, false
	}
	d.note(u.ID, "cands %v", c)
	return c[d.draw(u.ID, 0, len(c)-1, "idx")], true
}

func (d *DummyClone) cands(s *State, u *Unit, dist []int32, free, avoid bool) []Dir {
	var c []Dir
	bx := int32(-1)
	danger := func(t Pos) bool {
		if !avoid || t.K != 0 || !(u.Type == Pioneer || StudyFlags&32 != 0) {
			return false
		}
		hd := d.hdist
		if StudyFlags&512 != 0 {
			hd = d.hprev
		}
		h := hd[t.Index()]
		return h >= 0 && int(h) <= StudyAvoid
	}
	for dir := Bottom; dir <= Down; dir++ {
		if dir >= Up && s.Cells[u.Pos.Index()].Type != Elevator {
			continue
		}
		t := u.Pos.Add(dir)
		if !t.OnBoard() || (free && s.Cells[t.Index()].ID >= 0) {
			continue
		}
		if StudyFlags&2048 == 0 && danger(t) {
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
	if StudyFlags&2048 != 0 {
		var safe []Dir
		for _, dir := range c {
			if !danger(u.Pos.Add(dir)) {
				safe = append(safe, dir)
			}
		}
		if len(safe) > 0 {
			c = safe
		}
	}
	return c
}

// field computes distances to the goal cells through cells where pass
// holds, on level 0 or (threeD) on both levels joined by elevators.
func (d *DummyClone) field(s *State, dist []int32, goal, pass func(idx int) bool, threeD bool, block func(idx int) bool) []int32 {
	if dist == nil {
		dist = make([]int32, NumCells)
	}
	d.queue = d.queue[:0]
	n := LevelCells
	if threeD {
		n = NumCells
	}
	for idx := range dist {
		dist[idx] = -1
		if idx < n && pass(idx) && goal(idx) {
			switch {
			case block == nil || !block(idx):
				dist[idx] = 0
				d.queue = append(d.queue, int32(idx))
			case StudyFlags&131072 != 0:
				dist[idx] = 0
			}
		}
	}
	for h := 0; h < len(d.queue); h++ {
		p := PosOf(int(d.queue[h]))
		last := LB
		if threeD && s.Cells[p.Index()].Type == Elevator {
			last = Down
		}
		for dir := Bottom; dir <= last; dir++ {
			if d.four && dir < Up && dir%2 == 1 {
				continue
			}
			t := p.Add(dir)
			if !t.OnBoard() {
				continue
			}
			ti := t.Index()
			if dist[ti] >= 0 || !pass(ti) {
				continue
			}
			dist[ti] = dist[p.Index()] + 1
			if block != nil && block(ti) {
				continue
			}
			d.queue = append(d.queue, int32(ti))
		}
	}
	return dist
}

// StudyFields exposes the fields (study only).
func (d *DummyClone) StudyFields() (p, g, h, f []int32) {
	if StudyShowE {
		return d.pdist, d.gdist, d.hdist, d.edist
	}
	return d.pdist, d.gdist, d.hdist, d.fdist
}

// StudyShowE makes StudyFields return the elevator field as f.
var StudyShowE bool

// StudyVariants returns the cave-field candidate lists of u under the
// avoidance variants (study only): exclude-then-min, min-then-filter, none.
func (d *DummyClone) StudyVariants(s *State, u *Unit) [3][]Dir {
	f := StudyFlags
	defer func() { StudyFlags = f }()
	var out [3][]Dir
	StudyFlags = f &^ 2048
	out[0] = d.cands(s, u, d.pdist, true, true)
	StudyFlags = f | 2048
	out[1] = d.cands(s, u, d.pdist, true, true)
	out[2] = d.cands(s, u, d.pdist, true, false)
	return out
}

// StudyPrevHounds returns the hounds' positions of the previous round
// (study only; valid after Prepare: the current ones).
func (d *DummyClone) StudyPrevHounds() []Pos { return d.studyPrev }
