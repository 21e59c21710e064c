package pandemic

import "strconv"

// The virus phase (SPEC §8.7): emission, diffusion, infection and healing,
// damage.

// emitAndDiffuse adds the emission of every infected, unmasked live unit,
// then diffuses the virus one step (SPEC §8.7 passes 1 and 2).
//
// The virus is sparse: only the cells in g.active (virus > 0) and their
// compatible neighbours can hold virus after the step, so only they are
// computed; every new value is computed from the old grid before any is
// written.
func (g *Game) emitAndDiffuse() {
	s := &g.State
	for id := range s.Units {
		u := &s.Units[id]
		if !g.killed[id] && u.Damage > 0 && !u.Mask {
			idx := s.Idx(u.Pos)
			if s.Virus[idx] == 0 {
				g.active = append(g.active, int32(idx))
			}
			s.Virus[idx] += VirusEmission
		}
	}
	g.stamp++
	if g.stamp == 0 {
		clear(g.mark)
		g.stamp = 1
	}
	cols := int32(s.Cols)
	offs := [4]int32{cols, -cols, 1, -1}
	cand := g.cand[:0]
	for _, idx := range g.active {
		if g.mark[idx] != g.stamp {
			g.mark[idx] = g.stamp
			cand = append(cand, idx)
		}
		bits := g.compat[idx]
		for k, off := range offs {
			if bits&(1<<k) != 0 {
				if n := idx + off; g.mark[n] != g.stamp {
					g.mark[n] = g.stamp
					cand = append(cand, n)
				}
			}
		}
	}
	vals := g.vals[:0]
	for _, idx := range cand {
		vals = append(vals, uint8(g.diffused(s.Virus, int(idx))))
	}
	active := g.active[:0]
	for k, idx := range cand {
		s.Virus[idx] = vals[k]
		if vals[k] > 0 {
			active = append(active, idx)
		}
	}
	g.active, g.cand, g.vals = active, cand, vals
}

// initVirus lists the cells holding virus (a FIXED map may start with some).
func (g *Game) initVirus() {
	g.mark = make([]uint32, len(g.Virus))
	g.active = g.active[:0]
	for idx, v := range g.Virus {
		if v > 0 {
			g.active = append(g.active, int32(idx))
		}
	}
}

// infectAndHeal infects uninfected units and heals infected ones (SPEC
// §8.7 pass 3).
func (g *Game) infectAndHeal() {
	s := &g.State
	for id := range s.Units {
		if g.killed[id] {
			continue
		}
		u := &s.Units[id]
		switch {
		case u.Immune:
		case u.Damage == 0:
			p := InfectProb(int(s.Virus[s.Idx(u.Pos)]), u.Mask, &g.cfg)
			if bernoulli(&g.rng, p) {
				u.Damage, u.Turns = g.rng.Int(2, 5), 1
			}
		default:
			u.Turns++
			if bernoulli(&g.rng, HealProb(u.Turns)) {
				u.Damage, u.Immune = 0, true
			}
		}
	}
}

// virusDamage applies the virus damage of every unit, including those
// killed by an attack this round (SPEC §8.7 pass 4).
func (g *Game) virusDamage() error {
	s := &g.State
	for id := range s.Units {
		u := &s.Units[id]
		u.Health -= u.Damage
		if u.Health >= 0 {
			continue
		}
		if g.killed[id] {
			return errKilledTwice(id)
		}
		g.kill(id, g.rng.Int(0, NumPlayers-1))
	}
	return nil
}

func errKilledTwice(id int) error {
	return &unitError{id: id, err: ErrKilledTwice}
}

// unitError is an engine error about one unit.
type unitError struct {
	id  int
	err error
}

func (e *unitError) Error() string { return "unit " + strconv.Itoa(e.id) + ": " + e.err.Error() }
func (e *unitError) Unwrap() error { return e.err }

// diffused returns the virus of cell idx after one diffusion step of the
// grid src (SPEC §8.7 pass 2).
func (g *Game) diffused(src []uint8, idx int) int {
	bits := g.compat[idx]
	cols := g.Cols
	v := int(src[idx]) - 1
	if bits&1 != 0 {
		v = max(v, int(src[idx+cols])-1)
	}
	if bits&2 != 0 {
		v = max(v, int(src[idx-cols])-1)
	}
	if bits&4 != 0 {
		v = max(v, int(src[idx+1])-1)
	}
	if bits&8 != 0 {
		v = max(v, int(src[idx-1])-1)
	}
	switch g.Types[idx] {
	case Wall:
		return 0
	case Grass:
		v = min(v, MaxVirusGrass)
	default:
		v = min(v, MaxVirusCity)
	}
	return max(v, 0)
}
