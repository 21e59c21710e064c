package dominator

import "fmt"

// One round, in the exact order of SPEC §8. Each phase is a method so that
// the round reads like the specification.

// Step plays one round with the command lists the four players gave
// (lists that passed the player-side filter of SPEC §8.1, e.g.
// Orders.List; directions in each player's view). After it, g.Moves holds
// the printed movements and g.State the new state. An error wrapping
// ErrAbort means the course program aborts in this round: the game is
// over (a Match steps it no more) and its trace ends with the previous
// state.
func (g *Game) Step(cmds *[NumPlayers][]Command) error {
	if g.Done() {
		return ErrGameOver
	}
	g.Round++
	g.Moves = g.Moves[:0]
	g.validate(cmds)
	if err := g.execute(); err != nil {
		return err
	}
	g.heal()
	if err := g.respawn(); err != nil {
		return err
	}
	g.rebuildLists()
	g.score()
	return nil
}

// validate builds the list V of SPEC §8.2: the commands of players 0..3 in
// order, minus those for ids out of range, units the player does not own,
// directions out of range, diagonals of non-knights and None; directions
// turned to the real board.
func (g *Game) validate(cmds *[NumPlayers][]Command) {
	v := g.valid[:0]
	if cmds != nil {
		for p := 0; p < NumPlayers; p++ {
			for _, c := range cmds[p] {
				if c.ID < 0 || c.ID >= len(g.Units) {
					continue
				}
				u := &g.Units[c.ID]
				if u.Player != p || !c.Dir.Valid() || (c.Dir%2 == 1 && u.Type != Knight) || c.Dir == None {
					continue
				}
				v = append(v, Command{ID: c.ID, Dir: c.Dir.Rotate(p)})
			}
		}
	}
	g.valid = v
}

// execute runs V in the order of a random permutation (SPEC §8.3).
func (g *Game) execute() error {
	n := len(g.valid)
	if cap(g.perm) < n {
		g.perm = make([]int, n)
	}
	perm := g.rng.FullPermInto(g.perm[:n])
	r := int32(g.Round)
	for _, k := range perm {
		c := g.valid[k]
		g.moved[c.ID] = r
		if g.killed[c.ID] == r {
			continue
		}
		done, err := g.move(c.ID, c.Dir)
		if err != nil {
			return err
		}
		if done {
			g.Moves = append(g.Moves, c)
		}
	}
	return nil
}

// move is the movement procedure of SPEC §8.4 for unit id in real
// direction d (0..7). It reports whether the move is printed.
func (g *Game) move(id int, d Dir) (bool, error) {
	u := &g.Units[id]
	n := g.cfg.Cols
	p1 := u.Pos
	if !g.OnBoard(p1) || g.Grid[p1.I*n+p1.J].Type == Wall {
		return false, fmt.Errorf("%w: unit %d commanded from %v, a wall (a unit lost during placement)", ErrAbort, id, p1)
	}
	p2 := p1.Add(d)
	if !g.OnBoard(p2) {
		return false, nil
	}
	idx2 := p2.I*n + p2.J
	c2 := &g.Grid[idx2]
	if c2.Type == Wall {
		return false, nil
	}
	if c2.ID < 0 {
		g.stepTo(u, p2)
		if u.Type == Witch {
			g.rehaunt()
			return true, g.hauntKills()
		}
		if c2.Haunted {
			return false, g.spell(id)
		}
		if u.Type == Farmer {
			g.paint(idx2, u.Player)
		}
		return true, nil
	}
	v := &g.Units[c2.ID]
	switch {
	case u.Type == Witch && v.Type != Witch && u.Active:
		return false, fmt.Errorf("%w: active witch %d next to unit %d at %v", ErrAbort, id, v.ID, p2)
	case u.Type != Witch && v.Type == Witch && v.Active:
		return false, fmt.Errorf("%w: unit %d next to active witch %d at %v", ErrAbort, id, v.ID, p2)
	case u.Type != Knight, v.Type == Witch, v.Player == u.Player:
		return false, nil
	}
	v.Health -= g.rng.Int(g.cfg.DamageMin, g.cfg.DamageMax)
	if v.Health <= 0 {
		if err := g.capture(v, u.Player); err != nil {
			return false, err
		}
	}
	return true, nil
}

// stepTo moves u to p: the cell at u's recorded position loses its unit
// id, whatever it is (SPEC §8.4 "step").
func (g *Game) stepTo(u *Unit, p Pos) {
	n := g.cfg.Cols
	g.Grid[u.Pos.I*n+u.Pos.J].ID = -1
	g.Grid[p.I*n+p.J].ID = int16(u.ID)
	u.Pos = p
}

// rehaunt recomputes the witches' activity and the haunted cells (SPEC §6).
func (g *Game) rehaunt() {
	n := g.cfg.Cols
	for idx := range g.Grid {
		g.Grid[idx].Haunted = false
	}
	for p := 0; p < NumPlayers; p++ {
		for _, id := range g.Witches[p] {
			w := &g.Units[id]
			w.Active = true
			for _, o := range diamond2Ring {
				q := Pos{w.Pos.I + o.I, w.Pos.J + o.J}
				if !g.OnBoard(q) {
					continue
				}
				if v := g.Grid[q.I*n+q.J].ID; v >= 0 && g.Units[v].Type == Witch {
					w.Active = false
					break
				}
			}
			if !w.Active {
				continue
			}
			for _, o := range diamond2 {
				q := Pos{w.Pos.I + o.I, w.Pos.J + o.J}
				if g.OnBoard(q) {
					g.Grid[q.I*n+q.J].Haunted = true
				}
			}
		}
	}
}

// hauntKills casts the spell on every farmer and knight standing on a
// haunted cell, in row-major order (SPEC §8.4, after a witch step).
func (g *Game) hauntKills() error {
	for idx := range g.Grid {
		c := &g.Grid[idx]
		if c.ID < 0 || !c.Haunted || g.Units[c.ID].Type == Witch {
			continue
		}
		if err := g.spell(int(c.ID)); err != nil {
			return err
		}
	}
	return nil
}

// spell kills unit id by the witches around it (SPEC §8.6): it goes to the
// team of a uniformly drawn foreign active witch of its diamond, or, with
// only its own team's witches there, to a uniformly drawn other team.
func (g *Game) spell(id int) error {
	v := &g.Units[id]
	n := g.cfg.Cols
	var teams [64]int
	t := teams[:0]
	own := false
	for _, o := range diamond2 {
		q := Pos{v.Pos.I + o.I, v.Pos.J + o.J}
		if !g.OnBoard(q) {
			continue
		}
		w := g.Grid[q.I*n+q.J].ID
		if w < 0 || g.Units[w].Type != Witch || !g.Units[w].Active {
			continue
		}
		if p := g.Units[w].Player; p == v.Player {
			own = true
		} else {
			t = append(t, p)
		}
	}
	switch {
	case len(t) > 0:
		return g.capture(v, t[g.rng.Int(0, len(t)-1)])
	case !own:
		return fmt.Errorf("%w: spell on unit %d at %v with no active witch around", ErrAbort, id, v.Pos)
	}
	return g.capture(v, (v.Player+g.rng.Int(1, 3))%NumPlayers)
}

// capture gives unit v to player q (SPEC §8.5): full health, off the
// board, marked killed until it respawns.
func (g *Game) capture(v *Unit, q int) error {
	if v.Player == q {
		return fmt.Errorf("%w: unit %d captured by its own player %d", ErrAbort, v.ID, q)
	}
	v.Player = q
	v.Health = g.cfg.MaxHealth(v.Type)
	n := g.cfg.Cols
	g.Grid[v.Pos.I*n+v.Pos.J].ID = -1
	g.killed[v.ID] = int32(g.Round)
	return nil
}

// heal gives health back to every farmer and knight that was neither
// killed nor in V this round (SPEC §8.8).
func (g *Game) heal() {
	r := int32(g.Round)
	for id := range g.Units {
		u := &g.Units[id]
		if u.Type == Witch || g.killed[id] == r || g.moved[id] == r {
			continue
		}
		u.Health = min(u.Health+g.cfg.Regen(u.Type), g.cfg.MaxHealth(u.Type))
	}
}

// respawn places the units killed this round (SPEC §8.9): knights then
// farmers, players 0..3, in their new owners' boxes; the overflow goes to
// random available cells of the whole interior, whose permutation is
// drawn every round.
func (g *Game) respawn() error {
	r := int32(g.Round)
	for t := range g.dead {
		for p := range g.dead[t] {
			g.dead[t][p] = g.dead[t][p][:0]
		}
	}
	for id := range g.Units {
		if g.killed[id] != r {
			continue
		}
		u := &g.Units[id]
		t := 1
		if u.Type == Knight {
			t = 0
		}
		g.dead[t][u.Player] = append(g.dead[t][u.Player], id)
	}
	extra := g.extra[:0]
	for t := range g.dead {
		for p := 0; p < NumPlayers; p++ {
			extra = g.spawn(p, g.dead[t][p], extra)
		}
	}
	g.extra = extra
	return g.placeExtras(extra)
}

// placeExtras draws P(len(E)) over the available interior cells E and
// places the extra units on the first entries (SPEC §8.9 step 3).
func (g *Game) placeExtras(extra []int) error {
	rows, n := g.cfg.Rows, g.cfg.Cols
	if len(extra) == 0 {
		count := 0
		for i := 1; i <= rows-2; i++ {
			row := g.Grid[i*n+1 : i*n+n-1]
			for k := range row {
				if row[k].Type != Wall && row[k].ID < 0 && !row[k].Haunted {
					count++
				}
			}
		}
		g.rng.SkipFullPerm(count)
		return nil
	}
	free := g.cells2[:0]
	for i := 1; i <= rows-2; i++ {
		for j := 1; j <= n-2; j++ {
			if g.available(i*n + j) {
				free = append(free, int32(i*n+j))
			}
		}
	}
	g.cells2 = free
	if len(free) < len(extra) {
		return fmt.Errorf("%w: %d units to respawn anywhere but only %d free cells", ErrAbort, len(extra), len(free))
	}
	lp := &g.lazy
	lp.StartFull(&g.rng, len(free))
	for _, id := range extra {
		e, _ := lp.Next()
		idx := int(free[e])
		g.place(id, Pos{idx / n, idx % n})
	}
	lp.Finish()
	return nil
}
