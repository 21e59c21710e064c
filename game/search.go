package game

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"jgym/course"
	"jgym/env"
)

// SearchBotName is the name every game registers its search bot under
// (Define): a SearchBot with the default SearchOptions.
const SearchBotName = "Search"

// MatchBot is implemented by bots that play from the match itself rather
// than from their view of the state (a search, which copies the match to
// try its moves): a Match calls PlayMatch(m, me, o) instead of Play.
// PlayMatch must not change m; it may copy it (Match.Copy).
type MatchBot[C Config, G, S any, D Dir] interface {
	Bot[S, D]
	PlayMatch(m *Match[C, G, S, D], me int, o *Orders[D])
}

// SearchOptions are the sizes of a SearchBot's search.
type SearchOptions struct {
	// Candidates is the number of alternatives tried each round besides
	// the rollout policy's own orders.
	Candidates int
	// Rollouts is the number of rollouts per candidate; every candidate
	// is played with the same rollout seeds (common random numbers).
	Rollouts int
	// Horizon is the number of rounds a rollout plays, the candidate's
	// round included (fewer at the end of the game).
	Horizon int
	// Screen, if more than Candidates, is the number of alternatives
	// drawn each round and screened by one short rollout (ScreenHorizon
	// rounds) each; the Candidates best of them go on to the rollouts.
	Screen int
	// Sweep, if positive, replaces the random alternatives: each round
	// Sweep of my units (drawn with the bot's generator, no unit twice)
	// each get every other direction, dropped included, as
	// alternatives (Candidates then only bounds screening).
	Sweep int
	// Verify, if positive, is the number of fresh rollouts (seeds the
	// search has not used this round) that the chosen alternative and the
	// strong bot's orders play again before the alternative is played: it
	// must beat the orders in at least three quarters of them, and on
	// their mean. Picking the best of several alternatives that each beat
	// the orders in a few rollouts mostly picks luck (a move that changes
	// nothing that matters beats them in both of two rollouts one time in
	// four); fresh rollouts are free of that selection.
	Verify int
}

// ScreenHorizon is the horizon of a screening rollout (SearchOptions.Screen).
const ScreenHorizon = 2

// DefaultSearch are the options of the registered search bot.
var DefaultSearch = SearchOptions{Candidates: 4, Rollouts: 2, Horizon: 30}

// SearchBot is a rollout planner written once for every game: each round
// it asks the game's strong bot (Def.StrongBot, the rollout policy) for
// its orders, makes a few alternatives of them (one unit's command
// changed to another legal direction, or dropped: for random units, or
// every alternative of a few units with SearchOptions.Sweep), and for each
// candidate plays copies of the match (Match.Copy): the candidate and the
// other seats' strong bots for the round, then the strong bot at every
// seat for the rest of the horizon. A candidate's value is its mean over
// the rollouts of its own score minus the best opponent's at the
// horizon. An alternative is played only if it beat the strong bot's
// orders in every rollout (the same seeds for every candidate), the best
// mean among those; otherwise the strong bot's orders.
//
// What it may know. The course engines give every player the whole
// state (each game's SPEC), so a copy of the engine shows the search
// nothing a player does not see, except two things it must not use:
//
//   - the engine's random generator: its future draws are not visible to
//     a player. Every rollout reseeds its copy's generator with a seed of
//     its own (from the bot's seed, the round and the rollout's index), so
//     the search never foresees the real game's random outcomes; an engine
//     whose generator cannot be reseeded (neither Rand() *course.Rand nor
//     Reseed(int)) is refused (Err).
//   - the other seats' bots (their memories and generators): the
//     rollouts seat fresh strong bots of their own (Match.Copy with
//     bots), never copies of the real ones.
//
// Its own strong bot plays every round on the real state, as it would in
// the seat, so that its memory is the strong bot's; the rollouts' strong
// bots start fresh at the copy's round. It is deterministic given the
// game's seed. It searches only when a Match asks it (MatchBot); asked
// through Play, with no match to copy, it plays the strong bot's orders.
//
// It costs seconds of CPU per game, far above the course's budget (0.5 s
// a match, docs/students.md): a bot for jgym's tables, not for the judge.
type SearchBot[C Config, G, S any, D Dir] struct {
	def    *Def[C, G, S, D]
	opts   SearchOptions
	me     int
	seed   int
	strong BotFactory[S, D]
	own    Bot[S, D] // the strong bot of the seat, on the real state every round
	rng    course.Rand
	err    error

	numDirs int // directions per unit slot (the env's NumActions)
	scratch S
	base    Orders[D]
	cands   [][]Command[D]
	values  []float64
	better  []int // per candidate: rollouts where it beat the strong bot's orders
	played  []int // per candidate: rollouts played
	units   []int
	// Stats, for measurements: alternatives evaluated by rollouts, rounds
	// where one was played, rollout rounds played, alternatives screened,
	// verification rollouts (pairs) played.
	Tried, Changed, RolloutRounds, Screened, Verified int
}

var _ MatchBot[nopConfig, int, int, int8] = (*SearchBot[nopConfig, int, int, int8])(nil)

// NewSearchBot returns the search bot of seat me of a game with the seed,
// with the game's strong bot as rollout policy.
func (d *Def[C, G, S, D]) NewSearchBot(me, seed int, opts SearchOptions) *SearchBot[C, G, S, D] {
	b := &SearchBot[C, G, S, D]{def: d, opts: opts, me: me, seed: seed}
	b.rng.Seed(seed + me + 1)
	f, err := d.Bots.Lookup(d.StrongBot)
	if err != nil {
		b.err = fmt.Errorf("search: the rollout policy: %w", err)
		return b
	}
	b.strong = f
	b.own = f(me, seed)
	b.base.rules = &d.Orders
	return b
}

// SearchFactory returns a BotFactory of search bots with opts.
func (d *Def[C, G, S, D]) SearchFactory(opts SearchOptions) BotFactory[S, D] {
	return func(me, seed int) Bot[S, D] { return d.NewSearchBot(me, seed, opts) }
}

// Err is the error that stops the bot (no strong bot, an engine whose
// generator cannot be reseeded, a copy that failed).
func (b *SearchBot[C, G, S, D]) Err() error { return b.err }

// Values are the candidates' mean rollout values of the last round
// searched (the strong bot's orders first; empty when the round had no
// alternative), for tests and tools.
func (b *SearchBot[C, G, S, D]) Values() []float64 { return b.values }

// Play, without a match to search, plays the strong bot's orders.
func (b *SearchBot[C, G, S, D]) Play(s *S, o *Orders[D]) {
	if b.own != nil {
		b.own.Play(s, o)
	}
}

// Reseed sets the random generator of engine g to seed; false if the
// engine offers none.
func Reseed[G any](g G, seed int) bool {
	switch e := any(g).(type) {
	case interface{ Rand() *course.Rand }:
		e.Rand().Seed(seed)
	case interface{ Reseed(int) }:
		e.Reseed(seed)
	default:
		return false
	}
	return true
}

// PlayMatch searches the round m is about to play and gives the best
// candidate's orders.
func (b *SearchBot[C, G, S, D]) PlayMatch(m *Match[C, G, S, D], me int, o *Orders[D]) {
	if b.err != nil || b.own == nil {
		return
	}
	def, s := b.def, m.State()
	n := def.NumUnits(s)
	b.base.Reset(n)
	playBot(def, b.own, s, me, &b.scratch, &b.base)
	if err := b.base.Err(); err != nil {
		b.err = err
		return
	}
	base := b.base.List()
	if b.numDirs == 0 {
		spec, err := def.Spec(m.Config())
		if err != nil {
			b.err = fmt.Errorf("search: %w", err)
			return
		}
		b.numDirs = spec.NumActions
	}
	b.candidates(s, me, n, base)
	if err := b.screen(m, me); err != nil {
		b.err = err
		return
	}
	b.values = b.values[:0]
	if len(b.cands) > 1 {
		if err := b.evaluate(m, me); err != nil {
			b.err = err
			return
		}
		b.Tried += len(b.cands) - 1
	}
	// An alternative must beat the strong bot's orders in every rollout
	// (same seeds): the best mean of a few noisy estimates is otherwise
	// mostly luck.
	best := 0
	for i, v := range b.values {
		if i > 0 && b.better[i] == b.opts.Rollouts && v > b.values[best] {
			best = i
		}
	}
	if best != 0 && b.opts.Verify > 0 {
		ok, err := b.verify(m, me, best)
		if err != nil {
			b.err = err
			return
		}
		if !ok {
			best = 0
		}
	}
	if best != 0 {
		b.Changed++
	}
	for _, c := range b.cands[best] {
		o.Command(c.ID, c.Dir)
	}
}

// candidates fills b.cands: the strong bot's orders first, then up to
// Candidates alternatives, each the strong bot's orders with one of my
// unit's command changed to another legal direction (or dropped), drawn
// with the bot's own generator; no two alike.
func (b *SearchBot[C, G, S, D]) candidates(s *S, me, n int, base []Command[D]) {
	def := b.def
	b.cands = append(b.cands[:0], slices.Clone(base))
	b.units = b.units[:0]
	for id := range n {
		if def.Owner(s, id) == me {
			b.units = append(b.units, id)
		}
	}
	if len(b.units) == 0 || b.numDirs <= 1 {
		return
	}
	if b.opts.Sweep > 0 {
		b.sweep(s, me, base)
		return
	}
	k := max(b.opts.Candidates, b.opts.Screen)
	for tries := 0; len(b.cands) <= k && tries < 4*k; tries++ {
		id := b.units[b.rng.Int(0, len(b.units)-1)]
		d := D(b.rng.Int(0, b.numDirs-1))
		if d != def.None && !def.Legal(s, me, id, d) {
			continue
		}
		b.addAlt(base, id, d)
	}
}

// addAlt appends to b.cands the strong bot's orders base with unit id's
// command changed to d (dropped if d is None), unless b.cands holds it.
func (b *SearchBot[C, G, S, D]) addAlt(base []Command[D], id int, d D) {
	c := make([]Command[D], 0, len(base)+1)
	found := false
	for _, x := range base {
		if x.ID == id {
			found = true
			if d == b.def.None {
				continue
			}
			x.Dir = d
		}
		c = append(c, x)
	}
	if !found {
		if d == b.def.None {
			return
		}
		c = append(c, Command[D]{id, d})
	}
	if slices.ContainsFunc(b.cands, func(o []Command[D]) bool { return slices.Equal(o, c) }) {
		return
	}
	b.cands = append(b.cands, c)
}

// sweep appends to b.cands every alternative of Sweep of my units (b.units),
// drawn with the bot's generator: each other legal direction, or the
// command dropped.
func (b *SearchBot[C, G, S, D]) sweep(s *S, me int, base []Command[D]) {
	units := b.units
	for i := 0; i < b.opts.Sweep && i < len(units); i++ {
		j := b.rng.Int(i, len(units)-1)
		units[i], units[j] = units[j], units[i]
		id := units[i]
		for d := range b.numDirs {
			if dd := D(d); dd == b.def.None || b.def.Legal(s, me, id, dd) {
				b.addAlt(base, id, dd)
			}
		}
	}
}

// screen keeps the strong bot's orders and the Candidates alternatives
// of b.cands whose one rollout of ScreenHorizon rounds (the same seed for
// all) is worth most, in their order (no screening when b.cands holds
// no more).
func (b *SearchBot[C, G, S, D]) screen(m *Match[C, G, S, D], me int) error {
	if len(b.cands) <= b.opts.Candidates+1 || b.opts.Sweep > 0 && b.opts.Screen == 0 {
		return nil
	}
	rs := b.rolloutSeed(m.Round(), 1<<40)
	type scored struct {
		i int
		v float64
	}
	sc := make([]scored, 0, len(b.cands)-1)
	for i, c := range b.cands[1:] {
		v, err := b.rollout(m, me, c, rs, ScreenHorizon)
		if err != nil {
			return err
		}
		sc = append(sc, scored{i + 1, v})
	}
	slices.SortStableFunc(sc, func(x, y scored) int { return cmp.Compare(y.v, x.v) })
	keep := sc[:b.opts.Candidates]
	slices.SortFunc(keep, func(x, y scored) int { return cmp.Compare(x.i, y.i) })
	out := b.cands[:1]
	for _, k := range keep {
		out = append(out, b.cands[k.i])
	}
	b.cands = out
	b.Screened += len(sc)
	return nil
}

// evaluate fills b.values with each candidate's mean rollout value.
// Rollouts are lazy: an alternative that did not beat the strong bot's
// orders in a rollout can no longer be played (it must beat them in
// every rollout), so it plays no more (its value is the mean of those it
// played); the decisions are those of playing them all.
func (b *SearchBot[C, G, S, D]) evaluate(m *Match[C, G, S, D], me int) error {
	n := len(b.cands)
	b.values = slices.Grow(b.values[:0], n)[:n]
	clear(b.values)
	b.better = slices.Grow(b.better[:0], n)[:n]
	clear(b.better)
	b.played = slices.Grow(b.played[:0], n)[:n]
	clear(b.played)
	defer func() {
		for i := range b.values {
			if b.played[i] > 0 {
				b.values[i] /= float64(b.played[i])
			}
		}
	}()
	round := m.Round()
	for r := range b.opts.Rollouts {
		rs := b.rolloutSeed(round, r)
		var v0 float64
		for i, c := range b.cands {
			if i > 0 && b.better[i] < r {
				continue
			}
			if i == 0 && !slices.ContainsFunc(b.better[1:], func(k int) bool { return k == r }) {
				return nil
			}
			v, err := b.rollout(m, me, c, rs, b.opts.Horizon)
			if err != nil {
				return err
			}
			b.played[i]++
			if i == 0 {
				v0 = v
			} else if v > v0 {
				b.better[i]++
			}
			b.values[i] += v
		}
	}
	return nil
}

// verify plays candidate i and the strong bot's orders (candidate 0) in
// Verify fresh rollouts, paired by seed, and reports whether i beat them
// in at least three quarters of the rollouts and on the mean. It stops
// as soon as i can no longer reach three quarters.
func (b *SearchBot[C, G, S, D]) verify(m *Match[C, G, S, D], me, i int) (bool, error) {
	n := b.opts.Verify
	need := n - n/4
	round := m.Round()
	wins, lost := 0, 0
	var sum float64
	for r := range n {
		rs := b.rolloutSeed(round, b.opts.Rollouts+r)
		v0, err := b.rollout(m, me, b.cands[0], rs, b.opts.Horizon)
		if err != nil {
			return false, err
		}
		v, err := b.rollout(m, me, b.cands[i], rs, b.opts.Horizon)
		if err != nil {
			return false, err
		}
		b.Verified++
		sum += v - v0
		if v > v0 {
			wins++
		} else if lost++; n-lost < need {
			return false, nil
		}
	}
	return wins >= need && sum > 0, nil
}

// rollout plays candidate c in a copy of m whose generator is reseeded
// with rs, then the strong bots up to the horizon, and returns my score minus the best
// opponent's at the horizon.
func (b *SearchBot[C, G, S, D]) rollout(m *Match[C, G, S, D], me int, c []Command[D], rs, horizon int) (float64, error) {
	var bots [NumSeats]Bot[S, D]
	for p := range bots {
		if p != me {
			bots[p] = b.strong(p, rs)
		}
	}
	cp, err := m.Copy(&bots)
	if err != nil {
		return 0, fmt.Errorf("search: %w", err)
	}
	if !Reseed(cp.Game, rs) {
		return 0, fmt.Errorf("search: %s's engine has no generator to reseed (Rand() *course.Rand or Reseed(int)): a rollout would foresee the game's random draws", b.def.Name)
	}
	err = cp.Play(func(p int, o *Orders[D]) {
		if p == me {
			for _, x := range c {
				o.Command(x.ID, x.Dir)
			}
		}
	})
	cp.Bots[me] = b.strong(me, rs)
	for h := 1; err == nil && h < horizon && !cp.Done(); h++ {
		err = cp.Play(nil)
		b.RolloutRounds++
	}
	b.RolloutRounds++
	if err != nil && !errors.Is(err, ErrAbort) {
		return 0, fmt.Errorf("search: rollout: %w", err)
	}
	sc := cp.Scores()
	best := math.MinInt
	for p, v := range sc {
		if p != me && v > best {
			best = v
		}
	}
	return float64(sc[me] - best), nil
}

// rolloutSeed is the seed of rollout r of a round (the screening's: r =
// 1<<40): from the bot's seed and seat, never the real generator's state.
func (b *SearchBot[C, G, S, D]) rolloutSeed(round, r int) int {
	return int(uint32(env.Mix64(uint64(b.seed), uint64(b.me), uint64(round), uint64(r))) & math.MaxInt32)
}
