package dominator

import "fmt"

// Placing units: the predicates of SPEC §5.3, place (§5.4) and the group
// spawn (§5.5), shared by the initial placement and the respawn (§8.9).

// available reports whether cell idx is not a wall, holds no unit and is
// not haunted.
func (g *Game) available(idx int) bool {
	c := &g.Grid[idx]
	return c.Type != Wall && c.ID < 0 && !c.Haunted
}

// witchOK reports whether cell p is available and no witch (of any team,
// active or not) stands within Manhattan distance 3 of it.
func (g *Game) witchOK(p Pos) bool {
	n := g.cfg.Cols
	if !g.available(p.I*n + p.J) {
		return false
	}
	for _, o := range diamond3 {
		q := Pos{p.I + o.I, p.J + o.J}
		if !g.OnBoard(q) {
			continue
		}
		if id := g.Grid[q.I*n+q.J].ID; id >= 0 && g.Units[id].Type == Witch {
			return false
		}
	}
	return true
}

// good reports whether p is a good cell for a unit of type t of player pl:
// witch-ok, and for a knight no unit of another owner among its 8
// neighbours, for a farmer no knight of another owner among its 4
// orthogonal neighbours.
func (g *Game) good(p Pos, t UnitType, pl int) bool {
	return g.witchOK(p) && g.goodNeighbours(p, t, pl)
}

// goodNeighbours is the neighbour condition of good.
func (g *Game) goodNeighbours(p Pos, t UnitType, pl int) bool {
	step := Dir(1)
	if t == Farmer {
		step = 2
	}
	for d := Bottom; d < None; d += step {
		u := g.UnitAt(p.Add(d))
		if u == nil || u.Player == pl {
			continue
		}
		if t == Knight || u.Type == Knight {
			return false
		}
	}
	return true
}

// markNearWitches stamps g.near for every cell within Manhattan distance 3
// of a witch on the board: witchOK(p) is available(p) && !near[p] until a
// witch moves or is placed.
func (g *Game) markNearWitches() int32 {
	if len(g.near) != len(g.Grid) {
		g.near = make([]int32, len(g.Grid))
		g.nearStamp = 0
	}
	g.nearStamp++
	n := g.cfg.Cols
	for p := 0; p < NumPlayers; p++ {
		for _, id := range g.Witches[p] {
			w := g.Units[id].Pos
			if !g.OnBoard(w) || int(g.Grid[w.I*n+w.J].ID) != id {
				continue
			}
			for _, o := range diamond3 {
				q := Pos{w.I + o.I, w.J + o.J}
				if g.OnBoard(q) {
					g.near[q.I*n+q.J] = g.nearStamp
				}
			}
		}
	}
	return g.nearStamp
}

// place puts unit id on the cell at p; a farmer paints it (SPEC §5.4).
func (g *Game) place(id int, p Pos) {
	u := &g.Units[id]
	u.Pos = p
	idx := p.I*g.cfg.Cols + p.J
	g.Grid[idx].ID = int16(id)
	if u.Type == Farmer {
		g.paint(idx, u.Player)
	}
}

// spawn is the group spawn of SPEC §5.5: the units U (one type, increasing
// ids) of player pl go to random good cells of pl's box, then to random
// available cells of the box (with the reference's indexing quirk, which
// can leave units nowhere: lost units), and the rest to the shared extra
// list, which it returns.
func (g *Game) spawn(pl int, units []int, extra []int) []int {
	if len(units) == 0 {
		return extra
	}
	box := PlayerBox(pl, g.cfg.Rows, g.cfg.Cols)
	t := g.Units[units[0]].Type
	n := g.cfg.Cols
	good := g.cells[:0]
	near := g.markNearWitches()
	for i := box.I0; i <= box.I1; i++ {
		for j := box.J0; j <= box.J1; j++ {
			idx := i*n + j
			if g.available(idx) && g.near[idx] != near && g.goodNeighbours(Pos{i, j}, t, pl) {
				good = append(good, int32(idx))
			}
		}
	}
	g.cells = good
	lp := &g.lazy
	lp.StartFull(&g.rng, len(good))
	for k := 0; k < len(units) && k < len(good); k++ {
		e, _ := lp.Next()
		idx := int(good[e])
		g.place(units[k], Pos{idx / n, idx % n})
	}
	lp.Finish()
	if len(units) <= len(good) {
		return extra
	}
	free := g.cells2[:0]
	for i := box.I0; i <= box.I1; i++ {
		for j := box.J0; j <= box.J1; j++ {
			if g.available(i*n + j) {
				free = append(free, int32(i*n+j))
			}
		}
	}
	g.cells2 = free
	lp.StartFull(&g.rng, len(free))
	for k := 0; k < len(units) && k < len(free); k++ {
		e, _ := lp.Next()
		if k >= len(good) {
			idx := int(free[e])
			g.place(units[k], Pos{idx / n, idx % n})
		}
	}
	lp.Finish()
	if len(units) > len(good)+len(free) {
		extra = append(extra, units[len(good)+len(free):]...)
	}
	return extra
}

// placeUnits creates the unit table and places every player's witches,
// knights and farmers, one player after another (SPEC §5).
func (g *Game) placeUnits() error {
	c := &g.cfg
	T := c.UnitsPerPlayer()
	g.Units = make([]Unit, c.NumUnits())
	for id := range g.Units {
		u := &g.Units[id]
		u.ID, u.Player = id, id/T
		switch k := id % T; {
		case k < c.NbWitches:
			u.Type, u.Health, u.Pos, u.Active = Witch, -1, Pos{-1, -1}, true
		case k < c.NbWitches+c.NbKnights:
			u.Type, u.Health = Knight, c.KnightsHealth
		default:
			u.Type, u.Health = Farmer, c.FarmersHealth
		}
	}
	n := c.Cols
	var ids []int
	for p := 0; p < NumPlayers; p++ {
		box := PlayerBox(p, c.Rows, c.Cols)
		base := p * T
		for w := 0; w < c.NbWitches; w++ {
			if !g.anyWitchOK(box) {
				return fmt.Errorf("%w: no cell of player %d's box can take witch %d", ErrNoProgress, p, base+w)
			}
			var q Pos
			for {
				q.I = g.rng.Int(box.I0, box.I1)
				q.J = g.rng.Int(box.J0, box.J1)
				if g.witchOK(q) {
					break
				}
			}
			for _, o := range diamond2 {
				h := Pos{q.I + o.I, q.J + o.J}
				if g.OnBoard(h) {
					g.Grid[h.I*n+h.J].Haunted = true
				}
			}
			g.place(base+w, q)
			g.Witches[p] = append(g.Witches[p], base+w)
		}
		for _, group := range [2][2]int{{c.NbWitches, c.NbKnights}, {c.NbWitches + c.NbKnights, c.NbFarmers}} {
			ids = ids[:0]
			for k := 0; k < group[1]; k++ {
				ids = append(ids, base+group[0]+k)
			}
			if extra := g.spawn(p, ids, nil); len(extra) > 0 {
				return fmt.Errorf("%w: player %d's box has no room for %d of its initial %ss (unit %d)",
					ErrAbort, p, len(extra), g.Units[extra[0]].Type, extra[0])
			}
		}
	}
	return nil
}

// anyWitchOK reports whether some cell of box can take a witch.
func (g *Game) anyWitchOK(box Box) bool {
	for i := box.I0; i <= box.I1; i++ {
		for j := box.J0; j <= box.J1; j++ {
			if g.witchOK(Pos{i, j}) {
				return true
			}
		}
	}
	return false
}
