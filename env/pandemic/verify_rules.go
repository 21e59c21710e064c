package pandemic

import (
	"fmt"
	"slices"
)

// Checking a round against the rules (no commands).
//
// The board generator's stream cannot be rebuilt from a trace: the command
// permutation depends on how many valid commands the players gave, and
// failed commands are never printed. So each round is replayed with the
// engine's procedures, every random outcome taken from the trace and
// checked against what the rules allow:
//
//   - printed commands are applied in printed order (the execution order);
//     each must succeed, move a live unit at most once, and an attack must
//     be able to kill its victim given the failed (unprinted) attacks it
//     may have taken;
//   - what the trace does not print (whether a unit is infected or immune,
//     its virus damage, whether it wears a mask) is tracked as the set of
//     values the history allows, and narrowed every round: the virus grid
//     shows which units emitted, health shows the damage taken;
//   - the virus grid must be the diffusion of the previous grid plus the
//     emission of some set of units that may be infected and unmasked;
//   - a unit's health may drop by the failed attacks of enemy units that
//     stood next to it and did not move, plus its virus damage; a unit
//     that dies of the virus comes back with full health under any owner,
//     one killed by an attack under its killer's owner;
//   - dead units must respawn where Spawn can put them (SPEC §5.3), in id
//     order; a new mask appears only on mask rounds, on a free interior
//     grass cell; mask pickups must explain the mask list;
//   - everything else (the map, ownership, scores, the round counter) is
//     deterministic and compared exactly.
//
// Unit statuses are bit sets over: uninfected, infected with damage 1..5,
// immune.
const (
	stClean    = 1 << 0
	stImmune   = 1 << 6
	stInfected = 0x3e // damage 1..5 in bits 1..5
	stRespawn  = stClean | 1<<2 | 1<<3 | 1<<4
	stNewInfec = 1<<2 | 1<<3 | 1<<4 | 1<<5 // R(2, 5)
)

// Mask knowledge of a unit.
const (
	maskNo uint8 = iota
	maskYes
	maskUnknown
)

// Bounds of the enumerations of one round; beyond them the check of that
// part of the round is skipped (it never happens in the reference traces).
const (
	maxEmitterCluster = 12
	maxMaskBranches   = 12
	maxDeathBranches  = 8
)

type ruleChecker struct {
	tr   *Trace
	g    *Game
	cfg  *Config
	st   []uint8 // status set per unit
	mask []uint8 // mask knowledge per unit
	r    int     // checking the round from state r to state r+1

	startPos            []Pos
	startAt             []int32 // unit id at each cell at the start of the round
	startOwner          []int
	startHealth         []int
	moved, attackKilled []bool
	virusDead           []bool
	events              []maskEvent
	ring                []bool
	ambiguous           []int
	noDeathSt           []uint8
	emitOn, emitOff     []bool
	base, pred          []uint8
	influenced          []int32 // cluster id + 1 of the cells an undecided emitter reaches
	mark                []uint32
	stamp               uint32
	listAfterMoves      []Pos
	traceVirus          []uint8
}

// maskEvent is a successful move of a unit onto a cell, in execution
// order, for the mask pickups (SPEC §8.4 step 4).
type maskEvent struct {
	id int
	q  Pos
}

func checkRules(tr *Trace, g *Game) error {
	c := newRuleChecker(tr, g)
	for r := 0; r < len(tr.Commands); r++ {
		c.r = r
		if d := c.round(); d != nil {
			return d
		}
	}
	return nil
}

// newRuleChecker returns the checker of tr's rounds from g, its initial
// game, which each round then advances.
func newRuleChecker(tr *Trace, g *Game) *ruleChecker {
	n := len(g.Units)
	c := &ruleChecker{tr: tr, g: g, cfg: &g.cfg, st: make([]uint8, n), mask: make([]uint8, n),
		startPos: make([]Pos, n), startOwner: make([]int, n), startHealth: make([]int, n),
		moved: make([]bool, n), attackKilled: make([]bool, n), virusDead: make([]bool, n),
		noDeathSt: make([]uint8, n), emitOn: make([]bool, n), emitOff: make([]bool, n),
		ring: make([]bool, g.Rows*g.Cols), base: make([]uint8, g.Rows*g.Cols), pred: make([]uint8, g.Rows*g.Cols),
		influenced: make([]int32, g.Rows*g.Cols), mark: make([]uint32, g.Rows*g.Cols), traceVirus: make([]uint8, g.Rows*g.Cols)}
	for _, p := range g.ring {
		c.ring[g.Idx(p)] = true
	}
	for id := range g.Units {
		u := &g.Units[id]
		switch {
		case u.Immune:
			c.st[id] = stImmune
		case u.Damage > 0:
			c.st[id] = 1 << min(u.Damage, 5)
		default:
			c.st[id] = stClean
		}
	}
	return c
}

func (c *ruleChecker) cmdDiv(i int, want, got string) *Divergence {
	m := c.tr.Commands[c.r][i]
	return &Divergence{Round: c.r + 1, Unit: m.ID, Field: "command", Want: want, Got: got, Line: c.tr.commandsLine(c.r) + 1 + i}
}

func (c *ruleChecker) unitDiv(id int, field, want, got string) *Divergence {
	ts := &c.tr.States[c.r+1]
	return &Divergence{Round: c.r + 1, Unit: id, Field: field, Want: want, Got: got, Line: ts.line.units + id}
}

// round checks the round from state r to state r+1.
func (c *ruleChecker) round() *Divergence {
	g := c.g
	c.startAt = append(c.startAt[:0], g.UnitAt...)
	for id := range g.Units {
		u := &g.Units[id]
		c.startPos[id], c.startOwner[id], c.startHealth[id] = u.Pos, u.Player, u.Health
		c.moved[id], c.attackKilled[id], c.virusDead[id] = false, false, false
	}
	if d := c.moves(); d != nil {
		return d
	}
	if c.r+1 >= len(c.tr.States) {
		// The trace ends after this commands block: the game aborted in the
		// virus phase, the respawn or the mask spawn, which cannot be ruled
		// out without the commands.
		return nil
	}
	next := &c.tr.States[c.r+1]
	for idx, ch := range next.Grid {
		t, v, _ := cellOfChar(ch)
		if t != g.Types[idx] {
			return &Divergence{Round: c.r + 1, Unit: -1, Field: fmt.Sprintf("grid (%d, %d)", idx/g.Cols, idx%g.Cols),
				Want: fmt.Sprintf("a %v cell", g.Types[idx]), Got: fmt.Sprintf("%q", ch), Line: next.line.grid + idx/g.Cols}
		}
		c.traceVirus[idx] = uint8(v)
	}
	cl, pl := c.tr.mapLines(c.r + 1)
	if !slices.EqualFunc(g.Cities, next.Cities, slices.Equal) {
		return &Divergence{Round: c.r + 1, Unit: -1, Field: "cities", Want: "the cities of the map", Got: "other cities", Line: cl}
	}
	if !slices.EqualFunc(g.Paths, next.Paths, equalPath) {
		return &Divergence{Round: c.r + 1, Unit: -1, Field: "paths", Want: "the paths of the map", Got: "other paths", Line: pl}
	}
	if d := c.maskPickups(); d != nil {
		return d
	}
	if d := c.emission(); d != nil {
		return d
	}
	c.infection()
	if d := c.damage(); d != nil {
		return d
	}
	if d := c.respawn(); d != nil {
		return d
	}
	if d := c.maskSpawn(); d != nil {
		return d
	}
	return c.finish()
}

// hiddenAttackers counts the enemy units that did not move this round and
// stood next to unit id at its start or current position: the units that
// may have attacked it without killing it (an unprinted command).
func (c *ruleChecker) hiddenAttackers(id int) int {
	g := c.g
	var seen [8]int
	n := 0
	for _, p := range [2]Pos{c.startPos[id], g.Units[id].Pos} {
		if p == NoPos {
			continue
		}
		for d := Bottom; d < None; d++ {
			q := p.Add(d)
			if !g.OnBoard(q) {
				continue
			}
			v := int(c.startAt[g.Idx(q)])
			if v < 0 || v == id || c.moved[v] || c.startOwner[v] == c.startOwner[id] {
				continue
			}
			if !slices.Contains(seen[:n], v) {
				seen[n] = v
				n++
			}
		}
	}
	return n
}

// maxHidden is the largest damage k <= attackers failed attacks can deal
// to a unit of health h without killing it.
func maxHidden(attackers, h int) int {
	best := 0
	for k := 1; k <= attackers; k++ {
		if AttackMin*k <= h {
			best = max(best, min(AttackMax*k, h))
		}
	}
	return best
}

// hiddenOK reports whether failed attacks can deal exactly a damage.
func hiddenOK(attackers, a int) bool {
	if a == 0 {
		return true
	}
	for k := 1; k <= attackers; k++ {
		if AttackMin*k <= a && a <= AttackMax*k {
			return true
		}
	}
	return false
}

// moves applies the printed commands (SPEC §8.3, §8.4).
func (c *ruleChecker) moves() *Divergence {
	g := c.g
	s := &g.State
	c.events = c.events[:0]
	for i, m := range c.tr.Commands[c.r] {
		if m.ID >= len(s.Units) {
			return c.cmdDiv(i, fmt.Sprintf("a unit id below %d", len(s.Units)), moveText(m))
		}
		u := &s.Units[m.ID]
		switch {
		case c.attackKilled[m.ID]:
			return c.cmdDiv(i, fmt.Sprintf("no command of unit %d (killed earlier in the round)", m.ID), moveText(m))
		case c.moved[m.ID]:
			return c.cmdDiv(i, "at most one command per unit and round", moveText(m))
		}
		c.moved[m.ID] = true
		q := u.Pos.Add(m.Dir)
		if !s.OnBoard(q) || s.Types[s.Idx(q)] == Wall {
			return c.cmdDiv(i, "a move that succeeds", moveText(m)+" (into a wall)")
		}
		qi := s.Idx(q)
		if vid := int(s.UnitAt[qi]); vid >= 0 {
			v := &s.Units[vid]
			if v.Player == u.Player {
				return c.cmdDiv(i, "a move that succeeds", moveText(m)+fmt.Sprintf(" (onto unit %d of the same player)", vid))
			}
			if k := c.hiddenAttackers(vid); v.Health-maxHidden(k, v.Health)-AttackMax >= 0 {
				return c.cmdDiv(i, "an attack that kills", moveText(m)+
					fmt.Sprintf(" (unit %d has health %d and at most %d failed attackers)", vid, v.Health, k))
			}
			c.attackKilled[vid] = true
			s.UnitAt[qi] = -1
			v.Player, v.Pos = u.Player, NoPos
		}
		s.UnitAt[s.Idx(u.Pos)] = -1
		u.Pos = q
		s.UnitAt[qi] = int32(m.ID)
		c.events = append(c.events, maskEvent{m.ID, q})
	}
	return nil
}

// isMaskRound reports whether a mask spawns at the end of round k.
func (c *ruleChecker) isMaskRound(k int) bool { return k%MaskPeriod == 0 && k < c.cfg.NbRounds }

// maskPickups replays the mask pickups of the moves (SPEC §8.4 step 4)
// and checks that they explain the next mask list. A unit whose mask is
// unknown may or may not pick a mask up; the list tells.
func (c *ruleChecker) maskPickups() *Divergence {
	s := &c.g.State
	next := &c.tr.States[c.r+1]
	want := next.Masks
	if c.isMaskRound(c.r + 1) {
		if len(want) == 0 {
			return &Divergence{Round: c.r + 1, Unit: -1, Field: "masks", Want: "a new mask (round multiple of 5)", Got: "none", Line: next.line.masks}
		}
		want = want[:len(want)-1]
	}
	unknown := 0
	for _, e := range c.events {
		if c.mask[e.id] == maskUnknown {
			unknown++
		}
	}
	c.listAfterMoves = append(c.listAfterMoves[:0], want...)
	if unknown > maxMaskBranches {
		for _, e := range c.events {
			if c.mask[e.id] == maskNo {
				c.mask[e.id] = maskUnknown
			}
		}
		return c.killedLoseMasks()
	}
	var list []Pos
	var merged map[int]uint8
	mask := map[int]uint8{}
	for combo := 0; combo < 1<<unknown; combo++ {
		list = append(list[:0], s.Masks...)
		clear(mask)
		bit := 0
		for _, e := range c.events {
			m, seen := mask[e.id]
			if !seen {
				m = c.mask[e.id]
			}
			k := slices.Index(list, e.q)
			if k < 0 {
				mask[e.id] = m
				continue
			}
			pick := m == maskNo
			if m == maskUnknown {
				pick = combo>>bit&1 == 1
				bit++
			}
			if pick {
				list[k] = list[len(list)-1]
				list = list[:len(list)-1]
			}
			mask[e.id] = maskYes
		}
		if !slices.Equal(list, want) {
			continue
		}
		if merged == nil {
			merged = make(map[int]uint8, len(mask))
			for id, m := range mask {
				merged[id] = m
			}
			continue
		}
		for id, m := range mask {
			if merged[id] != m {
				merged[id] = maskUnknown
			}
		}
	}
	if merged == nil {
		return &Divergence{Round: c.r + 1, Unit: -1, Field: "masks", Want: "the mask list after the pickups of the moves",
			Got: fmt.Sprint(next.Masks), Line: next.line.masks}
	}
	for id, m := range merged {
		c.mask[id] = m
	}
	return c.killedLoseMasks()
}

// killedLoseMasks drops the masks of the units killed by an attack (SPEC
// §8.6).
func (c *ruleChecker) killedLoseMasks() *Divergence {
	for id, k := range c.attackKilled {
		if k {
			c.mask[id] = maskNo
		}
	}
	return nil
}

// maskSpawn checks the new mask of a mask round (SPEC §8.11).
func (c *ruleChecker) maskSpawn() *Divergence {
	s := &c.g.State
	next := &c.tr.States[c.r+1]
	if !c.isMaskRound(c.r + 1) {
		return nil
	}
	for idx := range s.UnitAt {
		s.UnitAt[idx] = -1
	}
	for id := range next.Units {
		if p := next.Units[id].Pos; s.OnBoard(p) {
			s.UnitAt[s.Idx(p)] = int32(id)
		}
	}
	p := next.Masks[len(next.Masks)-1]
	ok := p.I >= 2 && p.I <= s.Rows-3 && p.J >= 2 && p.J <= s.Cols-3
	if ok {
		idx := s.Idx(p)
		ok = s.Types[idx] == Grass && s.UnitAt[idx] < 0 && !slices.Contains(c.listAfterMoves, p)
	}
	if !ok {
		return &Divergence{Round: c.r + 1, Unit: -1, Field: fmt.Sprintf("mask %d", len(next.Masks)-1),
			Want: "a free grass cell in rows and columns 2..n-3", Got: p.String(), Line: next.line.masks + len(next.Masks)}
	}
	return nil
}

// finish takes the next state from the trace and checks what is
// deterministic given the positions: ownership, scores, the round.
func (c *ruleChecker) finish() *Divergence {
	g := c.g
	s := &g.State
	next := &c.tr.States[c.r+1]
	for idx := range s.UnitAt {
		s.UnitAt[idx] = -1
		s.MaskAt[idx] = false
	}
	for id := range s.Units {
		u, tu := &s.Units[id], &next.Units[id]
		u.Player, u.Pos, u.Health = tu.Player, tu.Pos, tu.Health
		s.UnitAt[s.Idx(u.Pos)] = int32(id)
	}
	s.Masks = append(s.Masks[:0], next.Masks...)
	for _, p := range s.Masks {
		s.MaskAt[s.Idx(p)] = true
	}
	copy(s.Virus, c.traceVirus)
	s.Round = c.r + 1
	g.score()
	s.rebuildUnitLists()
	if s.Round != next.Round {
		return &Divergence{Round: c.r + 1, Unit: -1, Field: "round", Want: fmt.Sprint(s.Round), Got: fmt.Sprint(next.Round), Line: next.line.round}
	}
	if s.Scores != next.Scores {
		return &Divergence{Round: c.r + 1, Unit: -1, Field: "total_score", Want: fmt.Sprint(s.Scores), Got: fmt.Sprint(next.Scores), Line: next.line.round + 1}
	}
	if !slices.Equal(s.CityOwner, next.CityOwner) {
		return &Divergence{Round: c.r + 1, Unit: -1, Field: "city_owners", Want: fmt.Sprint(s.CityOwner), Got: fmt.Sprint(next.CityOwner), Line: next.line.cityOwners}
	}
	if !slices.Equal(s.PathOwner, next.PathOwner) {
		return &Divergence{Round: c.r + 1, Unit: -1, Field: "path_owners", Want: fmt.Sprint(s.PathOwner), Got: fmt.Sprint(next.PathOwner), Line: next.line.pathOwners}
	}
	return nil
}
