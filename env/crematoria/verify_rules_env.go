package crematoria

import "fmt"

// The rule simulator's environment steps (see verify_rules.go): necromongers,
// hellhounds, the sun, resolution, gem, arrival and respawn checks.

// necromongers checks the necromonger lines and applies the moves, then
// lands the descending necromongers (SPEC §8.6).
func (s *ruleSim) necromongers(i *int) *Divergence {
	g := s.g
	g.srcs = g.srcs[:0]
	for id := range g.Units {
		if u := &g.Units[id]; (u.Type == Pioneer || u.Type == Furyan) && u.Health > 0 && u.Pos.K == 1 {
			g.srcs = append(g.srcs, u.Pos)
		}
	}
	for _, id := range g.startNec {
		if u := &g.Units[id]; u.Health <= 0 || u.Turns != 0 {
			continue
		}
		if d := s.envMove(i, id, s.necroChoices(id)); d != nil {
			return d
		}
	}
	for _, id := range g.startNec {
		u := &g.Units[id]
		if u.Turns <= 0 {
			continue
		}
		if u.Turns--; u.Turns == 0 {
			c := &g.Cells[u.Pos.Index()]
			if c.ID >= 0 {
				s.kill(int(c.ID), -1)
			}
			c.ID = int16(id)
			g.noteCell(u.Pos.Index())
		}
	}
	return nil
}

// envMove checks that line i moves unit id in one of the allowed
// directions, then applies it.
func (s *ruleSim) envMove(i *int, id int, allowed []Dir) *Divergence {
	s.step = *i + 1
	if *i >= len(s.moves) || s.moves[*i].ID != id {
		got := `"-1" (end of the block)`
		if *i < len(s.moves) {
			got = moveText(s.moves[*i])
		}
		return s.moveDiv(*i, fmt.Sprintf("a move of %s %d", s.g.Units[id].Type, id), got)
	}
	m := s.moves[*i]
	ok := false
	var want []byte
	for _, d := range allowed {
		ok = ok || d == m.Dir
		want = append(want, ' ', d.Char())
	}
	if !ok {
		return s.moveDiv(*i, fmt.Sprintf("a direction among [%s] (the rules' candidates)", want[1:]), moveText(m))
	}
	if ok, why, d := s.move(id, m.Dir); d != nil || !ok {
		if d == nil {
			d = s.moveDiv(*i, "a move that succeeds", moveText(m)+" ("+why+")")
		}
		return d
	}
	*i++
	return nil
}

// necroChoices returns the directions a landed necromonger may take: the
// attack candidates, else the approach candidates at minimum distance, else
// the free cells among BR, Right, RT, else None (SPEC §8.6).
func (s *ruleSim) necroChoices(id int) []Dir {
	g := s.g
	u := &g.Units[id]
	g.cands, g.attack = g.cands[:0], g.attack[:0]
	best := far
	for d := Bottom; d <= LB; d++ {
		n := u.Pos.Add(d)
		if n.I < 0 || n.I >= Rows {
			continue
		}
		c := &g.Cells[n.Index()]
		if c.ID >= 0 {
			if t := g.Units[c.ID].Type; t == Pioneer || t == Furyan {
				g.attack = append(g.attack, d)
			}
			continue
		}
		if len(g.srcs) == 0 {
			continue
		}
		v := far
		for _, src := range g.srcs {
			v = min(v, Cheb(n, src))
		}
		if v < best {
			best, g.cands = v, g.cands[:0]
		}
		if v == best {
			g.cands = append(g.cands, d)
		}
	}
	switch {
	case len(g.attack) > 0:
		return g.attack
	case len(g.cands) > 0:
		return g.cands
	}
	for _, d := range [3]Dir{BR, Right, RT} {
		if n := u.Pos.Add(d); n.I >= 0 && n.I < Rows && g.Cells[n.Index()].ID < 0 {
			g.cands = append(g.cands, d)
		}
	}
	if len(g.cands) == 0 {
		g.cands = append(g.cands, None)
	}
	return g.cands
}

// hellhounds checks the hellhound lines and applies the moves (SPEC §8.7).
func (s *ruleSim) hellhounds(i *int) *Divergence {
	g := s.g
	s.d0 = distancesD0(&g.State, s.d0)
	for _, id := range g.Hellhounds {
		u := &g.Units[id]
		g.cands = g.cands[:0]
		best := int32(far + 1)
		for d := Bottom; d <= LB; d++ {
			n := u.Pos.Add(d)
			if n.I < 0 || n.I >= Rows || g.Cells[n.Index()].Type == Rock {
				continue
			}
			ok := true
			for _, o := range g.Hellhounds {
				ok = ok && (o == id || Cheb(n, g.Units[o].Pos) >= 2)
			}
			if !ok {
				continue
			}
			if v := s.d0[n.I*Cols+n.J]; v < best {
				best, g.cands = v, append(g.cands[:0], d)
			} else if v == best {
				g.cands = append(g.cands, d)
			}
		}
		if len(g.cands) == 0 {
			g.cands = append(g.cands, None)
		}
		if d := s.envMove(i, id, g.cands); d != nil {
			return d
		}
	}
	return nil
}

// sun burns the columns leaving the night band (SPEC §8.9).
func (s *ruleSim) sun() {
	g := s.g
	t1 := NightStart(g.Round)
	for i := 0; i < Rows; i++ {
		for _, j := range [2]int{t1, t1 + 1} {
			if idx := (Pos{i, j, 1}).Index(); g.Cells[idx].Gem {
				g.Cells[idx].Gem = false
				g.noteCell(idx)
			}
		}
		for _, j := range [2]int{t1, t1 + 1} {
			if id := g.Cells[Pos{i, j, 1}.Index()].ID; id >= 0 {
				s.kill(int(id), -1)
			}
		}
	}
}

// resolve reads the hidden outcomes from the next state: the new group of
// every Pioneer or Furyan that died, and the damage survivors took.
func (s *ruleSim) resolve() *Divergence {
	g := s.g
	for id := range g.Units {
		u, nu, h := &g.Units[id], &s.next.Units[id], &s.hits[id]
		switch {
		case u.Type == Hellhound:
		case u.Type != Necromonger && u.Health == 0:
			by := s.killedBy[id]
			if by >= 0 && nu.Player != by {
				return s.unitDiv(id, "group", fmt.Sprintf("%d (captured by group %d)", by, by), fmt.Sprint(nu.Player))
			}
			if by < 0 && (nu.Player == u.Player || nu.Player < 0 || nu.Player >= NumPlayers) {
				return s.unitDiv(id, "group", fmt.Sprintf("a group other than %d (killed by the environment)", u.Player), fmt.Sprint(nu.Player))
			}
			u.Player = nu.Player
		case h.attacked && u.Health > 0 && !s.diesInTrace(u, -1):
			// The unit survived and was healed: its health before healing is
			// the printed one minus the recovery (never capped after a hit).
			x := nu.Health - HealthRecovery
			if dmg := h.h0 - x; x < 1 || dmg < h.lo || dmg > h.hi {
				return s.unitDiv(id, "health", fmt.Sprintf("%d..%d (health %d, damage %d..%d, healing %d)",
					max(h.h0-h.hi, 1)+HealthRecovery, h.h0-h.lo+HealthRecovery, h.h0, h.lo, h.hi, HealthRecovery), fmt.Sprint(nu.Health))
			}
			u.Health = x
		}
	}
	return nil
}

// gem accepts at most one new gem on an Outside cell of the new-night
// columns (SPEC §8.11).
func (s *ruleSim) gem() *Divergence {
	g := s.g
	created := -1
	for _, idx := range g.newNightCells(g.free[:0], false) {
		if g.Cells[idx].Gem || s.next.Grid[idx] != 'G' {
			continue
		}
		if created >= 0 {
			p := PosOf(idx)
			return &Divergence{Round: s.r + 1, Unit: -1, Field: "grid " + p.String(), Line: s.tr.gridLine(s.r+1, p),
				Want: fmt.Sprintf("O (at most one gem appears per round, one did at %v)", PosOf(created)), Got: "G"}
		}
		created = idx
	}
	if created >= 0 {
		g.Cells[created].Gem = true
		g.noteCell(created)
	}
	return nil
}

// arrival accepts at most one necromonger arrival, when allowed, on a free
// Outside cell of the new-night columns (SPEC §8.12).
func (s *ruleSim) arrival() *Divergence {
	g := s.g
	arrived := -1
	for _, id := range g.deadNec {
		u, nu := &g.Units[id], &s.next.Units[id]
		if nu.Health == 0 {
			continue
		}
		switch {
		case len(g.startNec) >= g.cfg.MaxNecros:
			return s.unitDiv(id, "health", fmt.Sprintf("0 (no arrival: %d necromongers at the start of the round, max %d)",
				len(g.startNec), g.cfg.MaxNecros), fmt.Sprint(nu.Health))
		case arrived >= 0:
			return s.unitDiv(id, "health", fmt.Sprintf("0 (necromonger %d arrived this round)", arrived), fmt.Sprint(nu.Health))
		}
		n1 := (NightStart(g.Round) + 40) % Cols
		p := nu.Pos
		if !p.OnBoard() || p.K != 1 || (p.J != n1 && p.J != n1+1) || g.Cells[p.Index()].Type != Outside || g.Cells[p.Index()].Gem {
			return s.unitDiv(id, "pos", fmt.Sprintf("an Outside cell without gem in columns %d-%d of level 1", n1, n1+1), p.String())
		}
		u.Health, u.Turns, u.Pos = NecromongerHealth, g.cfg.TurnsToLand, p
		arrived = id
	}
	return nil
}

// respawn accepts the reborn units' cells: free level-0 caves at distance
// >= 2 from Pioneers, Furyans and each other, >= 4 from hellhounds (SPEC
// §8.13). Any such set is reachable by some pair of permutations.
func (s *ruleSim) respawn() *Divergence {
	g := s.g
	excl := g.excl
	clear(excl)
	for idx := 0; idx < LevelCells; idx++ {
		if id := g.Cells[idx].ID; id >= 0 {
			r := 1
			if g.Units[id].Type == Hellhound {
				r = 3
			}
			markSquare(excl, PosOf(idx), r)
		}
	}
	for _, id := range g.deadOther {
		u, p := &g.Units[id], s.next.Units[id].Pos
		if !p.OnBoard() || p.K != 0 || g.Cells[p.Index()].Type != Cave || excl[p.I*Cols+p.J] {
			return s.unitDiv(id, "pos", "a free level-0 cave at distance >= 2 from Pioneers and Furyans and >= 4 from hellhounds", p.String())
		}
		u.Health, u.Pos = u.Type.MaxHealth(), p
		c := &g.Cells[p.Index()]
		c.ID = int16(id)
		g.noteCell(p.Index())
		if u.Type == Pioneer {
			c.Owner = int8(u.Player)
		}
		markSquare(excl, p, 1)
	}
	return nil
}

// distancesD0 returns D0 of SPEC §8.7 for every level-0 cell: the
// 8-connected distance through non-Rock cells to the nearest Pioneer or
// Furyan on level 0, far where unreachable. It is a plain breadth-first
// search, independent of the engine's faster one.
func distancesD0(s *State, d0 []int32) []int32 {
	if len(d0) != 2*LevelCells {
		d0 = make([]int32, 2*LevelCells)
	}
	dist, queue := d0[:LevelCells], d0[LevelCells:LevelCells]
	for idx := range dist {
		dist[idx] = far
		if id := s.Cells[idx].ID; id >= 0 && (s.Units[id].Type == Pioneer || s.Units[id].Type == Furyan) {
			dist[idx] = 0
			queue = append(queue, int32(idx))
		}
	}
	for h := 0; h < len(queue); h++ {
		p := PosOf(int(queue[h]))
		for d := Bottom; d <= LB; d++ {
			n := p.Add(d)
			if n.I < 0 || n.I >= Rows || s.Cells[n.Index()].Type == Rock || dist[n.Index()] != far {
				continue
			}
			dist[n.Index()] = dist[queue[h]] + 1
			queue = append(queue, int32(n.Index()))
		}
	}
	return d0
}
