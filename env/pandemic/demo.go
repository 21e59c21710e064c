package pandemic

// Demo reproduces the kit's Demo player draw for draw (SPEC §12). It plays
// badly on purpose; its value is that it is the course's reference opponent.
type Demo struct {
	me   int
	rng  Rand
	perm []int
}

func init() { RegisterBot("Demo", NewDemo) }

// NewDemo returns the Demo bot for seat me of a game with the given seed.
func NewDemo(me, seed int) Bot {
	d := &Demo{me: me}
	d.rng.Seed(seed + me + 1)
	return d
}

// Play gives the Demo's orders (SPEC §12).
func (d *Demo) Play(s *State, o *Orders) {
	if s.Round > s.Cfg.NbRounds/2 {
		return
	}
	winning := true
	for pl := 0; pl < NumPlayers; pl++ {
		if pl != d.me && s.Scores[d.me] <= s.Scores[pl] {
			winning = false
		}
	}
	if winning {
		return
	}
	mine := s.PlayerUnits[d.me]
	if cap(d.perm) < len(mine) {
		d.perm = make([]int, len(mine))
	}
	perm := d.rng.FullPermInto(d.perm[:len(mine)])
	for _, k := range perm {
		id := mine[k]
		u := &s.Units[id]
		if d.rng.Int(0, 3) != 0 {
			o.Move(id, Dir(d.rng.Int(0, 4)))
			continue
		}
		if dir := d.choose(s, u); dir != noMove {
			o.Move(id, dir)
		}
	}
}

// choose is the Demo's chain of conditions when its first draw is 0
// (SPEC §12 steps 5.2-5.5). noMove stands for "issue nothing".
func (d *Demo) choose(s *State, u *Unit) Dir {
	here := s.Idx(u.Pos)
	switch {
	case u.Damage > 0:
		for dir := Bottom; dir < None; dir++ {
			if q := u.Pos.Add(dir); s.OnBoard(q) && s.MaskAt[s.Idx(q)] {
				return dir
			}
		}
		return None
	case u.Immune:
		return Left
	case s.Types[here] == City:
		switch {
		case s.CityOwner[s.CityOf[here]] != d.me:
			return Top
		case s.Virus[here] >= 3:
			return Right
		}
		return Bottom
	case s.Cell(Pos{3, 4}).Type == Wall:
		return None
	case u.Health < 30:
		return Bottom
	}
	if above := s.Cell(u.Pos.Add(Top)); above.UnitID >= 0 {
		o := &s.Units[above.UnitID]
		switch {
		case o.Player == d.me:
			return Right
		case o.Turns >= 15:
			return None
		case o.Mask:
			return Left
		}
		return Top
	}
	if d.rng.Int(0, 1) != 0 {
		return Dir(d.rng.Int(0, 2))
	}
	return noMove
}

// noMove is the Demo's "issue nothing": no command is given.
const noMove Dir = -128
