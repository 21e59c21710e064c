package moria

import "fmt"

// The rule simulator's checks of Sauron's turn, orc births and rebirths
// (see verify_rules.go).

// sauron checks the orc, troll and Balrog lines and applies them (SPEC
// §8.6-§8.8).
func (s *ruleSim) sauron(i *int) *Divergence {
	g := s.g
	var maps sauronMaps
	act := func(u *Unit) *Divergence {
		att, cand := g.options(u, &maps)
		allowed := att
		if len(att) == 0 {
			allowed = cand
		}
		if len(allowed) == 0 {
			allowed = []Dir{None}
		}
		d, div := s.envLine(i, u.ID, allowed)
		if div != nil {
			return div
		}
		switch {
		case len(att) > 0:
			v := &g.Units[g.Cells[u.Pos.Add(d).Index()].ID]
			if u.Type == Orc {
				s.attack(v, -1, MinDamageOrc, MaxDamageOrc, u.ID)
			} else {
				s.attack(v, -1, MinDamageTroll, MaxDamageTroll, u.ID)
			}
			return s.fail
		case d != None:
			g.sauronStep(u, d)
		}
		return nil
	}
	for id := g.cfg.FirstOrc(); id < g.cfg.FirstTroll(); id++ {
		if u := &g.Units[id]; u.Health > 0 {
			if !maps.orcOK {
				g.orcMap(&g.round.orcMap)
				maps.orcOK = true
			}
			if d := act(u); d != nil {
				return d
			}
		}
	}
	for id := g.cfg.FirstTroll(); id < g.cfg.BalrogID(); id++ {
		if d := act(&g.Units[id]); d != nil {
			return d
		}
	}
	allowed := []Dir{None}
	if targets := g.balrogTargets(); len(targets) > 0 {
		allowed = allowed[:0]
		for _, t := range targets {
			d := g.balrogDir(g.Units[t].Pos)
			if !containsDir(allowed, d) {
				allowed = append(allowed, d)
			}
		}
	}
	d, div := s.envLine(i, g.BalrogID, allowed)
	if div != nil {
		return div
	}
	if d != None {
		if err := g.balrogStep(d, s.kill); err != nil {
			return s.moveDiv(*i-1, "a step onto a cell holding no unit id (the course engine aborts here: the trace ends)", moveText(s.moves[*i-1]))
		}
	}
	return nil
}

func containsDir(ds []Dir, d Dir) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// envLine checks that line i moves unit id in one of the allowed
// directions and returns the direction.
func (s *ruleSim) envLine(i *int, id int, allowed []Dir) (Dir, *Divergence) {
	s.step = *i + 1
	if *i >= len(s.moves) || s.moves[*i].ID != id {
		got := `"-1" (end of the block)`
		if *i < len(s.moves) {
			got = moveText(s.moves[*i])
		}
		return None, s.moveDiv(*i, fmt.Sprintf("a move of %s %d", s.g.Units[id].Type, id), got)
	}
	m := s.moves[*i]
	if !containsDir(allowed, m.Dir) {
		var want []byte
		for _, d := range allowed {
			want = append(want, ' ', d.Char())
		}
		return None, s.moveDiv(*i, fmt.Sprintf("a direction among [%s] (the rules' candidates)", want[1:]), moveText(m))
	}
	*i++
	return m.Dir, nil
}

// births accepts the orcs born this round: the highest dead ids, on
// distinct free abysses farther than Manhattan 2 from the Balrog, with full
// health (SPEC §8.10).
func (s *ruleSim) births() *Divergence {
	g := s.g
	b := g.Units[g.BalrogID].Pos
	var dead, born []int
	for id := g.cfg.FirstOrc(); id < g.cfg.FirstTroll(); id++ {
		if g.Units[id].Health <= 0 {
			dead = append(dead, id)
			if s.next.Units[id].Health > 0 {
				born = append(born, id)
			}
		}
	}
	for k, id := range born {
		if want := dead[len(dead)-len(born)+k]; id != want {
			return s.unitDiv(want, "health", fmt.Sprintf("%d (orc %d was born: the highest dead ids are born first)", OrcHealth, id),
				fmt.Sprint(s.next.Units[want].Health))
		}
	}
	for _, id := range born {
		nu := &s.next.Units[id]
		p := nu.Pos
		if !p.OnBoard() || g.Cells[p.Index()].Type != Abyss || g.Cells[p.Index()].ID >= 0 || Manh(p, b) <= birthSafeManh {
			return s.unitDiv(id, "pos", fmt.Sprintf("a free abyss farther than Manhattan %d from the Balrog at %v", birthSafeManh, b), p.String())
		}
		if nu.Health != OrcHealth {
			return s.unitDiv(id, "health", fmt.Sprint(OrcHealth), fmt.Sprint(nu.Health))
		}
		u := &g.Units[id]
		u.Health, u.Pos = OrcHealth, p
		g.setID(p.Index(), id)
		g.setOwner(p.Index(), -1)
	}
	return nil
}

func onRing(p Pos) bool { return p.I < 2 || p.I >= Rows-2 || p.J < 2 || p.J >= Cols-2 }

// rebirths accepts the cells of the reborn dwarves, wizards and trolls
// (SPEC §8.11): cells of the outside ring out of the ban set and at
// Chebyshev distance at least 2 from each other; treasure-free free caves
// inside Moria only once the ring is full. Any such choice is reachable by
// some pair of permutations.
func (s *ruleSim) rebirths() *Divergence {
	g := s.g
	x := g.banned()
	var reborn, inside []int
	for id := range g.Units {
		if g.killed[id] && g.Units[id].Type != Orc {
			reborn = append(reborn, id)
		}
	}
	const why = "a cell of the outside ring out of the ban set (rebirth: docs/rules/moria.md#a-round-in-order, step 9)"
	for _, id := range reborn {
		p := s.next.Units[id].Pos
		switch {
		case !p.OnBoard():
			return s.unitDiv(id, "pos", why, p.String())
		case !onRing(p):
			inside = append(inside, id)
			continue
		case isBanned(&x, p.Index()):
			return s.unitDiv(id, "pos", why+", at distance >= 2 from the other units", p.String())
		}
		banSquare(&x, p, 1)
	}
	if len(inside) > 0 {
		for _, idx := range ringCells {
			if !isBanned(&x, idx) {
				p := s.next.Units[inside[0]].Pos
				return s.unitDiv(inside[0], "pos", fmt.Sprintf("%s (the ring still has room at %v)", why, PosOf(idx)), p.String())
			}
		}
		for _, id := range inside {
			p := s.next.Units[id].Pos
			c := &g.Cells[p.Index()]
			if c.Type != Cave || c.Treasure || c.ID >= 0 || isBanned(&x, p.Index()) {
				return s.unitDiv(id, "pos", "a free treasure-free cave inside Moria out of the ban set (the ring is full)", p.String())
			}
			banSquare(&x, p, 1)
		}
	}
	for _, id := range reborn {
		u := &g.Units[id]
		u.Pos = s.next.Units[id].Pos
		idx := u.Pos.Index()
		g.setID(idx, id)
		switch {
		case u.Type == Troll:
			g.setOwner(idx, -1)
		case u.Type == Dwarf && g.Cells[idx].Type == Cave:
			g.setOwner(idx, u.Player)
		}
	}
	return nil
}
