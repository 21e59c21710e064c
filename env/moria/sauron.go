package moria

import "fmt"

// Sauron's turn: orcs, trolls, then the Balrog (SPEC §8.6-§8.8).

// far is the distance of cells the orcs and trolls never enter (the
// reference's 10^9).
const far = 1000000000

// sauronMaps holds the distance maps of one Sauron phase. The orcs' map
// is computed before any orc acts, when the first living orc is met (orc
// attacks may kill its sources); the trolls' map depends only on the cell
// types and the Balrog, which the phase does not change, so it is computed
// when first needed.
type sauronMaps struct {
	orcOK, trollOK bool
}

// options lists what Sauron's unit u may do (SPEC §8.6, §8.7): the attack
// directions, else the move directions the rules leave to chance. With no
// option the unit stays (None, no draw).
func (g *Game) options(u *Unit, maps *sauronMaps) (att, cand []Dir) {
	sc := &g.round
	nAtt := 0
	for d := Bottom; d < None; d++ {
		if n := u.Pos.Add(d); n.OnBoard() {
			if c := &g.Cells[n.Index()]; c.ID >= 0 && g.Units[c.ID].Player >= 0 {
				sc.attack[nAtt] = d
				nAtt++
			}
		}
	}
	if nAtt > 0 {
		return sc.attack[:nAtt], nil
	}
	var dist *distMap
	switch {
	case u.Type == Orc:
		dist = &sc.orcMap // built before the first orc acted
	case g.Cells[u.Pos.Index()].Type == Outside:
		if !maps.trollOK {
			g.trollMap(&sc.trollMap)
			maps.trollOK = true
		}
		dist = &sc.trollMap
	default:
		// A troll inside Moria wanders over empty caves away from the
		// Balrog.
		b := g.Units[g.BalrogID].Pos
		n := 0
		for d := Bottom; d < None; d++ {
			t := u.Pos.Add(d)
			if !t.OnBoard() {
				continue
			}
			if c := &g.Cells[t.Index()]; c.ID < 0 && c.Type == Cave && Manh(t, b) > balrogSafeManh {
				sc.cands[n] = d
				n++
			}
		}
		return nil, sc.cands[:n]
	}
	// The empty neighbours at the smallest finite distance.
	n := 0
	best := int32(far)
	for d := Bottom; d < None; d++ {
		t := u.Pos.Add(d)
		if !t.OnBoard() || g.Cells[t.Index()].ID >= 0 {
			continue
		}
		v := dist.value(g, t.Index())
		if v >= far {
			continue
		}
		if v < best {
			best, n = v, 0
		}
		if v == best {
			sc.cands[n] = d
			n++
		}
	}
	return nil, sc.cands[:n]
}

// sauronTurn plays the turn of orc or troll u: attack a random adjacent
// dwarf or wizard, else a random move among the candidates (SPEC §8.6,
// §8.7).
func (g *Game) sauronTurn(u *Unit, maps *sauronMaps) {
	att, cand := g.options(u, maps)
	dir := None
	switch {
	case len(att) > 0:
		dir = att[g.rng.Int(0, len(att)-1)]
		v := &g.Units[g.Cells[u.Pos.Add(dir).Index()].ID]
		if u.Type == Orc {
			v.Health -= g.rng.Int(MinDamageOrc, MaxDamageOrc)
		} else {
			v.Health -= g.rng.Int(MinDamageTroll, MaxDamageTroll)
		}
		if v.Health <= 0 {
			g.kill(v.ID, -1)
		}
	case len(cand) > 0:
		dir = cand[g.rng.Int(0, len(cand)-1)]
		g.sauronStep(u, dir)
	}
	g.Moves = append(g.Moves, Move{ID: u.ID, Dir: dir})
}

// sauronPhase moves the living orcs, then every troll, killed ones
// included: a troll killed by a dwarf this round still acts from where it
// fell (SPEC §8.6, §8.7).
func (g *Game) sauronPhase() {
	var maps sauronMaps
	for id := g.cfg.FirstOrc(); id < g.cfg.FirstTroll(); id++ {
		if u := &g.Units[id]; u.Health > 0 {
			if !maps.orcOK {
				g.orcMap(&g.round.orcMap)
				maps.orcOK = true
			}
			g.sauronTurn(u, &maps)
		}
	}
	for id := g.cfg.FirstTroll(); id < g.cfg.BalrogID(); id++ {
		g.sauronTurn(&g.Units[id], &maps)
	}
}

// sauronStep moves an orc or a troll one step: the old cell is freed, a
// cave entered loses its owner.
func (g *Game) sauronStep(u *Unit, d Dir) {
	t := u.Pos.Add(d)
	g.setID(u.Pos.Index(), -1)
	u.Pos = t
	ti := t.Index()
	g.setID(ti, u.ID)
	if g.Cells[ti].Type == Cave {
		g.setOwner(ti, -1)
	}
}

// balrogTargets returns the dwarves and wizards inside Moria nearest to
// the Balrog (Manhattan), killed ones at their stale positions included,
// in id order (SPEC §8.8).
func (g *Game) balrogTargets() []int {
	b := g.Units[g.BalrogID].Pos
	targets := g.round.targets[:0]
	best := far
	for id := 0; id < g.cfg.FirstOrc(); id++ {
		p := g.Units[id].Pos
		if !p.OnBoard() || g.Cells[p.Index()].Type == Outside {
			continue
		}
		m := Manh(p, b)
		if m < best {
			best, targets = m, targets[:0]
		}
		if m == best {
			targets = append(targets, id)
		}
	}
	g.round.targets = targets
	return targets
}

// balrogDir returns the Balrog's step towards target t: the first of
// Bottom, Right, Top, Left into Moria that minimises the Euclidean distance.
func (g *Game) balrogDir(t Pos) Dir {
	b := g.Units[g.BalrogID].Pos
	dir, best := None, far
	for _, d := range [4]Dir{Bottom, Right, Top, Left} {
		q := b.Add(d)
		if !g.Inside(q) {
			continue
		}
		di, dj := q.I-t.I, q.J-t.J
		if e := di*di + dj*dj; e < best {
			dir, best = d, e
		}
	}
	return dir
}

// balrogPhase moves the Balrog towards a nearest dwarf or wizard and kills
// everything around it; with no target it stays and kills nobody (SPEC
// §8.8).
func (g *Game) balrogPhase() error {
	dir := None
	if targets := g.balrogTargets(); len(targets) > 0 {
		t := g.Units[targets[g.rng.Int(0, len(targets)-1)]].Pos
		dir = g.balrogDir(t)
	}
	if dir != None {
		if err := g.balrogStep(dir, g.kill); err != nil {
			return err
		}
	}
	g.Moves = append(g.Moves, Move{ID: g.BalrogID, Dir: dir})
	return nil
}

// balrogStep moves the Balrog in direction dir and kills every unit id
// around its new cell with kill(id, -1); the cells around lose their
// owner. A unit id on the new cell is the reference's failed assertion.
func (g *Game) balrogStep(dir Dir, kill func(id, by int)) error {
	bal := &g.Units[g.BalrogID]
	q := bal.Pos.Add(dir)
	if id := g.Cells[q.Index()].ID; id >= 0 {
		return fmt.Errorf("%w: the Balrog's step %v to %v meets unit id %d (a stale troll id, docs/rules/moria.md#a-round-in-order)", ErrBalrogBlocked, dir, q, id)
	}
	g.setID(bal.Pos.Index(), -1)
	bal.Pos = q
	g.setID(q.Index(), g.BalrogID)
	for d := Bottom; d < None; d++ {
		ni := q.Add(d).Index()
		g.setOwner(ni, -1)
		if id := g.Cells[ni].ID; id >= 0 {
			kill(int(id), -1)
		}
	}
	return nil
}
