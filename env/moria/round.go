package moria

import (
	"jgym/course"
)

// One round, in the exact order of SPEC §8. Each phase is a method so the
// round reads like the specification.

// roundScratch holds the buffers a round reuses.
type roundScratch struct {
	queues   [NumPlayers][]Command
	marked   []uint32 // per unit id: stamp of the round a command was accepted
	stamp    uint32
	dead     []int // killed this round, in kill order (flags to clear)
	orcMap   distMap
	trollMap distMap
	cands    [8]Dir
	attack   [8]Dir
	deadOrcs []int
	abysses  []int
	perm     []int
	targets  []int
	reborn   []int // dwarves, wizards and trolls to reborn, id order
	cells    []int // rebirth cells, in placement order
	ring     []int
	alpha    course.LazyPerm
	occ      [Rows]uint64 // cells holding a unit id, one row per word
	aborted  error
}

// Step plays one round with the commands each player gave (lists that
// already passed the player-side filter of SPEC §8.1, e.g. Orders.List;
// nil plays a round without commands). After it, g.Moves holds the printed
// movements and g.State the new state.
//
// When the course engine aborts (an error wrapping ErrAbort), the game is
// left in the middle of the round and every later Step returns the same
// error; the trace of such a game ends with the last complete state.
func (g *Game) Step(cmds *[NumPlayers][]Command) error {
	if g.round.aborted != nil {
		return g.round.aborted
	}
	if g.Done() {
		return ErrGameOver
	}
	g.Moves = g.Moves[:0]
	for _, id := range g.round.dead {
		g.killed[id] = false
	}
	g.round.dead = g.round.dead[:0]
	g.validate(cmds)
	g.interleave()
	g.sauronPhase()
	if err := g.balrogPhase(); err != nil {
		return g.abort(err)
	}
	g.orcBirths()
	if err := g.rebirth(); err != nil {
		return g.abort(err)
	}
	g.heal()
	g.rebuildLists()
	g.Round++
	return nil
}

// abort leaves the game in the middle of the round: every later Step
// returns err (a Match names the round).
func (g *Game) abort(err error) error {
	g.round.aborted = err
	return err
}

// Killed reports whether unit id was killed in the last round played
// (SPEC §8.5).
func (g *Game) Killed(id int) bool { return g.killed[id] }

// validate is the engine-side validation (SPEC §8.2).
func (g *Game) validate(cmds *[NumPlayers][]Command) {
	sc := &g.round
	if len(sc.marked) != len(g.Units) {
		sc.marked, sc.stamp = make([]uint32, len(g.Units)), 0
	}
	if sc.stamp++; sc.stamp == 0 {
		clear(sc.marked)
		sc.stamp = 1
	}
	for p := 0; p < NumPlayers; p++ {
		q := sc.queues[p][:0]
		if cmds != nil {
			for _, c := range cmds[p] {
				if c.ID < 0 || c.ID >= len(g.Units) {
					continue
				}
				u := &g.Units[c.ID]
				if (u.Health <= 0 && u.Type != Balrog) || u.Player != p || sc.marked[c.ID] == sc.stamp {
					continue
				}
				sc.marked[c.ID] = sc.stamp
				if !c.Dir.Valid() || c.Dir == None || (u.Type == Wizard && c.Dir.Diagonal()) {
					continue
				}
				q = append(q, c)
			}
		}
		sc.queues[p] = q
	}
}

// interleave executes the queues, one R(1,|A|) draw per command among the
// players that still have commands (SPEC §8.3).
func (g *Game) interleave() {
	var next [NumPlayers]int
	var active [NumPlayers]int
	for {
		n := 0
		for p := 0; p < NumPlayers; p++ {
			if next[p] < len(g.round.queues[p]) {
				active[n] = p
				n++
			}
		}
		if n == 0 {
			return
		}
		p := active[g.rng.Int(1, n)-1]
		c := g.round.queues[p][next[p]]
		next[p]++
		if g.killed[c.ID] {
			continue
		}
		if g.move(c.ID, c.Dir) {
			g.Moves = append(g.Moves, c)
		}
	}
}

// nearBalrog reports whether cell t is within Chebyshev distance 1 of the
// Balrog.
func (g *Game) nearBalrog(t Pos) bool { return Cheb(t, g.Units[g.BalrogID].Pos) <= 1 }

// move is the movement of a dwarf or wizard (SPEC §8.4). It reports
// success (the move is printed).
func (g *Game) move(id int, d Dir) bool {
	u := &g.Units[id]
	t := u.Pos.Add(d)
	if !t.OnBoard() {
		return false
	}
	ti := t.Index()
	tc := &g.Cells[ti]
	if tc.ID >= 0 {
		v := &g.Units[tc.ID]
		if u.Type == Wizard || v.Player == u.Player || v.Type == Balrog {
			// No clan unit is ever next to the Balrog in this phase: the
			// Balrog case is unreachable, kept out for safety.
			return false
		}
		v.Health -= g.rng.Int(MinDamageDwarf, MaxDamageDwarf)
		if v.Health <= 0 {
			g.kill(v.ID, u.Player)
		}
		return true
	}
	switch tc.Type {
	case Granite:
		return false
	case Rock:
		if u.Type == Wizard {
			return false
		}
		g.noteCell(ti)
		if tc.Turns--; tc.Turns <= 0 {
			tc.Turns = 0
			tc.Type = Cave
			if g.rng.Int(1, InvProbAbyss) == 1 {
				tc.Type = Abyss
				g.addAbyss(ti)
			}
		}
		return true
	case Abyss:
		g.kill(id, -1)
		return true
	}
	if g.nearBalrog(t) {
		g.kill(id, -1)
		return true
	}
	g.setID(u.Pos.Index(), -1)
	u.Pos = t
	g.setID(ti, id)
	if u.Type == Dwarf && tc.Type == Cave {
		g.setOwner(ti, u.Player)
		if tc.Treasure {
			tc.Treasure = false // cell ti is in the cell log (setID)
			g.NbTreasures[u.Player]++
		}
	}
	return true
}

// kill is Kill(v, by) of SPEC §8.5; by is the killer's clan or -1.
func (g *Game) kill(id, by int) {
	v := &g.Units[id]
	if v.Pos.OnBoard() {
		g.setID(v.Pos.Index(), -1)
	}
	if !g.killed[id] {
		g.killed[id] = true
		g.round.dead = append(g.round.dead, id)
	}
	switch v.Type {
	case Orc:
		v.Health, v.Pos = 0, NoPos
	case Troll:
		v.Health = TrollHealth
	case Dwarf, Wizard:
		v.Health = v.Type.MaxHealth()
		if by >= 0 {
			v.Player = by
			return
		}
		if x := g.rng.Int(0, NumPlayers-2); x < v.Player {
			v.Player = x
		} else {
			v.Player = x + 1
		}
	}
}

// setID puts unit id (or -1) on cell idx and keeps the occupancy rows up
// to date.
func (g *Game) setID(idx, id int) {
	g.noteCell(idx)
	g.Cells[idx].ID = int16(id)
	bit := uint64(1) << (idx % Cols)
	if id >= 0 {
		g.round.occ[idx/Cols] |= bit
	} else {
		g.round.occ[idx/Cols] &^= bit
	}
}

// setOwner gives cell idx to clan p (or -1) and keeps the counts up to
// date.
func (g *Game) setOwner(idx, p int) {
	c := &g.Cells[idx]
	if int(c.Owner) == p {
		return
	}
	g.noteCell(idx)
	if c.Owner >= 0 {
		g.NbCells[c.Owner]--
	}
	c.Owner = int8(p)
	if p >= 0 {
		g.NbCells[p]++
	}
}

// addAbyss records a new Abyss cell, keeping the list row-major.
func (g *Game) addAbyss(idx int) {
	k := len(g.abyssCells)
	g.abyssCells = append(g.abyssCells, idx)
	for k > 0 && g.abyssCells[k-1] > idx {
		g.abyssCells[k], g.abyssCells[k-1] = g.abyssCells[k-1], idx
		k--
	}
}
