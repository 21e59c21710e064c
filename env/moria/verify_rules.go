package moria

import (
	"bytes"
	"errors"
	"fmt"

	"jgym/game"
)

// Checking a round against the rules (no commands).
//
// The board generator's stream cannot be rebuilt from a trace: the
// interleaving draws depend on the lengths of the players' queues, which
// include failed commands that are never printed. So each round is
// replayed with the engine's procedures, with every random outcome taken
// from the trace and checked against what the rules allow:
//
//   - printed clan moves are applied in printed order (the execution
//     order): each must succeed, move a unit at most once, never after it
//     was killed, never None, never a wizard diagonally;
//   - a rock's fifth hit gives an Abyss or a Cave: the next grid says which;
//   - attack damage is hidden: whether each attack kills is explored
//     depth-first, pruned by the victim's next state (a clan unit killed
//     changes clan: to its killer's when captured, to any other when Sauron
//     or an abyss kills it), and the damage a survivor took must lie within
//     the attacks' ranges unless a wizard healed it;
//   - orc, troll and Balrog lines must name exactly the units that act, in
//     order, with a direction among the rules' candidates;
//   - born orcs are the highest dead ids, on distinct free abysses away
//     from the Balrog; reborn units stand on allowed cells at the required
//     distances, inside Moria only when the ring is full;
//   - everything else (ownership, treasures, counts, healing, lists) is
//     deterministic and compared exactly.

// maxBranches bounds the attack outcomes tried for one round.
const maxBranches = 1 << 12

// hitRecord is the damage a unit took this round, since its last death,
// from attacks that did not kill it.
type hitRecord struct {
	h0, lo, hi int // health before the first attack, sums of the ranges
	attacked   bool
}

type ruleSim struct {
	tr    *Trace
	base  *Game // the state at the start of the round
	g     *Game // the round being replayed
	r     int   // the round checked, from 1
	next  *TraceState
	moves []Move

	dec, taken, nopts []int // attack outcomes: forced, taken, available
	step              int   // progress of the run, to report the deepest divergence

	hits     []hitRecord
	killedBy []int // -2 alive, -1 Sauron or an abyss, else the capturing clan
	moved    []bool
	fail     *Divergence // set by callbacks that cannot return one
}

func checkRules(tr *Trace, g *Game) error {
	w := &Game{cfg: g.cfg, seed: g.seed, killed: make([]bool, len(g.Units))}
	w.copyGame(g)
	n := len(g.Units)
	s := &ruleSim{tr: tr, base: g, g: w, hits: make([]hitRecord, n), killedBy: make([]int, n), moved: make([]bool, n)}
	for r := 1; r < len(tr.States); r++ {
		s.r, s.next, s.moves = r, &tr.States[r], tr.Moves[r-1]
		if d := s.round(); d != nil {
			return d
		}
		s.base.copyGame(s.g)
	}
	return nil
}

// copyGame makes g a copy of o's state (not its generator or scratch).
func (g *Game) copyGame(o *Game) {
	g.State.CopyFrom(&o.State)
	g.State.Cfg = &g.cfg
	g.abyssCells = append(g.abyssCells[:0], o.abyssCells...)
	g.outsideCells = o.outsideCells // never changes
	g.round.occ = o.round.occ
	for _, id := range g.round.dead {
		g.killed[id] = false
	}
	g.round.dead = g.round.dead[:0]
}

// round explores the attack outcomes until one explains the next state.
func (s *ruleSim) round() *Divergence {
	s.dec = s.dec[:0]
	var best *Divergence
	bestStep := -1
	for runs := 1; ; runs++ {
		s.taken, s.nopts, s.step, s.fail = s.taken[:0], s.nopts[:0], 0, nil
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
			return &Divergence{Round: s.r, Unit: -1, Field: "movements", Line: s.tr.MovesLine(s.r),
				Want: fmt.Sprintf("attacks explained within %d combinations of outcomes", maxBranches), Got: "more"}
		}
		s.dec = append(append(s.dec[:0], s.taken[:j]...), s.taken[j]+1)
	}
}

func (s *ruleSim) run() *Divergence {
	g := s.g
	g.copyGame(s.base)
	for id := range s.hits {
		s.hits[id], s.killedBy[id], s.moved[id] = hitRecord{}, -2, false
	}
	i := 0
	if d := s.clanMoves(&i); d != nil {
		return d
	}
	if d := s.sauron(&i); d != nil {
		return d
	}
	if i < len(s.moves) {
		return s.moveDiv(i, `"-1" (end of the block)`, moveText(s.moves[i]))
	}
	for k, phase := range []func() *Divergence{s.resolveClans, s.births, s.rebirths, s.resolveHealth} {
		s.step = len(s.moves) + 1 + k
		if d := phase(); d != nil {
			return d
		}
	}
	g.rebuildLists()
	g.Round++
	d := s.tr.diffState(s.r, &g.State)
	if d != nil {
		s.step = len(s.moves) + 10 + d.Line
	}
	return d
}

func (s *ruleSim) moveDiv(i int, want, got string) *Divergence {
	id := -1
	if i < len(s.moves) {
		id = s.moves[i].ID
	}
	return &Divergence{Round: s.r, Unit: id, Field: "movement", Want: want, Got: got, Line: s.tr.MovesLine(s.r) + 1 + i}
}

func (s *ruleSim) unitDiv(id int, field, want, got string) *Divergence {
	return &Divergence{Round: s.r, Unit: id, Field: field, Want: want, Got: got, Line: s.tr.unitLine(s.r, id)}
}

// clanMoves applies the printed moves of dwarves and wizards (SPEC §8.3).
func (s *ruleSim) clanMoves(i *int) *Divergence {
	g := s.g
	for ; *i < len(s.moves) && s.moves[*i].ID < g.cfg.FirstOrc(); *i++ {
		m := s.moves[*i]
		s.step = *i + 1
		u := &g.Units[m.ID]
		switch {
		case m.Dir == None:
			return s.moveDiv(*i, "a direction other than n (None is never printed for a clan unit)", moveText(m))
		case s.moved[m.ID]:
			return s.moveDiv(*i, "at most one move per unit and round", moveText(m))
		case g.killed[m.ID]:
			return s.moveDiv(*i, fmt.Sprintf("no move of unit %d (killed earlier in the round)", m.ID), moveText(m))
		case u.Type == Wizard && m.Dir.Diagonal():
			return s.moveDiv(*i, "an orthogonal direction (wizards do not move diagonally)", moveText(m))
		}
		s.moved[m.ID] = true
		ok, why := s.move(m.ID, m.Dir)
		if s.fail != nil {
			return s.fail
		}
		if !ok {
			return s.moveDiv(*i, "a move that succeeds", moveText(m)+" ("+why+")")
		}
	}
	return nil
}

// move is the movement of a clan unit (SPEC §8.4), as Game.move, with the
// hidden outcomes taken from the trace or explored. It reports success, or
// why the move fails.
func (s *ruleSim) move(id int, d Dir) (bool, string) {
	g := s.g
	u := &g.Units[id]
	t := u.Pos.Add(d)
	if !t.OnBoard() {
		return false, "the target is off the board"
	}
	ti := t.Index()
	tc := &g.Cells[ti]
	if tc.ID >= 0 {
		v := &g.Units[tc.ID]
		switch {
		case u.Type == Wizard:
			return false, "wizards do not attack"
		case v.Player == u.Player:
			return false, "the target holds a unit of the same clan"
		case v.Type == Balrog:
			return false, "the target holds the Balrog"
		}
		s.attack(v, u.Player, MinDamageDwarf, MaxDamageDwarf, u.ID)
		return true, ""
	}
	switch tc.Type {
	case Granite:
		return false, "the target is Granite"
	case Rock:
		if u.Type == Wizard {
			return false, "wizards do not dig"
		}
		g.noteCell(ti)
		if tc.Turns--; tc.Turns <= 0 {
			tc.Turns, tc.Type = 0, Cave
			if s.next.Grid[ti] == 'A' {
				tc.Type = Abyss
				g.addAbyss(ti)
			}
		}
		return true, ""
	case Abyss:
		s.kill(id, -1)
		return true, ""
	}
	if g.nearBalrog(t) {
		s.kill(id, -1)
		return true, ""
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
	return true, ""
}

// attack decides whether an attack of clan by (-1 for Sauron) on v kills
// it: the damage is hidden, so both outcomes the damage range allows are
// explored, unless v's next state rules one out.
func (s *ruleSim) attack(v *Unit, by, lo, hi, attacker int) {
	h := &s.hits[v.ID]
	if !h.attacked {
		h.h0, h.attacked = v.Health, true
	}
	canKill := min(h.hi, h.h0-1)+hi >= h.h0 && s.diesInTrace(v, by)
	canLive := h.lo+lo <= h.h0-1
	switch s.choose(canKill, canLive) {
	case 0:
		s.kill(v.ID, by)
	case 1:
		h.lo += lo
		h.hi += hi
		v.Health = max(h.h0-h.lo, 1) // a placeholder until the trace tells
	default: // the attack must kill v, but v's next state says it did not die so
		nu := &s.next.Units[v.ID]
		want := fmt.Sprintf("%d (captured by unit %d)", by, attacker)
		if by < 0 {
			want = fmt.Sprintf("a clan other than %d (killed by unit %d)", v.Player, attacker)
		}
		if v.Type == Orc {
			s.fail = s.unitDiv(v.ID, "health", fmt.Sprintf("0 or a rebirth's %d (killed by unit %d)", OrcHealth, attacker), fmt.Sprint(nu.Health))
		} else {
			s.fail = s.unitDiv(v.ID, "player", want, fmt.Sprint(nu.Player))
		}
	}
}

// diesInTrace reports whether v's next state allows its death this round
// by clan by (-1 for Sauron or an abyss).
func (s *ruleSim) diesInTrace(v *Unit, by int) bool {
	nu := &s.next.Units[v.ID]
	switch v.Type {
	case Orc: // dead, or born again with full health (an attacked survivor has less)
		return nu.Health == 0 || nu.Health == OrcHealth
	case Troll: // reborn with full health, or hit again through a stale id
		return true
	case Dwarf, Wizard:
		if by >= 0 {
			return nu.Player == by
		}
		return nu.Player != v.Player
	}
	return false
}

// choose returns the index of the available option to take at this branch
// point (0 or 1), or -1 if none is available.
func (s *ruleSim) choose(opt0, opt1 bool) int {
	var avail [2]int
	n := 0
	for k, ok := range [2]bool{opt0, opt1} {
		if ok {
			avail[n] = k
			n++
		}
	}
	if n == 0 {
		return -1
	}
	c := 0
	if k := len(s.taken); k < len(s.dec) && s.dec[k] < n {
		c = s.dec[k]
	}
	s.taken, s.nopts = append(s.taken, c), append(s.nopts, n)
	return avail[c]
}

// kill is Kill(v, by) of SPEC §8.5 without the draw: the new clan of a
// dwarf or wizard killed by Sauron or an abyss is read from the trace in
// resolveClans.
func (s *ruleSim) kill(id, by int) {
	g := s.g
	v := &g.Units[id]
	if v.Pos.OnBoard() {
		g.setID(v.Pos.Index(), -1)
	}
	if !g.killed[id] {
		g.killed[id] = true
		g.round.dead = append(g.round.dead, id)
	}
	s.killedBy[id] = by
	s.hits[id] = hitRecord{}
	switch v.Type {
	case Orc:
		v.Health, v.Pos = 0, NoPos
	case Troll:
		v.Health = TrollHealth
	case Dwarf, Wizard:
		v.Health = v.Type.MaxHealth()
		if by >= 0 {
			v.Player = by
		}
	}
}

// resolveClans reads the new clan of every dwarf or wizard killed by
// Sauron or an abyss from the next state: any clan but its own.
func (s *ruleSim) resolveClans() *Divergence {
	g := s.g
	for id := 0; id < g.cfg.FirstOrc(); id++ {
		if !g.killed[id] {
			continue
		}
		u, nu := &g.Units[id], &s.next.Units[id]
		switch by := s.killedBy[id]; {
		case by >= 0 && nu.Player != by:
			return s.unitDiv(id, "player", fmt.Sprintf("%d (captured by clan %d)", by, by), fmt.Sprint(nu.Player))
		case by < 0 && (nu.Player == u.Player || nu.Player < 0 || nu.Player >= NumPlayers):
			return s.unitDiv(id, "player", fmt.Sprintf("a clan other than %d (killed by Sauron or an abyss)", u.Player), fmt.Sprint(nu.Player))
		case by < 0:
			u.Player = nu.Player
		}
	}
	return nil
}

// resolveHealth heals (SPEC §8.12), then reads the health of every unit an
// attack hurt without killing from the next state, within the attacks'
// damage ranges, unless a wizard healed it.
func (s *ruleSim) resolveHealth() *Divergence {
	g := s.g
	g.heal()
	for id := range g.Units {
		u, h := &g.Units[id], &s.hits[id]
		if !h.attacked || u.Health <= 0 {
			continue
		}
		if (u.Type == Dwarf || u.Type == Wizard) && u.Health == u.Type.MaxHealth() {
			continue // healed by a wizard
		}
		nh := s.next.Units[id].Health
		if lo, hi := max(h.h0-h.hi, 1), h.h0-h.lo; nh < lo || nh > hi {
			return s.unitDiv(id, "health", fmt.Sprintf("%d..%d (health %d, damage %d..%d)", lo, hi, h.h0, h.lo, h.hi), fmt.Sprint(nh))
		}
		u.Health = nh
	}
	return nil
}

// traceRounds steps the rules check of checkRules one round at a time, for
// datasets (game.Rounds): sim.base holds the state at the start of round
// r (from 0), sim.g the state after it. A trace cut short by an abort
// gives its complete rounds.
type traceRounds struct {
	sim *ruleSim
	r   int
	err error
}

// newTraceRounds parses a trace and builds its initial state as Verify
// does (want, if not nil, is the configuration it was played with).
func newTraceRounds(trace []byte, want *Config) (game.Rounds[Config, State, Dir], error) {
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return nil, err
	}
	if len(tr.States) == 0 || len(tr.Moves) != len(tr.States)-1 {
		return nil, errors.New("moria: incomplete trace")
	}
	g, err := verifier.Initial(tr, want)
	if err != nil {
		return nil, err
	}
	// As checkRules.
	w := &Game{cfg: g.cfg, seed: g.seed, killed: make([]bool, len(g.Units))}
	w.copyGame(g)
	n := len(g.Units)
	sim := &ruleSim{tr: tr, base: g, g: w, hits: make([]hitRecord, n), killedBy: make([]int, n), moved: make([]bool, n)}
	return &traceRounds{sim: sim, r: -1}, nil
}

func (t *traceRounds) Config() *Config                { return &t.sim.base.cfg }
func (t *traceRounds) Seed() int                      { return t.sim.tr.Seed }
func (t *traceRounds) Names() [NumPlayers]string      { return t.sim.tr.Names }
func (t *traceRounds) State() *State                  { return &t.sim.base.State }
func (t *traceRounds) Moves() []Move                  { return t.sim.moves }
func (t *traceRounds) Err() error                     { return t.err }
func (t *traceRounds) Scores() (b, a [NumPlayers]int) { return t.sim.base.Scores(), t.sim.g.Scores() }

func (t *traceRounds) Next() bool {
	s := t.sim
	if t.err != nil || t.r+1 >= len(s.tr.Moves) {
		return false
	}
	if t.r >= 0 {
		s.base.copyGame(s.g)
	}
	t.r++
	// checkRules numbers the rounds from 1.
	s.r, s.next, s.moves = t.r+1, &s.tr.States[t.r+1], s.tr.Moves[t.r]
	if d := s.round(); d != nil {
		t.err = d
		return false
	}
	return true
}
