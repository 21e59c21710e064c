package crematoria

import (
	"errors"
	"fmt"
	"strings"
)

// Divergence is the first place where a trace departs from what the engine
// does (with commands) or from what the rules allow (without). Want is what
// the verifier expected there, Got what the trace holds.
type Divergence struct {
	Round int    // the state or movements block of this round; -1 for the header
	Unit  int    // unit id, or -1
	Field string // e.g. "health", "pos", "grid (3, 4, 1)", "nb_cells", "movement"
	Want  string
	Got   string
	Line  int // line of the trace (1-based), 0 if unknown
}

func (d *Divergence) Error() string {
	var b strings.Builder
	if d.Round < 0 {
		b.WriteString("header")
	} else {
		fmt.Fprintf(&b, "round %d", d.Round)
	}
	if d.Unit >= 0 {
		fmt.Fprintf(&b, ", unit %d", d.Unit)
	}
	fmt.Fprintf(&b, ", %s: want %s, got %s", d.Field, d.Want, d.Got)
	if d.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", d.Line)
	}
	return b.String()
}

// VerifyOptions selects how Verify checks a trace.
type VerifyOptions struct {
	// Config is the configuration the game was played with: its eleven
	// settings must equal the trace header, and its map (GENERATOR or
	// FIXED) is used. When nil, the settings come from the header and the
	// initial state must be that of the GENERATOR game of the seed, or of
	// the FIXED game whose map is the first state's grid (the units, placed
	// by the board generator, tell the two apart).
	Config *Config
	// Commands are the command lists the players handed to the engine
	// (SPEC §15.4). With them the game is replayed exactly; without them
	// every round is checked against the rules.
	Commands *CommandLog
}

// Verify checks a trace: replayed from log when log is not nil, else
// against the rules. It returns nil, a *Divergence, or another error (a bad
// command log, an engine abort).
func Verify(tr *Trace, log *CommandLog) error {
	return VerifyWith(tr, VerifyOptions{Commands: log})
}

// VerifyWith is Verify with options.
func VerifyWith(tr *Trace, o VerifyOptions) error {
	if tr == nil || len(tr.States) != tr.Config.NbRounds+1 || len(tr.Moves) != tr.Config.NbRounds {
		return errors.New("verify: incomplete trace")
	}
	g, err := initialGame(tr, o.Config)
	if err != nil {
		return err
	}
	if o.Commands != nil {
		return replayCommands(tr, g, o.Commands)
	}
	return checkRules(tr, g)
}

// initialGame builds the game of the trace and checks its initial state.
func initialGame(tr *Trace, want *Config) (*Game, error) {
	if want != nil {
		got := tr.Config.Values()
		for i, v := range want.Values() {
			if got[i] != v {
				return nil, &Divergence{Round: -1, Unit: -1, Field: configKeys[i], Want: fmt.Sprint(v),
					Got: fmt.Sprint(got[i]), Line: 6 + i}
			}
		}
		g, err := New(*want, tr.Seed)
		if err != nil {
			return nil, fmt.Errorf("verify: build the game: %w", err)
		}
		if d := tr.diffState(0, &g.State); d != nil {
			return nil, d
		}
		return g, nil
	}
	// The trace does not say how its map was made. A GENERATOR game
	// must match the regenerated one exactly. A FIXED map uses no draws,
	// so the first state's grid (with the initial Pioneers' owners) is a
	// FIXED map giving the same initial state, and the units, placed by
	// the board generator, must match too: a generated trace with a changed
	// cell cannot pass as FIXED, its units come from a different stream.
	cfg := tr.Config
	cfg.Fixed = nil
	var best *Divergence
	bestDiffs := -1
	try := func(cfg Config) *Game {
		g, err := New(cfg, tr.Seed)
		if err != nil {
			return nil
		}
		d := tr.diffState(0, &g.State)
		if d == nil {
			return g
		}
		if n := countStateDiffs(&g.State, &tr.States[0]); bestDiffs < 0 || n < bestDiffs {
			best, bestDiffs = d, n
		}
		return nil
	}
	if g := try(cfg); g != nil {
		return g, nil
	}
	cfg.Fixed = make([]string, 0, Levels*Rows)
	for r := 0; r < Levels*Rows; r++ {
		cfg.Fixed = append(cfg.Fixed, string(tr.States[0].Grid[r*Cols:(r+1)*Cols]))
	}
	if g := try(cfg); g != nil {
		return g, nil
	}
	if best == nil {
		best = &Divergence{Round: 0, Unit: -1, Field: "map", Want: "a map on which the initial units fit",
			Got: "none (GENERATOR or FIXED)", Line: tr.StateLine(0)}
	}
	return nil, best
}

// countStateDiffs counts the cells and unit records that differ between s
// and the trace state, to report the closer of two candidate games.
func countStateDiffs(s *State, ts *TraceState) int {
	n := 0
	for idx := range s.Cells {
		if cellChar(&s.Cells[idx], idx/LevelCells) != ts.Grid[idx] {
			n++
		}
	}
	for id := range s.Units {
		if id >= len(ts.Units) || s.Units[id] != ts.Units[id] {
			n++
		}
	}
	return n
}

// replayCommands plays the game with the recorded commands and compares each
// movements block and state with the trace, in file order, so the first
// divergence is the first differing byte.
func replayCommands(tr *Trace, g *Game, log *CommandLog) error {
	if err := checkCommandLog(log, tr.Config.NbRounds); err != nil {
		return err
	}
	for r := 0; r < tr.Config.NbRounds; r++ {
		if err := g.Step(log.Round(r)); err != nil {
			return fmt.Errorf("verify: round %d: %w", r, err)
		}
		if d := tr.diffMoves(r, g.Moves); d != nil {
			return d
		}
		if d := tr.diffState(r+1, &g.State); d != nil {
			return d
		}
	}
	return nil
}

// checkCommandLog checks that the log could come from the player-side
// filter (SPEC §8.1): at most MaxCommands per list, one command per unit.
func checkCommandLog(log *CommandLog, rounds int) error {
	if len(log.Rounds) > rounds {
		return fmt.Errorf("%w: %d rounds of commands for a game of %d rounds", ErrCommandFile, len(log.Rounds), rounds)
	}
	for r := range log.Rounds {
		for p, cmds := range log.Rounds[r] {
			if len(cmds) > MaxCommands {
				return fmt.Errorf("%w: round %d player %d: %d commands (max %d)", ErrCommandFile, r, p, len(cmds), MaxCommands)
			}
			seen := make(map[int]bool, len(cmds))
			for _, c := range cmds {
				if c.ID != -1 && seen[c.ID] {
					return fmt.Errorf("%w: round %d player %d: unit %d commanded twice (the player-side filter keeps one)", ErrCommandFile, r, p, c.ID)
				}
				seen[c.ID] = true
			}
		}
	}
	return nil
}

func moveText(m Move) string { return fmt.Sprintf("%q", fmt.Sprintf("%d %c", m.ID, m.Dir.Char())) }

// diffMoves compares the movements block of round r with want.
func (t *Trace) diffMoves(r int, want []Move) *Divergence {
	got := t.Moves[r]
	for i := 0; i < len(want) || i < len(got); i++ {
		d := &Divergence{Round: r, Unit: -1, Field: "movement", Line: t.MovesLine(r) + 1 + i}
		switch {
		case i >= len(got):
			d.Unit, d.Want, d.Got = want[i].ID, moveText(want[i]), `"-1" (end of the block)`
		case i >= len(want):
			d.Unit, d.Want, d.Got = got[i].ID, `"-1" (end of the block)`, moveText(got[i])
		case want[i] != got[i]:
			d.Unit, d.Want, d.Got = got[i].ID, moveText(want[i]), moveText(got[i])
		default:
			continue
		}
		return d
	}
	return nil
}

// diffState compares state k of the trace with s, field by field in file
// order.
func (t *Trace) diffState(k int, s *State) *Divergence {
	ts := &t.States[k]
	for idx := range s.Cells {
		want, got := cellChar(&s.Cells[idx], idx/LevelCells), ts.Grid[idx]
		if want != got {
			p := PosOf(idx)
			return &Divergence{Round: k, Unit: -1, Field: "grid " + p.String(), Want: string(want), Got: string(got),
				Line: t.gridLine(k, p)}
		}
	}
	if s.Round != ts.Round {
		return &Divergence{Round: k, Unit: -1, Field: "round", Want: fmt.Sprint(s.Round), Got: fmt.Sprint(ts.Round),
			Line: t.stateFieldLine(k, 0)}
	}
	for f, pair := range [2][2][NumPlayers]int{{s.NbCells, ts.NbCells}, {s.NbGems, ts.NbGems}} {
		if pair[0] != pair[1] {
			return &Divergence{Round: k, Unit: -1, Field: [2]string{"nb_cells", "nb_gems"}[f],
				Want: fmt.Sprint(pair[0]), Got: fmt.Sprint(pair[1]), Line: t.stateFieldLine(k, 1+f)}
		}
	}
	if len(s.Units) != len(ts.Units) {
		return &Divergence{Round: k, Unit: -1, Field: "units", Want: fmt.Sprint(len(s.Units)), Got: fmt.Sprint(len(ts.Units))}
	}
	for id := range s.Units {
		if d := t.diffUnit(k, &s.Units[id], &ts.Units[id]); d != nil {
			return d
		}
	}
	return nil
}

func (t *Trace) diffUnit(k int, w, g *Unit) *Divergence {
	d := &Divergence{Round: k, Unit: w.ID, Line: t.unitLine(k, w.ID)}
	switch {
	case w.Type != g.Type:
		d.Field, d.Want, d.Got = "type", string(w.Type.Char()), string(g.Type.Char())
	case w.Player != g.Player:
		d.Field, d.Want, d.Got = "group", fmt.Sprint(w.Player), fmt.Sprint(g.Player)
	case w.Health != g.Health:
		d.Field, d.Want, d.Got = "health", fmt.Sprint(w.Health), fmt.Sprint(g.Health)
	case w.Turns != g.Turns:
		d.Field, d.Want, d.Got = "turns", fmt.Sprint(w.Turns), fmt.Sprint(g.Turns)
	case w.Pos != g.Pos:
		d.Field, d.Want, d.Got = "pos", w.Pos.String(), g.Pos.String()
	default:
		return nil
	}
	return d
}

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
		}
	}
	v.Health = 0
	if v.Type == Necromonger {
		v.Pos = NoPos
	}
	s.killedBy[id] = by
}

// necromongers checks the necromonger lines and applies the moves, then
// lands the descending necromongers (SPEC §8.6).
func (s *ruleSim) necromongers(i *int) *Divergence {
	g := s.g
	g.srcs = g.srcs[:0]
	for id := range g.Units {
		if u := &g.Units[id]; (u.Type == Pioneer || u.Type == Furyan) && u.Health > 0 && u.Pos.K == 1 {
			g.srcs = append(g.srcs, u.Pos)
		}
	}
	for _, id := range g.startNec {
		if u := &g.Units[id]; u.Health <= 0 || u.Turns != 0 {
			continue
		}
		if d := s.envMove(i, id, s.necroChoices(id)); d != nil {
			return d
		}
	}
	for _, id := range g.startNec {
		u := &g.Units[id]
		if u.Turns <= 0 {
			continue
		}
		if u.Turns--; u.Turns == 0 {
			c := &g.Cells[u.Pos.Index()]
			if c.ID >= 0 {
				s.kill(int(c.ID), -1)
			}
			c.ID = int16(id)
		}
	}
	return nil
}

// envMove checks that line i moves unit id in one of the allowed
// directions, then applies it.
func (s *ruleSim) envMove(i *int, id int, allowed []Dir) *Divergence {
	s.step = *i + 1
	if *i >= len(s.moves) || s.moves[*i].ID != id {
		got := `"-1" (end of the block)`
		if *i < len(s.moves) {
			got = moveText(s.moves[*i])
		}
		return s.moveDiv(*i, fmt.Sprintf("a move of %s %d", s.g.Units[id].Type, id), got)
	}
	m := s.moves[*i]
	ok := false
	var want []byte
	for _, d := range allowed {
		ok = ok || d == m.Dir
		want = append(want, ' ', d.Char())
	}
	if !ok {
		return s.moveDiv(*i, fmt.Sprintf("a direction among [%s] (the rules' candidates)", want[1:]), moveText(m))
	}
	if ok, why, d := s.move(id, m.Dir); d != nil || !ok {
		if d == nil {
			d = s.moveDiv(*i, "a move that succeeds", moveText(m)+" ("+why+")")
		}
		return d
	}
	*i++
	return nil
}

// necroChoices returns the directions a landed necromonger may take: the
// attack candidates, else the approach candidates at minimum distance, else
// the free cells among BR, Right, RT, else None (SPEC §8.6).
func (s *ruleSim) necroChoices(id int) []Dir {
	g := s.g
	u := &g.Units[id]
	g.cands, g.attack = g.cands[:0], g.attack[:0]
	best := far
	for d := Bottom; d <= LB; d++ {
		n := u.Pos.Add(d)
		if n.I < 0 || n.I >= Rows {
			continue
		}
		c := &g.Cells[n.Index()]
		if c.ID >= 0 {
			if t := g.Units[c.ID].Type; t == Pioneer || t == Furyan {
				g.attack = append(g.attack, d)
			}
			continue
		}
		if len(g.srcs) == 0 {
			continue
		}
		v := far
		for _, src := range g.srcs {
			v = min(v, Cheb(n, src))
		}
		if v < best {
			best, g.cands = v, g.cands[:0]
		}
		if v == best {
			g.cands = append(g.cands, d)
		}
	}
	switch {
	case len(g.attack) > 0:
		return g.attack
	case len(g.cands) > 0:
		return g.cands
	}
	for _, d := range [3]Dir{BR, Right, RT} {
		if n := u.Pos.Add(d); n.I >= 0 && n.I < Rows && g.Cells[n.Index()].ID < 0 {
			g.cands = append(g.cands, d)
		}
	}
	if len(g.cands) == 0 {
		g.cands = append(g.cands, None)
	}
	return g.cands
}

// hellhounds checks the hellhound lines and applies the moves (SPEC §8.7).
func (s *ruleSim) hellhounds(i *int) *Divergence {
	g := s.g
	s.d0 = distancesD0(&g.State, s.d0)
	for _, id := range g.Hellhounds {
		u := &g.Units[id]
		g.cands = g.cands[:0]
		best := int32(far + 1)
		for d := Bottom; d <= LB; d++ {
			n := u.Pos.Add(d)
			if n.I < 0 || n.I >= Rows || g.Cells[n.Index()].Type == Rock {
				continue
			}
			ok := true
			for _, o := range g.Hellhounds {
				ok = ok && (o == id || Cheb(n, g.Units[o].Pos) >= 2)
			}
			if !ok {
				continue
			}
			if v := s.d0[n.I*Cols+n.J]; v < best {
				best, g.cands = v, append(g.cands[:0], d)
			} else if v == best {
				g.cands = append(g.cands, d)
			}
		}
		if len(g.cands) == 0 {
			g.cands = append(g.cands, None)
		}
		if d := s.envMove(i, id, g.cands); d != nil {
			return d
		}
	}
	return nil
}

// sun burns the columns leaving the night band (SPEC §8.9).
func (s *ruleSim) sun() {
	g := s.g
	t1 := NightStart(g.Round)
	for i := 0; i < Rows; i++ {
		for _, j := range [2]int{t1, t1 + 1} {
			g.Cells[Pos{i, j, 1}.Index()].Gem = false
		}
		for _, j := range [2]int{t1, t1 + 1} {
			if id := g.Cells[Pos{i, j, 1}.Index()].ID; id >= 0 {
				s.kill(int(id), -1)
			}
		}
	}
}

// resolve reads the hidden outcomes from the next state: the new group of
// every Pioneer or Furyan that died, and the damage survivors took.
func (s *ruleSim) resolve() *Divergence {
	g := s.g
	for id := range g.Units {
		u, nu, h := &g.Units[id], &s.next.Units[id], &s.hits[id]
		switch {
		case u.Type == Hellhound:
		case u.Type != Necromonger && u.Health == 0:
			by := s.killedBy[id]
			if by >= 0 && nu.Player != by {
				return s.unitDiv(id, "group", fmt.Sprintf("%d (captured by group %d)", by, by), fmt.Sprint(nu.Player))
			}
			if by < 0 && (nu.Player == u.Player || nu.Player < 0 || nu.Player >= NumPlayers) {
				return s.unitDiv(id, "group", fmt.Sprintf("a group other than %d (killed by the environment)", u.Player), fmt.Sprint(nu.Player))
			}
			u.Player = nu.Player
		case h.attacked && u.Health > 0 && !s.diesInTrace(u, -1):
			// The unit survived and was healed: its health before healing is
			// the printed one minus the recovery (never capped after a hit).
			x := nu.Health - HealthRecovery
			if dmg := h.h0 - x; x < 1 || dmg < h.lo || dmg > h.hi {
				return s.unitDiv(id, "health", fmt.Sprintf("%d..%d (health %d, damage %d..%d, healing %d)",
					max(h.h0-h.hi, 1)+HealthRecovery, h.h0-h.lo+HealthRecovery, h.h0, h.lo, h.hi, HealthRecovery), fmt.Sprint(nu.Health))
			}
			u.Health = x
		}
	}
	return nil
}

// gem accepts at most one new gem on an Outside cell of the new-night
// columns (SPEC §8.11).
func (s *ruleSim) gem() *Divergence {
	g := s.g
	created := -1
	for _, idx := range g.newNightCells(g.free[:0], false) {
		if g.Cells[idx].Gem || s.next.Grid[idx] != 'G' {
			continue
		}
		if created >= 0 {
			p := PosOf(idx)
			return &Divergence{Round: s.r + 1, Unit: -1, Field: "grid " + p.String(), Line: s.tr.gridLine(s.r+1, p),
				Want: fmt.Sprintf("O (at most one gem appears per round, one did at %v)", PosOf(created)), Got: "G"}
		}
		created = idx
	}
	if created >= 0 {
		g.Cells[created].Gem = true
	}
	return nil
}

// arrival accepts at most one necromonger arrival, when allowed, on a free
// Outside cell of the new-night columns (SPEC §8.12).
func (s *ruleSim) arrival() *Divergence {
	g := s.g
	arrived := -1
	for _, id := range g.deadNec {
		u, nu := &g.Units[id], &s.next.Units[id]
		if nu.Health == 0 {
			continue
		}
		switch {
		case len(g.startNec) >= g.cfg.MaxNecros:
			return s.unitDiv(id, "health", fmt.Sprintf("0 (no arrival: %d necromongers at the start of the round, max %d)",
				len(g.startNec), g.cfg.MaxNecros), fmt.Sprint(nu.Health))
		case arrived >= 0:
			return s.unitDiv(id, "health", fmt.Sprintf("0 (necromonger %d arrived this round)", arrived), fmt.Sprint(nu.Health))
		}
		n1 := (NightStart(g.Round) + 40) % Cols
		p := nu.Pos
		if !p.OnBoard() || p.K != 1 || (p.J != n1 && p.J != n1+1) || g.Cells[p.Index()].Type != Outside || g.Cells[p.Index()].Gem {
			return s.unitDiv(id, "pos", fmt.Sprintf("an Outside cell without gem in columns %d-%d of level 1", n1, n1+1), p.String())
		}
		u.Health, u.Turns, u.Pos = NecromongerHealth, g.cfg.TurnsToLand, p
		arrived = id
	}
	return nil
}

// respawn accepts the reborn units' cells: free level-0 caves at distance
// >= 2 from Pioneers, Furyans and each other, >= 4 from hellhounds (SPEC
// §8.13). Any such set is reachable by some pair of permutations.
func (s *ruleSim) respawn() *Divergence {
	g := s.g
	excl := g.excl
	clear(excl)
	for idx := 0; idx < LevelCells; idx++ {
		if id := g.Cells[idx].ID; id >= 0 {
			r := 1
			if g.Units[id].Type == Hellhound {
				r = 3
			}
			markSquare(excl, PosOf(idx), r)
		}
	}
	for _, id := range g.deadOther {
		u, p := &g.Units[id], s.next.Units[id].Pos
		if !p.OnBoard() || p.K != 0 || g.Cells[p.Index()].Type != Cave || excl[p.I*Cols+p.J] {
			return s.unitDiv(id, "pos", "a free level-0 cave at distance >= 2 from Pioneers and Furyans and >= 4 from hellhounds", p.String())
		}
		u.Health, u.Pos = u.Type.MaxHealth(), p
		c := &g.Cells[p.Index()]
		c.ID = int16(id)
		if u.Type == Pioneer {
			c.Owner = int8(u.Player)
		}
		markSquare(excl, p, 1)
	}
	return nil
}

// distancesD0 returns D0 of SPEC §8.7 for every level-0 cell: the
// 8-connected distance through non-Rock cells to the nearest Pioneer or
// Furyan on level 0, far where unreachable. It is a plain breadth-first
// search, independent of the engine's faster one.
func distancesD0(s *State, d0 []int32) []int32 {
	if len(d0) != 2*LevelCells {
		d0 = make([]int32, 2*LevelCells)
	}
	dist, queue := d0[:LevelCells], d0[LevelCells:LevelCells]
	for idx := range dist {
		dist[idx] = far
		if id := s.Cells[idx].ID; id >= 0 && (s.Units[id].Type == Pioneer || s.Units[id].Type == Furyan) {
			dist[idx] = 0
			queue = append(queue, int32(idx))
		}
	}
	for h := 0; h < len(queue); h++ {
		p := PosOf(int(queue[h]))
		for d := Bottom; d <= LB; d++ {
			n := p.Add(d)
			if n.I < 0 || n.I >= Rows || s.Cells[n.Index()].Type == Rock || dist[n.Index()] != far {
				continue
			}
			dist[n.Index()] = dist[queue[h]] + 1
			queue = append(queue, int32(n.Index()))
		}
	}
	return d0
}
