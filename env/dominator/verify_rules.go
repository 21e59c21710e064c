package dominator

import "fmt"

// Checking a round against the rules (no commands).
//
// The engine's generator cannot be replayed from a trace: the execution
// permutation depends on the number of valid commands, failed ones
// included, which are never printed. So each round is replayed with the
// engine's movement procedure, applying the printed moves in printed
// (execution) order, with every hidden outcome taken from the next state
// and checked against what the rules allow:
//
//   - a unit dies in a round exactly when its player changes. It dies by a
//     printed knight attack (it joins the attacker's team), by a printed
//     witch step (a spell), or by an unprinted step of its own into a
//     haunted cell (a spell). A spell gives the unit to the team of one of
//     the foreign active witches around it, or, with only its own team's
//     witches there, to any other team;
//   - an unprinted fatal step can happen at any time of the round: the
//     checker keeps such a unit on its cell until a printed move needs the
//     cell, and records at every point of the round which teams a fatal
//     step could have given it (cells of other units that may have left
//     count as free);
//   - every printed move must succeed: a step into a free cell that is not
//     haunted (a witch may step anywhere free), or a knight attack on a
//     rival farmer or knight. Attack damage is hidden: whether an attack
//     kills is explored depth-first, and a survivor's health must lie
//     within the attacks' ranges, plus the regeneration when it may not
//     have had a valid command;
//   - reborn units must stand where the group spawn of SPEC §5.5 can put
//     them, evaluated group by group in the engine's order, and extras on
//     available cells of the interior;
//   - everything else (painting, haunting, scores, lists) is deterministic
//     and compared exactly.

// maxBranches bounds the combinations of hidden outcomes tried for one
// round.
const maxBranches = 1 << 12

// hitRecord is what a unit took from attacks it survived this round:
// damage in [lo, hi] (hi < h0), from n attacks.
type hitRecord struct {
	h0, lo, hi, n int
}

type ruleSim struct {
	tr    *Trace
	base  *Game // the state at the start of the round
	g     *Game // the round being replayed
	r     int
	next  *TraceState
	moves []Move

	dec, taken, nopts []int // hidden outcomes: forced, taken, available
	step              int   // progress of the run, to report the deepest divergence

	dies      []bool  // the trace shows the unit changing player
	printedAt []int   // index of the unit's printed move, or -1
	opp       []uint8 // teams a fatal step could have given the unit so far
	hits      []hitRecord
	hidden    []bool // died by an unprinted fatal step
	origin    []Pos  // position at the start of the round
	mark      []int32
	stamp     int32
}

// newRuleSim prepares the rules check of trace tr from its initial game
// g: g becomes the state at the start of each round, a copy the round
// being replayed.
func newRuleSim(tr *Trace, g *Game) *ruleSim {
	n := len(g.Units)
	w := &Game{cfg: g.cfg, seed: g.seed, moved: make([]int32, n), killed: make([]int32, n)}
	w.State.CopyFrom(&g.State)
	w.State.Cfg = &w.cfg
	w.countLand()
	return &ruleSim{tr: tr, base: g, g: w, dies: make([]bool, n), printedAt: make([]int, n),
		opp: make([]uint8, n), hits: make([]hitRecord, n), hidden: make([]bool, n), origin: make([]Pos, n)}
}

// checkRules checks every round of tr against the rules.
func checkRules(tr *Trace, g *Game) error {
	s := newRuleSim(tr, g)
	for r := 0; r < tr.Config.NbRounds; r++ {
		s.r, s.next, s.moves = r, &tr.States[r+1], tr.Moves[r]
		if d := s.round(); d != nil {
			return d
		}
		s.nextRound()
	}
	return nil
}

// nextRound makes the state after the round the start of the next one.
func (s *ruleSim) nextRound() {
	s.base.State.CopyFrom(&s.g.State)
	s.base.State.Cfg = &s.base.cfg
}

// round explores the hidden outcomes until one explains the next state.
func (s *ruleSim) round() *Divergence {
	if d := s.precheck(); d != nil {
		return d
	}
	s.dec = s.dec[:0]
	var best *Divergence
	bestStep := -1
	for runs := 1; ; runs++ {
		s.taken, s.nopts, s.step = s.taken[:0], s.nopts[:0], 0
		d := s.run()
		if d == nil {
			return nil
		}
		if s.step > bestStep {
			best, bestStep = d, s.step
		}
		j := len(s.taken) - 1
		for j >= 0 && s.taken[j]+1 >= s.nopts[j] {
			j--
		}
		if j < 0 {
			return best
		}
		if runs >= maxBranches {
			return &Divergence{Round: s.r + 1, Unit: -1, Field: "movements", Line: s.tr.MovesLine(s.r),
				Want: fmt.Sprintf("hidden outcomes explained within %d combinations", maxBranches), Got: "more"}
		}
		s.dec = append(append(s.dec[:0], s.taken[:j]...), s.taken[j]+1)
	}
}

// choose returns the option taken at the next decision point of n
// options.
func (s *ruleSim) choose(n int) int {
	k := 0
	if len(s.taken) < len(s.dec) {
		k = s.dec[len(s.taken)]
	}
	s.taken = append(s.taken, k)
	s.nopts = append(s.nopts, n)
	return k
}

func (s *ruleSim) unitDiv(k, id int, field, want, got string) *Divergence {
	return &Divergence{Round: k, Unit: id, Field: field, Want: want, Got: got, Line: s.tr.unitLine(k, id)}
}

func (s *ruleSim) moveDiv(i int, want string) *Divergence {
	m := s.moves[i]
	return &Divergence{Round: s.r + 1, Unit: m.ID, Field: "movement", Want: want, Got: moveText(m),
		Line: s.tr.MovesLine(s.r) + 1 + i}
}

// precheck checks what needs no replay: the round number, the unit types,
// witches, the health of the dead, and the printed moves' form.
func (s *ruleSim) precheck() *Divergence {
	k := s.r + 1
	if s.next.Round != k {
		return &Divergence{Round: k, Unit: -1, Field: "round", Want: fmt.Sprint(k), Got: fmt.Sprint(s.next.Round),
			Line: s.tr.stateFieldLine(k, 0)}
	}
	b := &s.base.State
	for id := range b.Units {
		u, v := &b.Units[id], &s.next.Units[id]
		s.dies[id] = u.Player != v.Player
		s.printedAt[id] = -1
		switch {
		case u.Type != v.Type:
			return s.unitDiv(k, id, "type", string(u.Type.Char()), string(v.Type.Char()))
		case v.Player < 0 || v.Player >= NumPlayers:
			return s.unitDiv(k, id, "player", "0..3", fmt.Sprint(v.Player))
		case u.Type == Witch && s.dies[id]:
			return s.unitDiv(k, id, "player", fmt.Sprint(u.Player)+" (witches never change team)", fmt.Sprint(v.Player))
		case u.Type == Witch && v.Health != -1:
			return s.unitDiv(k, id, "health", "-1", fmt.Sprint(v.Health))
		case s.dies[id] && v.Health != s.g.cfg.MaxHealth(u.Type):
			return s.unitDiv(k, id, "health", fmt.Sprint(s.g.cfg.MaxHealth(u.Type))+" (reborn)", fmt.Sprint(v.Health))
		}
	}
	for i, m := range s.moves {
		switch {
		case m.ID < 0 || m.ID >= len(b.Units):
			return s.moveDiv(i, fmt.Sprintf("a unit id 0..%d", len(b.Units)-1))
		case s.printedAt[m.ID] >= 0:
			return s.moveDiv(i, "at most one movement per unit and round")
		case m.Dir == None:
			return s.moveDiv(i, "a direction other than None (None commands are dropped)")
		case m.Dir.Diagonal() && b.Units[m.ID].Type != Knight:
			return s.moveDiv(i, "an orthogonal direction for a "+b.Units[m.ID].Type.String())
		}
		s.printedAt[m.ID] = i
	}
	return nil
}

// deferrable reports whether unit id may still die by an unprinted step:
// it dies this round, has no printed move and is alive.
func (s *ruleSim) deferrable(id int) bool {
	return s.dies[id] && s.printedAt[id] < 0 && s.g.killed[id] != int32(s.g.Round)
}

// teamsAt returns the teams (bit mask) a spell on a unit of player o at p
// may give it (SPEC §8.6); 0 means the course program aborts.
func (s *ruleSim) teamsAt(p Pos, o int) uint8 {
	g := s.g
	n := g.cfg.Cols
	var foreign uint8
	own := false
	for _, d := range diamond2 {
		q := Pos{p.I + d.I, p.J + d.J}
		if !g.OnBoard(q) {
			continue
		}
		w := g.Grid[q.I*n+q.J].ID
		if w < 0 || g.Units[w].Type != Witch || !g.Units[w].Active {
			continue
		}
		if t := g.Units[w].Player; t == o {
			own = true
		} else {
			foreign |= 1 << t
		}
	}
	switch {
	case foreign != 0:
		return foreign
	case own:
		return 0xf &^ (1 << o)
	}
	return 0
}

// recordOpportunities notes, for every unit that may still die by an
// unprinted step, the teams such a step now could give it.
func (s *ruleSim) recordOpportunities() {
	g := s.g
	n := g.cfg.Cols
	for id := range g.Units {
		if !s.deferrable(id) {
			continue
		}
		u := &g.Units[id]
		for d := Bottom; d < None; d++ {
			if d.Diagonal() && u.Type != Knight {
				continue
			}
			q := u.Pos.Add(d)
			if !g.OnBoard(q) {
				continue
			}
			c := &g.Grid[q.I*n+q.J]
			if c.Type == Wall || !c.Haunted || (c.ID >= 0 && !s.deferrable(int(c.ID))) {
				continue
			}
			s.opp[id] |= s.teamsAt(q, u.Player)
		}
	}
}

// kill removes unit id from the board for the team the trace gives it.
func (s *ruleSim) kill(id int) {
	g := s.g
	u := &g.Units[id]
	u.Player = s.next.Units[id].Player
	u.Health = g.cfg.MaxHealth(u.Type)
	n := g.cfg.Cols
	if g.OnBoard(u.Pos) {
		g.Grid[u.Pos.I*n+u.Pos.J].ID = -1
	}
	g.killed[id] = int32(g.Round)
}

// fatalStep makes unit id die by an unprinted step into a haunted cell, if
// one was possible at some point of the round so far for its new team.
func (s *ruleSim) fatalStep(id int) bool {
	if s.opp[id]&(1<<s.next.Units[id].Player) == 0 {
		return false
	}
	g := s.g
	u := &g.Units[id]
	n := g.cfg.Cols
	if g.OnBoard(u.Pos) && int(g.Grid[u.Pos.I*n+u.Pos.J].ID) == id {
		g.Grid[u.Pos.I*n+u.Pos.J].ID = -1
	}
	s.hidden[id] = true
	u.Pos = Pos{-1, -1} // somewhere next to its cell; only a lost unit shows it
	s.kill(id)
	return true
}

// run replays the round with the hidden outcomes of s.dec.
func (s *ruleSim) run() *Divergence {
	g := s.g
	g.State.CopyFrom(&s.base.State)
	g.State.Cfg = &g.cfg
	g.countLand()
	g.Round = s.r + 1
	r := int32(g.Round)
	for id := range g.Units {
		s.opp[id], s.hits[id], s.hidden[id] = 0, hitRecord{h0: g.Units[id].Health}, false
		s.origin[id] = g.Units[id].Pos
		g.moved[id], g.killed[id] = -1, -1
	}
	for i, m := range s.moves {
		s.recordOpportunities()
		s.step++
		u := &g.Units[m.ID]
		g.moved[m.ID] = r
		if g.killed[m.ID] == r {
			return s.moveDiv(i, "no movement of a unit killed earlier in the round")
		}
		if d := s.playMove(i, u, m.Dir); d != nil {
			return d
		}
	}
	s.recordOpportunities()
	s.step++
	for id := range g.Units {
		if s.deferrable(id) && !s.fatalStep(id) {
			return s.unitDiv(s.r+1, id, "player", fmt.Sprintf("%d (no attack, spell or fatal step explains a change)",
				g.Units[id].Player), fmt.Sprint(s.next.Units[id].Player))
		}
		if s.dies[id] && g.killed[id] != r {
			return s.unitDiv(s.r+1, id, "player", fmt.Sprint(g.Units[id].Player)+" (it moved and was not killed later)",
				fmt.Sprint(s.next.Units[id].Player))
		}
	}
	s.step++
	if d := s.checkHealth(); d != nil {
		return d
	}
	s.step++
	if d := s.checkRespawn(); d != nil {
		return d
	}
	s.step++
	g.rebuildLists()
	g.score()
	return s.tr.diffState(s.r+1, &g.State)
}

// playMove applies printed move i: unit u in real direction d must
// succeed.
func (s *ruleSim) playMove(i int, u *Unit, d Dir) *Divergence {
	g := s.g
	n := g.cfg.Cols
	if !g.OnBoard(u.Pos) || g.Grid[u.Pos.I*n+u.Pos.J].Type == Wall {
		return s.moveDiv(i, "a unit standing on the board (the course program aborts)")
	}
	p2 := u.Pos.Add(d)
	if !g.OnBoard(p2) || g.Grid[p2.I*n+p2.J].Type == Wall {
		return s.moveDiv(i, "a move onto the board and not into a wall (failed moves are not printed)")
	}
	c2 := &g.Grid[p2.I*n+p2.J]
	if c2.ID >= 0 && s.deferrable(int(c2.ID)) {
		// Did x leave by an unprinted fatal step before this move? It must
		// have if u cannot attack it; else a surviving knight's next
		// position says which to try first.
		x := &g.Units[c2.ID]
		leave := true
		if u.Type == Knight && x.Type != Witch && x.Player != u.Player {
			leftFirst := !s.dies[u.ID] && s.next.Units[u.ID].Pos == p2
			leave = (s.choose(2) == 0) == leftFirst
		}
		if leave {
			if x := x.ID; !s.fatalStep(x) {
				return s.moveDiv(i, fmt.Sprintf("a free cell, or unit %d gone by a fatal step (none possible for team %d)",
					x, s.next.Units[x].Player))
			}
		}
	}
	if c2.ID < 0 {
		g.stepTo(u, p2)
		if u.Type == Witch {
			g.rehaunt()
			return s.witchKills(i)
		}
		if c2.Haunted {
			return s.moveDiv(i, "a move into a cell that is not haunted (fatal steps are not printed)")
		}
		if u.Type == Farmer {
			g.paint(p2.I*n+p2.J, u.Player)
		}
		return nil
	}
	v := &g.Units[c2.ID]
	if u.Type != Knight || v.Type == Witch || v.Player == u.Player {
		return s.moveDiv(i, fmt.Sprintf("a free target (unit %d stands there and the move would fail)", v.ID))
	}
	return s.attack(i, u, v)
}

// attack is a knight attack of u on v: v survives or dies (joining u's
// team) as the damage allows.
func (s *ruleSim) attack(i int, u, v *Unit) *Divergence {
	h := &s.hits[v.ID]
	dmin, dmax := s.g.cfg.DamageMin, s.g.cfg.DamageMax
	canKill := s.dies[v.ID] && s.next.Units[v.ID].Player == u.Player && h.hi+dmax >= h.h0
	canLive := h.lo+dmin < h.h0
	if canKill && canLive && s.choose(2) == 1 {
		canKill = false
	}
	switch {
	case canKill:
		s.kill(v.ID)
	case canLive:
		h.lo, h.hi, h.n = h.lo+dmin, min(h.hi+dmax, h.h0-1), h.n+1
	default:
		return s.moveDiv(i, fmt.Sprintf("an attack on unit %d (health %d, %d attacks before) that the trace allows",
			v.ID, h.h0, h.n))
	}
	return nil
}

// witchKills casts the spells of a witch step on every farmer and knight
// now on a haunted cell, in row-major order.
func (s *ruleSim) witchKills(i int) *Divergence {
	g := s.g
	for idx := range g.Grid {
		c := &g.Grid[idx]
		if c.ID < 0 || !c.Haunted || g.Units[c.ID].Type == Witch {
			continue
		}
		id := int(c.ID)
		v := &g.Units[id]
		if !s.dies[id] {
			return s.moveDiv(i, fmt.Sprintf("a witch step that does not haunt unit %d (it survives the round)", id))
		}
		if s.deferrable(id) && s.choose(2) == 1 {
			if !s.fatalStep(id) {
				return s.moveDiv(i, fmt.Sprintf("a witch step that gives unit %d a team the trace shows", id))
			}
			continue
		}
		if s.teamsAt(v.Pos, v.Player)&(1<<s.next.Units[id].Player) == 0 {
			return s.unitDiv(s.r+1, id, "player", fmt.Sprintf("a team of the witches around %v", v.Pos),
				fmt.Sprint(s.next.Units[id].Player))
		}
		s.kill(id)
	}
	return nil
}

// checkHealth checks the health of every surviving farmer and knight:
// the hidden damage it took, plus the regeneration when it may have had
// no valid command (SPEC §8.8).
func (s *ruleSim) checkHealth() *Divergence {
	g := s.g
	r := int32(g.Round)
	for id := range g.Units {
		u := &g.Units[id]
		if u.Type == Witch || g.killed[id] == r {
			continue
		}
		h := &s.hits[id]
		got := s.next.Units[id].Health
		lo, hi := h.h0-h.hi, h.h0-h.lo
		ok := got >= lo && got <= hi
		if !ok && g.moved[id] != r {
			m := g.cfg.MaxHealth(u.Type)
			reg := g.cfg.Regen(u.Type)
			ok = got >= min(lo+reg, m) && got <= min(hi+reg, m)
		}
		if !ok {
			want := fmt.Sprint(h.h0)
			if h.n > 0 {
				want = fmt.Sprintf("%d..%d after %d attacks", lo, hi, h.n)
			}
			if g.moved[id] != r {
				want += fmt.Sprintf(", or %d more if it had no valid command", g.cfg.Regen(u.Type))
			}
			return s.unitDiv(s.r+1, id, "health", want, fmt.Sprint(got))
		}
		u.Health = got
	}
	return nil
}
