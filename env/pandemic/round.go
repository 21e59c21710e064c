package pandemic

import (
	"fmt"
	"slices"
)

// One round, in the exact order of SPEC §8. Each phase is a method so the
// round reads like the specification.

// Step plays one round with the commands each player handed to the engine
// (lists that already passed the player-side filter of SPEC §8.1, e.g.
// Orders.List). After it, g.Moves holds the printed movements and g.State
// the new state.
func (g *Game) Step(cmds *[NumPlayers][]Command) error {
	if g.Done() {
		return ErrGameOver
	}
	g.Moves, g.MovesDone = g.Moves[:0], false
	g.Round++
	g.collect(cmds)
	g.execute()
	g.MovesDone = true
	g.emitAndDiffuse()
	g.infectAndHeal()
	if err := g.virusDamage(); err != nil {
		return fmt.Errorf("round %d: %w", g.Round, err)
	}
	g.rebuildUnitLists()
	if err := g.respawn(); err != nil {
		return fmt.Errorf("round %d: respawn: %w", g.Round, err)
	}
	if err := g.spawnMask(); err != nil {
		return fmt.Errorf("round %d: %w", g.Round, err)
	}
	g.score()
	for _, id := range g.dead {
		g.killed[id] = false
	}
	g.dead = g.dead[:0]
	return nil
}

// collect is the engine-side collection (SPEC §8.2).
func (g *Game) collect(cmds *[NumPlayers][]Command) {
	v := g.valid[:0]
	n := len(g.Units)
	if cmds != nil {
		for p := 0; p < NumPlayers; p++ {
			for _, c := range cmds[p] {
				if c.ID < 0 || c.ID >= n || g.Units[c.ID].Player != p || !c.Dir.Valid() || c.Dir == None {
					continue
				}
				v = append(v, c)
			}
		}
	}
	g.valid = v
}

// execute runs the collected commands in a random order (SPEC §8.3).
func (g *Game) execute() {
	if cap(g.perm) < len(g.valid) {
		g.perm = make([]int, len(g.valid), 2*len(g.valid))
	}
	perm := g.rng.FullPermInto(g.perm[:len(g.valid)])
	for _, k := range perm {
		c := g.valid[k]
		if g.killed[c.ID] {
			continue
		}
		if g.move(c.ID, c.Dir) {
			g.Moves = append(g.Moves, c)
		}
	}
}

// move is the move procedure (SPEC §8.4). It reports success.
func (g *Game) move(id int, d Dir) bool {
	s := &g.State
	u := &s.Units[id]
	q := u.Pos.Add(d)
	if !s.OnBoard(q) {
		return false
	}
	qi := s.Idx(q)
	if s.Types[qi] == Wall {
		return false
	}
	if vid := s.UnitAt[qi]; vid >= 0 {
		v := &s.Units[vid]
		if v.Player == u.Player {
			return false
		}
		v.Health -= g.rng.Int(AttackMin, AttackMax)
		if v.Health >= 0 {
			return false
		}
		g.kill(int(vid), u.Player)
	}
	s.UnitAt[s.Idx(u.Pos)] = -1
	u.Pos = q
	s.UnitAt[qi] = int32(id)
	if s.MaskAt[qi] && !u.Mask {
		u.Mask = true
		s.MaskAt[qi] = false
		s.removeMask(q)
	}
	return true
}

// Attack damage range (SPEC §2.2).
const (
	AttackMin = 25
	AttackMax = 40
)

// removeMask removes q from the mask list: swapped with the last entry,
// which is dropped (SPEC §6).
func (s *State) removeMask(q Pos) {
	for k, p := range s.Masks {
		if p == q {
			last := len(s.Masks) - 1
			s.Masks[k] = s.Masks[last]
			s.Masks = s.Masks[:last]
			return
		}
	}
}

// kill is Kill(v, newOwner) of SPEC §8.6.
func (g *Game) kill(id, newOwner int) {
	s := &g.State
	v := &s.Units[id]
	g.killed[id] = true
	g.dead = append(g.dead, id)
	s.UnitAt[s.Idx(v.Pos)] = -1
	v.Player = newOwner
	v.Pos = NoPos
	v.Health = g.cfg.InitialHealth
	v.Immune, v.Mask = false, false
	if g.rng.Int(0, 4) != 0 {
		v.Damage, v.Turns = 0, 0
	} else {
		v.Damage, v.Turns = g.rng.Int(2, 4), 1
	}
}

// respawn places the units killed this round, in increasing id order
// (SPEC §8.10).
func (g *Game) respawn() error {
	slices.Sort(g.dead)
	return g.spawn(g.dead)
}

// Mask spawn period (SPEC §2.2).
const MaskPeriod = 5

// spawnMask drops a mask every MaskPeriod rounds but the last (SPEC §8.11).
func (g *Game) spawnMask() error {
	s := &g.State
	if s.Round%MaskPeriod != 0 || s.Round >= g.cfg.NbRounds {
		return nil
	}
	for tries := 1; ; tries++ {
		i := g.rng.Int(2, s.Rows-3)
		j := g.rng.Int(2, s.Cols-3)
		idx := i*s.Cols + j
		if s.Types[idx] == Grass && s.UnitAt[idx] < 0 && !s.MaskAt[idx] {
			s.MaskAt[idx] = true
			s.Masks = append(s.Masks, Pos{i, j})
			return nil
		}
		if tries%100000 == 0 && !s.hasMaskCell() {
			return ErrNoMaskCell
		}
	}
}

// hasMaskCell reports whether some cell can take a new mask.
func (s *State) hasMaskCell() bool {
	for i := 2; i <= s.Rows-3; i++ {
		for j := 2; j <= s.Cols-3; j++ {
			idx := i*s.Cols + j
			if s.Types[idx] == Grass && s.UnitAt[idx] < 0 && !s.MaskAt[idx] {
				return true
			}
		}
	}
	return false
}
