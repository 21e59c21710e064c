package dominator

import "fmt"

// checkRespawn checks where the units killed this round were reborn
// (SPEC §8.9): group by group in the engine's order (knights of players
// 0..3, then farmers), on the cells the group spawn of SPEC §5.5 allows at
// that moment, lost units at their old positions, extras on available
// cells of the interior.
func (s *ruleSim) checkRespawn() *Divergence {
	g := s.g
	r := int32(g.Round)
	var dead [2][NumPlayers][]int
	for id := range g.Units {
		if g.killed[id] != r {
			continue
		}
		t := 1
		if g.Units[id].Type == Knight {
			t = 0
		}
		p := g.Units[id].Player
		dead[t][p] = append(dead[t][p], id)
	}
	var extra []int
	for t := range dead {
		for p := 0; p < NumPlayers; p++ {
			var d *Divergence
			if extra, d = s.checkGroup(p, dead[t][p], extra); d != nil {
				return d
			}
		}
	}
	if len(extra) == 0 {
		return nil
	}
	n := g.cfg.Cols
	free := s.newMark()
	nFree := 0
	for i := 1; i <= g.cfg.Rows-2; i++ {
		for j := 1; j <= n-2; j++ {
			if g.available(i*n + j) {
				s.mark[i*n+j] = free
				nFree++
			}
		}
	}
	if nFree < len(extra) {
		return s.unitDiv(s.r+1, extra[0], "pos", fmt.Sprintf("room for %d extra units (the course program aborts with %d free cells)",
			len(extra), nFree), s.next.Units[extra[0]].Pos.String())
	}
	for _, id := range extra {
		p := s.next.Units[id].Pos
		if !g.OnBoard(p) || s.mark[p.I*n+p.J] != free {
			return s.unitDiv(s.r+1, id, "pos", "a free cell of the interior (the unit's box is full)", p.String())
		}
		s.mark[p.I*n+p.J] = 0
		g.place(id, p)
	}
	return nil
}

// newMark returns a fresh stamp for s.mark, which marks cells of the
// board.
func (s *ruleSim) newMark() int32 {
	if len(s.mark) != len(s.g.Grid) {
		s.mark = make([]int32, len(s.g.Grid))
		s.stamp = 0
	}
	s.stamp++
	return s.stamp
}

// checkGroup checks the group spawn of the units U of player pl and
// returns the extra list with its overflow.
func (s *ruleSim) checkGroup(pl int, units, extra []int) ([]int, *Divergence) {
	if len(units) == 0 {
		return extra, nil
	}
	g := s.g
	n := g.cfg.Cols
	box := PlayerBox(pl, g.cfg.Rows, g.cfg.Cols)
	t := g.Units[units[0]].Type
	good := s.newMark()
	nGood := 0
	for i := box.I0; i <= box.I1; i++ {
		for j := box.J0; j <= box.J1; j++ {
			if g.good(Pos{i, j}, t, pl) {
				s.mark[i*n+j] = good
				nGood++
			}
		}
	}
	for k := 0; k < len(units) && k < nGood; k++ {
		id := units[k]
		p := s.next.Units[id].Pos
		if !g.OnBoard(p) || s.mark[p.I*n+p.J] != good {
			return extra, s.unitDiv(s.r+1, id, "pos", fmt.Sprintf("a good free cell of player %d's box for a %s", pl, t), p.String())
		}
		s.mark[p.I*n+p.J] = 0
		g.place(id, p)
	}
	if len(units) <= nGood {
		return extra, nil
	}
	free := s.newMark()
	nFree := 0
	for i := box.I0; i <= box.I1; i++ {
		for j := box.J0; j <= box.J1; j++ {
			if g.available(i*n + j) {
				s.mark[i*n+j] = free
				nFree++
			}
		}
	}
	for k := nGood; k < len(units) && k < nFree; k++ {
		id := units[k]
		p := s.next.Units[id].Pos
		if !g.OnBoard(p) || s.mark[p.I*n+p.J] != free {
			return extra, s.unitDiv(s.r+1, id, "pos", fmt.Sprintf("a free cell of player %d's box (no good cell left)", pl), p.String())
		}
		s.mark[p.I*n+p.J] = 0
		g.place(id, p)
	}
	for k := max(nGood, min(len(units), nFree)); k < min(len(units), nGood+nFree); k++ {
		id := units[k]
		u := &g.Units[id]
		p := s.next.Units[id].Pos
		o := s.origin[id]
		ok := p == u.Pos
		if s.hidden[id] {
			ok = absInt(p.I-o.I) <= 1 && absInt(p.J-o.J) <= 1 && p != o
		}
		if !ok {
			return extra, s.unitDiv(s.r+1, id, "pos", "where the unit died (a lost unit, placed nowhere)", p.String())
		}
		u.Pos = p
	}
	if len(units) > nGood+nFree {
		extra = append(extra, units[nGood+nFree:]...)
	}
	return extra, nil
}
