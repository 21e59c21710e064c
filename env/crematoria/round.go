package crematoria

// One round, in the exact order of SPEC §8. Each phase is a method so the
// round reads like the specification.

// Step plays one round with the commands each player submitted (lists that
// already passed the player-side filter of SPEC §8.1, e.g. Orders.List).
// After it, g.Moves holds the printed movements and g.State the new state.
func (g *Game) Step(cmds *[NumPlayers][]Command) error {
	if g.Done() {
		return ErrGameOver
	}
	g.Moves = g.Moves[:0]
	g.startNec = append(g.startNec[:0], g.Necromongers...)
	g.validate(cmds)
	g.interleave()
	g.necromongerPhase()
	g.hellhoundPhase()
	g.sun()
	g.collectDead()
	g.createGem()
	g.necromongerArrival()
	if err := g.respawn(); err != nil {
		return err
	}
	g.heal()
	g.rebuildUnitLists()
	g.Round++
	return nil
}

// validate is the engine-side validation (SPEC §8.2).
func (g *Game) validate(cmds *[NumPlayers][]Command) {
	for p := 0; p < NumPlayers; p++ {
		q := g.queues[p][:0]
		if cmds != nil {
			for _, c := range cmds[p] {
				if !g.ValidID(c.ID) || g.Units[c.ID].Player != p || !c.Dir.Valid() || c.Dir == None {
					continue
				}
				q = append(q, c)
			}
		}
		g.queues[p] = q
	}
}

// interleave executes the players' queues layer by layer in a random order
// among players (SPEC §8.3).
func (g *Game) interleave() {
	var idx [NumPlayers]int
	var active [NumPlayers]int
	var rho [NumPlayers]int
	for {
		q := 0
		for p := 0; p < NumPlayers; p++ {
			if idx[p] < len(g.queues[p]) {
				active[q] = p
				q++
			}
		}
		if q == 0 {
			return
		}
		g.rng.PermInto(rho[:q])
		for x := 0; x < q; x++ {
			p := active[rho[x]]
			c := g.queues[p][idx[p]]
			idx[p]++
			if g.Units[c.ID].Health <= 0 {
				continue
			}
			if g.move(c.ID, c.Dir) {
				g.Moves = append(g.Moves, c)
			}
		}
	}
}

func (g *Game) nearHellhound(t Pos) bool {
	for _, h := range g.Hellhounds {
		if Cheb(g.Units[h].Pos, t) <= 1 {
			return true
		}
	}
	return false
}

// move is the movement procedure (SPEC §8.4). It reports success.
func (g *Game) move(id int, d Dir) bool {
	if d == None {
		return true
	}
	u := &g.Units[id]
	t := u.Pos.Add(d)
	if t.I < 0 || t.I >= Rows || t.K < 0 || t.K > 1 {
		return false
	}
	if (d == Up || d == Down) && g.Cells[u.Pos.Index()].Type != Elevator {
		return false
	}
	if u.Type == Hellhound {
		g.stepTo(u, t)
		for dd := Bottom; dd <= LB; dd++ {
			n := t.Add(dd)
			if n.I < 0 || n.I >= Rows {
				continue
			}
			if v := g.Cells[n.Index()].ID; v >= 0 {
				g.kill(int(v), -1)
			}
		}
		return true
	}
	tc := &g.Cells[t.Index()]
	if tc.ID < 0 {
		if tc.Type == Rock {
			return false
		}
		if (t.K == 0 && g.nearHellhound(t)) || (t.K == 1 && Daylight(t, g.Round)) {
			g.kill(id, -1)
			return true
		}
		g.stepTo(u, t)
		if u.Type == Pioneer {
			if tc.Type == Cave {
				g.setOwner(tc, u.Player)
			}
			if tc.Gem {
				tc.Gem = false
				g.NbGems[u.Player]++
			}
		}
		return true
	}
	v := &g.Units[tc.ID]
	if u.Player >= 0 && v.Player == u.Player {
		return false
	}
	if v.Type == Hellhound {
		g.kill(id, -1)
		return true
	}
	if u.Type == Pioneer {
		return false
	}
	var dmg int
	if u.Type == Furyan {
		dmg = g.rng.Int(MinDamageFuryan, MaxDamageFuryan)
	} else {
		dmg = g.rng.Int(MinDamageNecro, MaxDamageNecro)
	}
	if dmg > v.Health {
		dmg = v.Health
	}
	v.Health -= dmg
	if v.Health == 0 {
		g.kill(v.ID, u.Player)
	}
	return true
}

func (g *Game) stepTo(u *Unit, t Pos) {
	g.noteCell(u.Pos.Index())
	g.noteCell(t.Index())
	g.Cells[u.Pos.Index()].ID = -1
	u.Pos = t
	g.Cells[t.Index()].ID = int16(u.ID)
}

// kill is Kill(v, by) of SPEC §8.5; by is the killer's group or -1.
func (g *Game) kill(id, by int) {
	v := &g.Units[id]
	if v.Pos.OnBoard() {
		if c := &g.Cells[v.Pos.Index()]; int(c.ID) == id {
			c.ID = -1
			g.noteCell(v.Pos.Index())
		}
	}
	v.Health = 0
	if v.Type == Necromonger {
		v.Pos = NoPos
		return
	}
	if by >= 0 {
		v.Player = by
		return
	}
	x := g.rng.Int(0, g.cfg.NbPlayers-2)
	if x < v.Player {
		v.Player = x
	} else {
		v.Player = x + 1
	}
}
