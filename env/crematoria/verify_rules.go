package crematoria

import (
	"bytes"
	"errors"
	"fmt"

	"jgym/game"
)

// Checking a round against the rules (no commands).
//
// The board generator's stream cannot be rebuilt from a trace: the
// interleaving permutations depend on the lengths of the players' queues,
// which include failed commands that are never printed. So each round is
// replayed with the engine's movement procedure, with every random outcome
// taken from the trace and checked against what the rules allow:
//
//   - printed player moves are applied in printed order (the execution
//     order); each must succeed, move a living unit at most once, and fit the
//     layered interleaving of SPEC §8.3 given each player's unit count;
//   - necromonger and hellhound lines must name exactly the units that act,
//     in order, with a direction among the minimum-distance candidates;
//   - attack damage is hidden: whether each attack kills is explored
//     depth-first (pruned by the victim's next state), and the total damage
//     a survivor took must lie within the attacks' ranges;
//   - a unit killed by the environment gets any other group, a captured one
//     its killer's group; reborn units must stand on allowed cells at the
//     required distances; at most one gem appears, on an Outside cell of
//     the new-night columns; at most one necromonger arrives, only when
//     allowed, on a free cell of those columns;
//   - everything else (the sun, landing, ownership, gem pickup, healing,
//     counts, lists, timers) is deterministic and compared exactly.

// maxBranches bounds the attack outcomes tried for one round.
const maxBranches = 1 << 12

// hitRecord is the damage a unit took this round from attacks that did not
// kill it.
type hitRecord struct {
	h0, lo, hi int // health before the first attack, sum of the ranges
	attacked   bool
}

type ruleSim struct {
	tr    *Trace
	base  *Game // the state at the start of the round
	g     *Game // the round being replayed
	r     int
	next  *TraceState
	moves []Move

	dec, taken, nopts []int // attack outcomes: forced, taken, available
	step              int   // progress of the run, to report the deepest divergence

	hits     []hitRecord
	killedBy []int // -2 alive, -1 the environment, else the capturing group
	moved    []bool
	d0       []int32
}

func checkRules(tr *Trace, g *Game) error {
	w := &Game{cfg: g.cfg, seed: g.seed, excl: make([]bool, LevelCells)}
	w.State.CopyFrom(&g.State)
	n := len(g.Units)
	s := &ruleSim{tr: tr, base: g, g: w, hits: make([]hitRecord, n), killedBy: make([]int, n), moved: make([]bool, n)}
	for r := 0; r < tr.Config.NbRounds; r++ {
		s.r, s.next, s.moves = r, &tr.States[r+1], tr.Moves[r]
		if d := s.round(); d != nil {
			return d
		}
		s.base.State.CopyFrom(&s.g.State)
	}
	return nil
}

// round explores the attack outcomes until one explains the next state.
func (s *ruleSim) round() *Divergence {
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
			return &Divergence{Round: s.r, Unit: -1, Field: "movements", Line: s.tr.MovesLine(s.r),
				Want: fmt.Sprintf("attacks explained within %d combinations of outcomes", maxBranches), Got: "more"}
		}
		s.dec = append(append(s.dec[:0], s.taken[:j]...), s.taken[j]+1)
	}
}

func (s *ruleSim) run() *Divergence {
	g := s.g
	g.State.CopyFrom(&s.base.State)
	for id := range s.hits {
		s.hits[id], s.killedBy[id], s.moved[id] = hitRecord{}, -2, false
	}
	g.startNec = append(g.startNec[:0], g.Necromongers...)
	i := 0
	if d := s.playerMoves(&i); d != nil {
		return d
	}
	if d := s.necromongers(&i); d != nil {
		return d
	}
	if d := s.hellhounds(&i); d != nil {
		return d
	}
	if i < len(s.moves) {
		return s.moveDiv(i, `"-1" (end of the block)`, moveText(s.moves[i]))
	}
	s.sun()
	g.collectDead()
	for k, phase := range []func() *Divergence{s.resolve, s.gem, s.arrival, s.respawn} {
		s.step = len(s.moves) + 1 + k
		if d := phase(); d != nil {
			return d
		}
	}
	g.heal()
	g.rebuildLists()
	g.Round++
	d := s.tr.diffState(s.r+1, &g.State)
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
	return &Divergence{Round: s.r + 1, Unit: id, Field: field, Want: want, Got: got, Line: s.tr.unitLine(s.r+1, id)}
}

// playerMoves applies the printed player moves (SPEC §8.3).
func (s *ruleSim) playerMoves(i *int) *Divergence {
	g := s.g
	nPlayer := NumPlayers * (g.cfg.NbFuryans + g.cfg.NbPioneers)
	var units, last [NumPlayers]int
	for p := range units {
		units[p], last[p] = len(g.Furyans[p])+len(g.Pioneers[p]), -1
	}
	layer := 0
	for ; *i < len(s.moves) && s.moves[*i].ID < nPlayer; *i++ {
		m := s.moves[*i]
		s.step = *i + 1
		u := &g.Units[m.ID]
		switch {
		case m.Dir == None:
			return s.moveDiv(*i, "a direction other than n (None is never printed for a player)", moveText(m))
		case s.moved[m.ID]:
			return s.moveDiv(*i, "at most one move per unit and round", moveText(m))
		case u.Health <= 0:
			return s.moveDiv(*i, fmt.Sprintf("no move of unit %d (killed earlier in the round)", m.ID), moveText(m))
		}
		s.moved[m.ID] = true
		// Command k of every player runs before command k+1 of any: this is
		// at least command layer+1 of its player, who has units[p] units.
		p := u.Player
		layer = max(layer, last[p]+1)
		last[p] = layer
		if layer >= units[p] {
			return s.moveDiv(*i, fmt.Sprintf("an order of moves player %d's %d units allow", p, units[p]),
				fmt.Sprintf("%s, at least its command %d", moveText(m), layer+1))
		}
		ok, why, d := s.move(m.ID, m.Dir)
		if d != nil {
			return d
		}
		if !ok {
			return s.moveDiv(*i, "a move that succeeds", moveText(m)+" ("+why+")")
		}
	}
	return nil
}

// move is the movement procedure (SPEC §8.4), as Game.move, with the attack
// damage left to attack. It reports success, or why the move fails.
func (s *ruleSim) move(id int, d Dir) (bool, string, *Divergence) {
	g := s.g
	if d == None {
		return true, "", nil
	}
	u := &g.Units[id]
	t := u.Pos.Add(d)
	if t.I < 0 || t.I >= Rows || t.K < 0 || t.K > 1 {
		return false, "the target is off the board", nil
	}
	if (d == Up || d == Down) && g.Cells[u.Pos.Index()].Type != Elevator {
		return false, "Up and Down need an elevator", nil
	}
	if u.Type == Hellhound {
		g.stepTo(u, t)
		for dd := Bottom; dd <= LB; dd++ {
			if n := t.Add(dd); n.I >= 0 && n.I < Rows {
				if v := g.Cells[n.Index()].ID; v >= 0 {
					s.kill(int(v), -1)
				}
			}
		}
		return true, "", nil
	}
	tc := &g.Cells[t.Index()]
	if tc.ID < 0 {
		if tc.Type == Rock {
			return false, "the target is Rock", nil
		}
		if (t.K == 0 && g.nearHellhound(t)) || (t.K == 1 && Daylight(t, g.Round)) {
			s.kill(id, -1)
			return true, "", nil
		}
		g.stepTo(u, t)
		if u.Type == Pioneer {
			if tc.Type == Cave {
				tc.Owner = int8(u.Player)
			}
			if tc.Gem {
				tc.Gem = false
				g.NbGems[u.Player]++
			}
		}
		return true, "", nil
	}
	v := &g.Units[tc.ID]
	switch {
	case u.Player >= 0 && v.Player == u.Player:
		return false, "the target holds a unit of the same group", nil
	case v.Type == Hellhound:
		s.kill(id, -1)
		return true, "", nil
	case u.Type == Pioneer:
		return false, "Pioneers do not attack", nil
	}
	return true, "", s.attack(u, v)
}

// attack decides whether u's attack kills v: the damage is hidden, so both
// outcomes the damage range allows are explored, unless v's next state
// rules one out.
func (s *ruleSim) attack(u, v *Unit) *Divergence {
	lo, hi := MinDamageNecro, MaxDamageNecro
	if u.Type == Furyan {
		lo, hi = MinDamageFuryan, MaxDamageFuryan
	}
	h := &s.hits[v.ID]
	if !h.attacked {
		h.h0, h.attacked = v.Health, true
	}
	dies := s.diesInTrace(v, u.Player)
	canKill := min(h.hi, h.h0-1)+hi >= h.h0 && dies
	canLive := h.lo+lo <= h.h0-1
	switch s.choose(canKill, canLive) {
	case 0:
		s.kill(v.ID, u.Player)
	case 1:
		h.lo += lo
		h.hi += hi
	default: // the attack must kill v, but v's next state says it did not die
		nu := &s.next.Units[v.ID]
		if v.Type == Necromonger {
			return s.unitDiv(v.ID, "health", fmt.Sprintf("0 (killed by unit %d)", u.ID), fmt.Sprint(nu.Health))
		}
		want := fmt.Sprintf("%d (captured by unit %d)", u.Player, u.ID)
		if u.Player < 0 {
			want = fmt.Sprintf("a group other than %d (killed by unit %d)", v.Player, u.ID)
		}
		return s.unitDiv(v.ID, "group", want, fmt.Sprint(nu.Player))
	}
	return nil
}

// diesInTrace reports whether v's next state shows that it died this round,
// killed by group by (-1 for the environment).
func (s *ruleSim) diesInTrace(v *Unit, by int) bool {
	nu := &s.next.Units[v.ID]
	switch {
	case v.Type == Necromonger:
		return nu.Health <= 0 || nu.Turns != 0
	case by >= 0:
		return nu.Player == by
	}
	return nu.Player != v.Player
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

// kill is Kill(v, by) of SPEC §8.5 without the draw: the new group of a
// Pioneer or Furyan is read from the trace in resolve.
func (s *ruleSim) kill(id, by int) {
	g := s.g
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
	}
	s.killedBy[id] = by
}

// traceRounds steps the rules check one round at a time, for datasets
// (game.Rounds): sim.base holds the state at the start of round r, sim.g
// the state after it.
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
	if len(tr.States) != tr.Config.NbRounds+1 || len(tr.Moves) != tr.Config.NbRounds {
		return nil, errors.New("crematoria: incomplete trace")
	}
	g, err := verifier.Initial(tr, want)
	if err != nil {
		return nil, err
	}
	w := &Game{cfg: g.cfg, seed: g.seed, excl: make([]bool, LevelCells)}
	w.State.CopyFrom(&g.State)
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
	if t.err != nil || t.r+1 >= s.tr.Config.NbRounds {
		return false
	}
	if t.r >= 0 {
		s.base.State.CopyFrom(&s.g.State)
	}
	t.r++
	s.r, s.next, s.moves = t.r, &s.tr.States[t.r+1], s.tr.Moves[t.r]
	if d := s.round(); d != nil {
		t.err = d
		return false
	}
	return true
}
