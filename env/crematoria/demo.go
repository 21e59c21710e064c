package crematoria

import "sort"

// Demo reproduces the kit's Demo player draw for draw (SPEC §12). It plays
// badly on purpose; its value is that it is the course's reference opponent.
type Demo struct {
	me   int
	rng  Rand
	mode map[int]int
}

func init() { RegisterBot("Demo", NewDemo) }

// NewDemo returns the Demo bot for seat me of a game with the given seed.
func NewDemo(me, seed int) Bot {
	d := &Demo{me: me, mode: map[int]int{}}
	d.rng.Seed(seed + me + 1)
	return d
}

// Play gives the Demo's orders: Furyans in a random order, then Pioneers.
func (d *Demo) Play(s *State, o *Orders) {
	fl := s.Furyans[d.me]
	perm := d.rng.Perm(len(fl))
	for x := range fl {
		id := fl[perm[x]]
		u := &s.Units[id]
		if d.rng.Int(0, 2) == 0 {
			o.Command(id, Dir(d.rng.Int(0, 9)))
			continue
		}
		switch {
		case s.Cells[u.Pos.Index()].Type == Elevator:
			o.Command(id, Up)
		case s.Round < 40:
			o.Command(id, Left)
		case s.Round > 180:
			o.Command(id, None)
		default:
			if d.rng.Int(0, 1) == 1 {
				o.Command(id, d.randomCorner())
			} else if dir, ok := d.chain(s, u); ok {
				o.Command(id, dir)
			}
		}
	}
	for _, id := range s.Pioneers[d.me] {
		m, ok := d.mode[id]
		if !ok {
			m = d.rng.Int(0, 1)
			d.mode[id] = m
		}
		if m == 0 {
			o.Command(id, Dir(d.rng.Int(0, 7)))
		} else {
			o.Command(id, Dir(2*(s.Round%4)))
		}
	}
}

// randomCorner draws four distinct positions (column first, then row, as the
// reference compiler evaluates the arguments), sorts them and looks at one.
func (d *Demo) randomCorner() Dir {
	var ps []Pos
	for len(ps) < 4 {
		col := d.rng.Int(0, 79)
		row := d.rng.Int(0, 39)
		p := Pos{row, col, 0}
		dup := false
		for _, q := range ps {
			if q == p {
				dup = true
				break
			}
		}
		if !dup {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(a, b int) bool {
		if ps[a].I != ps[b].I {
			return ps[a].I < ps[b].I
		}
		return ps[a].J < ps[b].J
	})
	if ps[d.rng.Int(0, 3)].I >= 30 {
		return Bottom
	}
	return RT
}

// chain is the Demo's chain of silly conditions (SPEC §12 A.3, b == 0).
func (d *Demo) chain(s *State, u *Unit) (Dir, bool) {
	switch {
	case u.Health < 20:
		return Dir(2 * d.rng.Int(0, 3)), true
	case s.CellAt(10, 20, 0).Owner == 2:
		return TL, true
	case s.NbCells[3] > 50:
		return LB, true
	case s.NbGems[d.me] < 4:
		return BR, true
	case s.CellAt(20, 30, 0).Type == Cave:
		return Bottom, true
	case s.CellAt(2, 2, 1).Gem:
		return Top, true
	case Daylight(Pos{0, 0, 1}, s.Round):
		return RT, true
	}
	return None, false
}
