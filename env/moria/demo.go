package moria

// Demo reproduces the kit's Demo player draw for draw (SPEC §12). It plays
// badly on purpose; its value is that it is the course's reference opponent.
type Demo struct {
	me   int
	rng  Rand
	kind map[int]int // wizard id -> its kind, drawn the first time it is seen
	perm []int
}

func init() { RegisterBot("Demo", NewDemo) }

// NewDemo returns the Demo bot for seat me of a game with the given seed.
func NewDemo(me, seed int) Bot {
	d := &Demo{me: me, kind: map[int]int{}}
	d.rng.Seed(seed + me + 1)
	return d
}

// Play gives the Demo's orders: dwarves in a random order, then wizards.
func (d *Demo) Play(s *State, o *Orders) {
	dw := s.Dwarves[d.me]
	if cap(d.perm) < len(dw) {
		d.perm = make([]int, len(dw))
	}
	perm := d.rng.PermInto(d.perm[:len(dw)])
	for _, k := range perm {
		id := dw[k]
		if d.rng.Int(0, 2) == 0 {
			o.Command(id, Dir(d.rng.Int(0, 7)))
			continue
		}
		// The Demo looks for an enemy on the dwarf's own cell and never
		// finds one (SPEC §12).
		switch {
		case s.Round < 40:
			o.Command(id, Left)
		case s.Round > 180:
			o.Command(id, None)
		case d.rng.Int(0, 1) == 1:
			o.Command(id, d.randomCorner())
		default:
			if dir, ok := d.chain(s, &s.Units[id]); ok {
				o.Command(id, dir)
			}
		}
	}
	for _, id := range s.Wizards[d.me] {
		k, ok := d.kind[id]
		if !ok {
			k = d.rng.Int(0, 1)
			d.kind[id] = k
		}
		if k == 0 {
			o.Command(id, Dir(2*d.rng.Int(0, 3)))
		} else {
			o.Command(id, Dir(2*(s.Round%4)))
		}
	}
}

// randomCorner collects four distinct random positions (column drawn
// first, as the reference compiler evaluates the arguments), looks at one
// of them in row-major order and heads down if it is in the lower half.
func (d *Demo) randomCorner() Dir {
	var ps [4]Pos
	n := 0
	for n < 4 {
		col := d.rng.Int(0, Cols-1)
		row := d.rng.Int(0, Rows-1)
		p := Pos{row, col}
		k := 0
		for k < n && (ps[k].I < p.I || (ps[k].I == p.I && ps[k].J < p.J)) {
			k++
		}
		if k < n && ps[k] == p {
			continue
		}
		copy(ps[k+1:n+1], ps[k:n])
		ps[k] = p
		n++
	}
	if ps[d.rng.Int(0, 3)].I >= 30 {
		return Bottom
	}
	return RT
}

// chain is the Demo's chain of silly conditions (SPEC §12).
func (d *Demo) chain(s *State, u *Unit) (Dir, bool) {
	switch {
	case u.Health < 20:
		return Dir(2 * d.rng.Int(0, 3)), true
	case s.CellAt(10, 20).Owner == 2:
		return TL, true
	case s.NbCells[3] > 50:
		return LB, true
	case s.NbTreasures[d.me] < 4:
		return BR, true
	case s.CellAt(20, 30).Type == Cave:
		return Bottom, true
	case s.CellAt(2, 2).Treasure:
		return Top, true
	}
	return None, false
}
