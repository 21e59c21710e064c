package pandemic

// Scoring (SPEC §8.12): conquest of cities and paths by strict majority,
// then the connected components of each player's conquests.

// score updates the owners and adds the round's points.
func (g *Game) score() {
	s := &g.State
	nc, np := len(s.Cities), len(s.Paths)
	need := 4 * (nc + np)
	if cap(g.counts) < need {
		g.counts = make([]int32, need)
	}
	cnt := g.counts[:need]
	clear(cnt)
	for id := range s.Units {
		u := &s.Units[id]
		idx := s.Idx(u.Pos)
		if c := s.CityOf[idx]; c >= 0 {
			cnt[4*int(c)+u.Player]++
		} else if p := s.PathOf[idx]; p >= 0 {
			cnt[4*(nc+int(p))+u.Player]++
		}
	}
	for k := 0; k < nc; k++ {
		o := conqueror(cnt[4*k:4*k+4], s.CityOwner[k])
		s.CityOwner[k] = o
		if o >= 0 {
			s.addScore(o, g.cfg.BonusPerCityCell*len(s.Cities[k]))
		}
	}
	for k := 0; k < np; k++ {
		o := conqueror(cnt[4*(nc+k):4*(nc+k)+4], s.PathOwner[k])
		s.PathOwner[k] = o
		if o >= 0 {
			s.addScore(o, g.cfg.BonusPerPathCell*len(s.Paths[k].Cells))
		}
	}
	if cap(g.comp) < 2*nc {
		g.comp = make([]int32, 2*nc)
	}
	for pl := 0; pl < NumPlayers; pl++ {
		g.sizes = s.Components(pl, g.sizes[:0], g.comp)
		for _, size := range g.sizes {
			s.addScore(pl, ComponentPoints(g.cfg.FactorConnectedComponent, size))
		}
	}
}

// conqueror returns the new owner of a city or path given the number of
// units of each player on it: the player with strictly more units than
// every other, else the old owner.
func conqueror(cnt []int32, old int) int {
	best, who, tie := int32(0), -1, false
	for pl := 0; pl < NumPlayers; pl++ {
		switch c := cnt[pl]; {
		case c > best:
			best, who, tie = c, pl, false
		case c == best:
			tie = true
		}
	}
	if who < 0 || tie {
		return old
	}
	return who
}

// addScore adds x to the score of pl, wrapping like the kit's 32-bit int.
func (s *State) addScore(pl, x int) {
	s.Scores[pl] = int(int32(s.Scores[pl] + x))
}

// ComponentPoints is factor x 2^size, the points of one connected
// component (SPEC §8.12), wrapped to 32 bits.
func ComponentPoints(factor, size int) int {
	if size >= 63 {
		return 0
	}
	return int(int32(factor * (1 << size)))
}

// Components appends to dst the sizes of the connected components of
// player pl's conquest graph: the cities pl owns, joined by the paths pl
// owns whose two end cities pl owns (SPEC §8.12), in increasing order of
// each component's smallest city id. scratch, if at least 2 len(s.Cities)
// long, avoids an allocation.
func (s *State) Components(pl int, dst []int, scratch []int32) []int {
	nc := len(s.Cities)
	if len(scratch) < 2*nc {
		scratch = make([]int32, 2*nc)
	}
	parent, size := scratch[:nc], scratch[nc:2*nc]
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	owned := false
	for k := 0; k < nc; k++ {
		parent[k], size[k] = int32(k), 0
		owned = owned || s.CityOwner[k] == pl
	}
	if !owned {
		return dst
	}
	for k := range s.Paths {
		path := &s.Paths[k]
		if s.PathOwner[k] != pl || s.CityOwner[path.A] != pl || s.CityOwner[path.B] != pl {
			continue
		}
		// The smaller root wins, so a root is its component's smallest id.
		a, b := find(int32(path.A)), find(int32(path.B))
		if a < b {
			parent[b] = a
		} else if b < a {
			parent[a] = b
		}
	}
	for k := 0; k < nc; k++ {
		if s.CityOwner[k] == pl {
			size[find(int32(k))]++
		}
	}
	for k := 0; k < nc; k++ {
		if size[k] > 0 {
			dst = append(dst, int(size[k]))
		}
	}
	return dst
}
