package env

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// instance is one table of a Host: the seating, the bots, the trace file
// and the rewards around the game's Table.
type instance[C, B any] struct {
	f           *factory[C, B]
	t           Table[B]
	live        bool          // a game was started by Reset
	seat        [NumSeats]int // setup seat j plays as player seat[j]
	learnerSeat []int         // player of each learner
	learners    []Learner     // the learners' actions of a step
	bots        [NumSeats]B   // by player; the zero B for learners
	openTrace   TraceOpener
	traceFile   io.WriteCloser
	episode     int
	seed        int64 // the current game's seed
}

var (
	_ Instance = (*instance[int, any])(nil)
	_ Tracer   = (*instance[int, any])(nil)
)

// TableOf returns the table of an instance a Host made, as the game's
// type T, for tests and tools that look inside a game; ok is false when
// in is not a Host's or its table is not a T.
func TableOf[T any](in Instance) (t T, ok bool) {
	h, ok := in.(interface{ table() any })
	if !ok {
		return t, false
	}
	t, ok = h.table().(T)
	return t, ok
}

func (in *instance[C, B]) table() any { return in.t }

// Reset starts a new game: the seating (shuffled with a generator derived
// from the seed when the setup asks), fresh bots, the table's game of the
// seed, its trace.
func (in *instance[C, B]) Reset(seed int64) error {
	return in.start(seed, nil, func(names [NumSeats]string) error {
		return in.t.Reset(seed, names, in.bots)
	})
}

// start starts a game of the seed: the seating (seat, or the setup's,
// shuffled with a generator derived from the seed when it asks), fresh
// bots, then begin starts the table's game, then its trace.
func (in *instance[C, B]) start(seed int64, seat *[NumSeats]int, begin func(names [NumSeats]string) error) error {
	in.live = false
	if err := errors.Join(in.endTrace(), in.closeBots()); err != nil {
		return err
	}
	f := in.f
	switch {
	case seat != nil:
		in.seat = *seat
	default:
		for j := range in.seat {
			in.seat[j] = j
		}
		if f.setup.Shuffle {
			shuffleSeats(&in.seat, seed)
		}
	}
	for l, j := range f.learners {
		in.learnerSeat[l] = in.seat[j]
	}
	var names [NumSeats]string
	for j, bf := range f.bots {
		p := in.seat[j]
		names[p] = seatName(f.setup.Seats[j])
		if bf != nil {
			in.bots[p] = bf(p, int(seed))
		}
	}
	if err := begin(names); err != nil {
		in.closeBots()
		return fmt.Errorf("new game seed %d: %w", seed, err)
	}
	in.live = true
	in.seed = seed
	in.episode++
	if in.openTrace != nil {
		return in.startTrace(in.episode-1, seed)
	}
	return nil
}

// SetTrace makes the instance write a trace of each game.
func (in *instance[C, B]) SetTrace(open TraceOpener) { in.openTrace = open }

// startTrace opens the trace of a new game and writes its header and
// initial state.
func (in *instance[C, B]) startTrace(episode int, seed int64) error {
	w, err := in.openTrace(episode, seed)
	if err != nil {
		return fmt.Errorf("open trace: %w", err)
	}
	in.traceFile = w
	return in.t.StartTrace(w)
}

// endTrace closes the current trace, if any.
func (in *instance[C, B]) endTrace() error {
	if in.traceFile == nil {
		return nil
	}
	err := in.t.EndTrace()
	if cerr := in.traceFile.Close(); err == nil {
		err = cerr
	}
	in.traceFile = nil
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	return nil
}

// seatName is the name a seat gets in a trace: the bot's name, the base
// name of a prefix:PATH bot, or Learner; at most 12 characters.
func seatName(name string) string {
	switch {
	case name == "":
		name = "Learner"
	case strings.Contains(name, ":"):
		_, path, _ := strings.Cut(name, ":")
		name = path[strings.LastIndexAny(path, `/\`)+1:]
		if k := strings.LastIndex(name, "."); k > 0 {
			name = name[:k]
		}
	}
	if len(name) > 12 {
		name = name[:12]
	}
	return name
}

// shuffleSeats permutes the seats with a splitmix64 generator seeded from
// the game seed (Fisher-Yates), independent of the game's own generator.
func shuffleSeats(seat *[NumSeats]int, seed int64) {
	r := SplitMix64{State: uint64(seed) ^ 0x6a09e667f3bcc909}
	for i := NumSeats - 1; i > 0; i-- {
		k := int(r.Uint64() % uint64(i+1))
		seat[i], seat[k] = seat[k], seat[i]
	}
}

func (in *instance[C, B]) closeBots() error {
	var errs []error
	var none B
	for p, b := range in.bots {
		if c, ok := any(b).(io.Closer); ok {
			errs = append(errs, c.Close())
		}
		in.bots[p] = none
	}
	return errors.Join(errs...)
}

// Close releases the bots and closes the trace.
func (in *instance[C, B]) Close() error { return errors.Join(in.closeBots(), in.endTrace()) }

// Step plays one round with the learners' actions and writes their
// rewards.
func (in *instance[C, B]) Step(action, order []byte, reward []float32) (bool, error) {
	if !in.live {
		return false, in.f.h.errNotStarted
	}
	t := in.t
	if t.Done() {
		return true, ErrGameOver
	}
	a, o := in.f.spec.Action.Bytes(), in.f.spec.ActionOrder.Bytes()
	for l, p := range in.learnerSeat {
		ln := &in.learners[l]
		ln.Player, ln.Action, ln.Order = p, action[l*a:(l+1)*a], nil
		if order != nil {
			ln.Order = order[l*o : (l+1)*o]
		}
	}
	before := t.Scores()
	if endTrace, err := t.Play(in.learners); err != nil {
		if endTrace {
			in.endTrace()
		}
		return false, err
	}
	done := t.Done()
	if done && in.traceFile != nil {
		if err := in.endTrace(); err != nil {
			return false, err
		}
	}
	after := t.Scores()
	for l, p := range in.learnerSeat {
		reward[l] = rewardOf(in.f.setup.Reward, &before, &after, p, done)
	}
	return done, nil
}

// rewardOf is the reward of player p for a round that took the scores
// from before to after (docs/observation.md, "Reward").
func rewardOf(mode RewardMode, before, after *[NumSeats]int, p int, done bool) float32 {
	switch mode {
	case Relative:
		return float32(relScore(after, p) - relScore(before, p))
	case Rank:
		if !done {
			return 0
		}
		return float32(1 - 2*(meanRank(after, p)-1)/3)
	}
	return float32(after[p] - before[p])
}

func relScore(s *[NumSeats]int, p int) float64 {
	others := 0
	for q, x := range s {
		if q != p {
			others += x
		}
	}
	return float64(s[p]) - float64(others)/(NumSeats-1)
}

// meanRank is the rank of p (1 best), tied players sharing the mean of
// their ranks.
func meanRank(s *[NumSeats]int, p int) float64 {
	above, tied := 0, 0
	for q, x := range s {
		switch {
		case x > s[p]:
			above++
		case x == s[p] && q != p:
			tied++
		}
	}
	return 1 + float64(above) + float64(tied)/2
}

// Observe writes every learner's observation, the scores in player order,
// each learner's rank (1 + number of players with a higher score) and
// player, and the round.
func (in *instance[C, B]) Observe(o *Out) {
	if !in.live {
		return
	}
	t := in.t
	for l, p := range in.learnerSeat {
		t.Observe(o, l, p)
	}
	sc := t.Scores()
	for q, x := range sc {
		o.Scores[q] = int32(x)
	}
	for l, p := range in.learnerSeat {
		r := int32(1)
		for _, x := range sc {
			if x > sc[p] {
				r++
			}
		}
		o.Rank[l] = r
		o.Seats[l] = int32(p)
	}
	o.Round[0] = int32(t.Round())
}

// UnitRewards writes every learner's per-unit credit of the last step,
// [L, U], for a setup that asked for it (UnitRewarder); zeros before the
// first step of a game.
func (in *instance[C, B]) UnitRewards(dst []float32) {
	u := in.f.spec.UnitReward.NumElems()
	if !in.live || u == 0 {
		clear(dst)
		return
	}
	for l := range in.learnerSeat {
		in.t.UnitRewards(l, dst[l*u:(l+1)*u])
	}
}
