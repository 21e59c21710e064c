package dominator

import "sort"

// Demo reproduces the kit's Demo player draw for draw (SPEC §12). It plays
// badly on purpose; its value is that it is the course's reference
// opponent. It reasons in its view, where it is player 0; PlaySeat does the
// same on the real state, faster.
//
// With fewer than two witches per player the kit's Demo reads past the end
// of its witch list (undefined behaviour in C++); this Demo then simply
// gives no order to the missing witches.
type Demo struct {
	rng  Rand
	kind []int8 // per unit id: -1 not drawn yet, else 0 or 1
}

// NewDemo returns the Demo bot for seat me of a game with the given seed.
func NewDemo(me, seed int) Bot {
	d := &Demo{}
	d.rng.Seed(seed + me + 1)
	return d
}

// Play gives the Demo's orders on its view: farmers, knights, then its two
// witches.
func (d *Demo) Play(v *State, o *Orders) { d.PlaySeat(v, 0, o) }

// PlaySeat gives the orders Play gives on player me's view, reading the
// real state s instead (SeatBot): a Match need not build the view.
func (d *Demo) PlaySeat(s *State, me int, o *Orders) {
	if len(d.kind) != len(s.Units) {
		d.kind = make([]int8, len(s.Units))
		for i := range d.kind {
			d.kind[i] = -1
		}
	}
	r := s.Round
	for _, id := range s.Farmers[me] {
		if d.kind[id] < 0 {
			d.kind[id] = int8(d.rng.Int(0, 1))
		}
		if d.kind[id] == 0 {
			o.Command(id, Dir(2*d.rng.Int(0, 3)))
		} else {
			o.Command(id, Dir(2*(r%4)))
		}
	}
	k := s.Knights[me]
	if r%2 == 0 {
		var dirs [8]Dir
		for _, id := range k {
			n := 0
			for dir := Bottom; dir < None; dir++ {
				c := s.Cell(d.viewStep(s, me, id, dir))
				if c.ID < 0 {
					continue
				}
				if u := &s.Units[c.ID]; u.Player != me && u.Type != Witch {
					dirs[n] = dir
					n++
				}
			}
			if n == 0 {
				o.Command(id, Dir(d.rng.Int(0, 7)))
			} else {
				o.Command(id, dirs[d.rng.Int(0, n-1)])
			}
		}
	} else {
		perm := d.rng.FullPerm(len(k))
		for i, id := range k {
			o.Command(id, Dir(2*(perm[i]%4)+1))
		}
	}
	ws := s.Witches[me]
	if len(ws) > 0 {
		o.Command(ws[0], d.firstWitch(r))
	}
	if len(ws) > 1 {
		o.Command(ws[1], d.secondWitch(s, me))
	}
}

// viewStep returns the real cell the Demo of player me reads when it looks
// one step in view direction dir from unit id. A lost unit's position is
// not turned in the view (SPEC §3.4), so the Demo then reads the view cell
// at its real coordinates plus dir.
func (d *Demo) viewStep(s *State, me, id int, dir Dir) Pos {
	p := s.Units[id].Pos
	if me == 0 || s.onGrid(id) {
		return p.Add(dir.Rotate(me))
	}
	return RealPos(p.Add(dir), me, s.Cfg.Rows)
}

// firstWitch walks up, left, stays, walks down, then looks at a random
// corner of four random positions (drawn column first, as the reference
// compiler evaluates the arguments).
func (d *Demo) firstWitch(r int) Dir {
	switch {
	case r < 40:
		return Top
	case r < 80:
		return Left
	case r < 120:
		return None
	case r < 160:
		return Bottom
	}
	var ps []Pos
	for len(ps) < 4 {
		j := d.rng.Int(0, 36)
		i := d.rng.Int(0, 36)
		p := Pos{i, j}
		dup := false
		for _, q := range ps {
			dup = dup || q == p
		}
		if !dup {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(a, b int) bool { return ps[a].Less(ps[b]) })
	if ps[d.rng.Int(0, 3)].I < 18 {
		return None
	}
	return Top
}

// secondWitch is the Demo's chain of conditions on its view.
func (d *Demo) secondWitch(s *State, me int) Dir {
	corner := Pos{35, 35}
	if s.OnBoard(corner) {
		corner = RealPos(corner, me, s.Cfg.Rows)
	}
	switch {
	case s.TotalScore[(me+1)%NumPlayers] > 10000:
		return Bottom
	case s.Land[(me+3)%NumPlayers] > 100:
		return Right
	case s.Cell(corner).Type == Wall:
		return None
	}
	return Top
}

var _ SeatBot = (*Demo)(nil)
