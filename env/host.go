package env

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// NumSeats is the number of seats at the table of every game a Host runs.
const NumSeats = 4

// ErrGameOver is returned by Step after the last round.
var ErrGameOver = errors.New("game is over")

// Rules is what a game supplies to make a Host of it: its configurations
// C, its spaces, its bots B and the tables that play it. Everything that
// does not depend on the rules (validating a setup, seating and shuffling,
// bots and their release, traces, rewards, scores and ranks) is the Host's.
type Rules[C, B any] interface {
	// Name is the game's name ("Crematoria"); messages use it in lower
	// case.
	Name() string
	// DefaultConfig returns the default configuration.
	DefaultConfig() C
	// ParseConfig reads a configuration file of the game.
	ParseConfig(r io.Reader) (C, error)
	// Spec describes the spaces of a configuration; a configuration whose
	// observation does not fit them is an error wrapping ErrBadSetup.
	Spec(cfg *C) (Spec, error)
	// Bots is the registry of the game's bots, which seats name by
	// default.
	Bots() *BotRegistry[B]
	// CheckSetup checks the setup's options the game offers or not
	// (orders, per-unit credit); an error wraps ErrBadSetup.
	CheckSetup(s *Setup, spec *Spec) error
	// NewTable returns a table of the configuration and the setup's
	// options, which the Host then resets for every game it plays. cfg
	// and s are shared and read-only; s.Tensors, when not empty, are the
	// names of the observation tensors the table's Observe writes, a
	// subset of the spec's in its order.
	NewTable(cfg *C, s *Setup) Table[B]
}

// Table is one game in progress at a table of four seats: the engine, the
// seated bots and the learners' orders. A Host makes one per instance and
// drives it from a single goroutine.
type Table[B any] interface {
	// Reset starts a game with the seed: bots[p] plays player p (the zero
	// B for a learner), names[p] is p's name in the trace.
	Reset(seed int64, names [NumSeats]string, bots [NumSeats]B) error
	// Play plays one round: the bots' orders, then the learners' (decoded
	// from their actions), then the engine. A round that fails returns its
	// error; endTrace reports that the game ended there with its trace
	// complete (an abort of the course engine), to be closed at once.
	Play(learners []Learner) (endTrace bool, err error)
	// Done reports whether the last round was played.
	Done() bool
	// Round is the number of rounds played.
	Round() int
	// Scores are the players' scores, for rewards and ranks.
	Scores() [NumSeats]int
	// Observe writes learner l's observation, as player p, into o.Obs:
	// the tensors of the setup's subset (Setup.Tensors), the others not
	// computed.
	Observe(o *Out, l, p int)
	// StartTrace starts writing the game's trace to w: its header and the
	// current state. Play then appends every round.
	StartTrace(w io.Writer) error
	// EndTrace stops writing the trace and returns the first write error.
	EndTrace() error
	// UnitRewards writes learner l's per-unit credit of the last round
	// played into dst (len U), for a setup that asked for it.
	UnitRewards(l int, dst []float32)
}

// Learner is what one learner seat does in a round: its player and its
// rows of the step's action and action order (nil when no order is given).
type Learner struct {
	Player        int
	Action, Order []byte
}

// Host is a game as a Game: it validates setups, seats the players
// (shuffled if asked), resolves and releases bots, opens and closes traces,
// and computes rewards, scores and ranks, leaving the rules to its Rules.
// It is safe for concurrent use.
type Host[C, B any] struct {
	rules         Rules[C, B]
	opts          hostOptions[B]
	errNotStarted error
}

var _ Game = (*Host[int, any])(nil)

// HostOption configures a Host.
type HostOption[B any] func(*hostOptions[B])

type hostOptions[B any] struct {
	resolve  Resolver[B]
	prefixes []string
}

// WithResolver makes the Host seat bots through r instead of the rules'
// registry. prefixes, if given, are the "prefix:PATH" prefixes r accepts,
// which Bots lists (as WithPrefixes sets them).
func WithResolver[B any](r Resolver[B], prefixes ...string) HostOption[B] {
	return func(o *hostOptions[B]) {
		o.resolve = r
		if len(prefixes) > 0 {
			o.prefixes = slices.Clone(prefixes)
		}
	}
}

// WithPrefixes lists the "prefix:PATH" prefixes the resolver accepts, for
// Bots.
func WithPrefixes[B any](p ...string) HostOption[B] {
	return func(o *hostOptions[B]) { o.prefixes = append([]string(nil), p...) }
}

// NewHost returns the Game of a game's rules.
func NewHost[C, B any](rules Rules[C, B], opts ...HostOption[B]) *Host[C, B] {
	h := &Host[C, B]{rules: rules, errNotStarted: errors.New(strings.ToLower(rules.Name()) + ": Step before Reset")}
	reg := rules.Bots()
	h.opts.resolve = func(name string) (BotFactory[B], io.Closer, error) {
		f, err := reg.Lookup(name)
		return f, nil, err
	}
	for _, o := range opts {
		o(&h.opts)
	}
	return h
}

// Spec describes the spaces with the default configuration.
func (h *Host[C, B]) Spec() Spec {
	cfg := h.rules.DefaultConfig()
	s, _ := h.rules.Spec(&cfg)
	return s
}

// Bots lists the registered bots and the resolver's prefixes.
func (h *Host[C, B]) Bots() (names, prefixes []string) {
	return h.rules.Bots().Names(), append([]string(nil), h.opts.prefixes...)
}

// NewFactory validates a setup: exactly four seats, at least one learner,
// a known reward mode, a configuration the rules accept, observation
// tensors the spec has, bots the resolver knows.
func (h *Host[C, B]) NewFactory(s Setup) (Factory, error) {
	if len(s.Seats) != NumSeats {
		return nil, fmt.Errorf("%w: want %d seats, got %d", ErrBadSetup, NumSeats, len(s.Seats))
	}
	if s.Learners() == 0 {
		return nil, fmt.Errorf("%w: no learner seat (an empty bot name makes a seat a learner)", ErrBadSetup)
	}
	if s.Reward > Rank {
		return nil, fmt.Errorf("%w: unknown reward mode %d", ErrBadSetup, s.Reward)
	}
	cfg := h.rules.DefaultConfig()
	if strings.TrimSpace(s.Config) != "" {
		c, err := h.rules.ParseConfig(strings.NewReader(s.Config))
		if err != nil {
			return nil, fmt.Errorf("config: %w", tagged{ErrBadSetup, err})
		}
		cfg = c
	}
	spec, err := h.rules.Spec(&cfg)
	if err != nil {
		return nil, err
	}
	if err := h.rules.CheckSetup(&s, &spec); err != nil {
		return nil, err
	}
	if !s.UnitRewards {
		spec.UnitReward = TensorSpec{}
	}
	if spec, err = spec.Subset(s.Tensors); err != nil {
		return nil, err
	}
	f := &factory[C, B]{h: h, cfg: cfg, setup: s, spec: spec, fingerprint: fingerprint(h.rules.Name(), &s)}
	f.setup.Seats = slices.Clone(s.Seats)
	if len(s.Tensors) > 0 {
		// The table reads the subset's names, in the spec's order.
		f.setup.Tensors = spec.TensorNames()
	}
	f.setup.CreditWeights = maps.Clone(s.CreditWeights)
	for j, name := range s.Seats {
		if name == "" {
			f.learners = append(f.learners, j)
			continue
		}
		bf, closer, err := h.opts.resolve(name)
		if err != nil {
			f.Close()
			if errors.Is(err, ErrUnknownBot) {
				return nil, fmt.Errorf("seat %d: %w", j, tagged{ErrUnknownBot, err})
			}
			return nil, fmt.Errorf("seat %d: bot %q: %w", j, name, tagged{ErrBadSetup, err})
		}
		if closer != nil {
			f.closers = append(f.closers, closer)
		}
		f.bots[j] = bf
	}
	return f, nil
}

// factory makes instances of one setup.
type factory[C, B any] struct {
	h        *Host[C, B]
	cfg      C
	setup    Setup
	spec     Spec
	learners []int                   // seat index (in setup order) of each learner
	bots     [NumSeats]BotFactory[B] // by setup seat; nil for learners
	closers  []io.Closer
	// fingerprint identifies the setup in its saved states.
	fingerprint uint64
}

var _ Factory = (*factory[int, any])(nil)

func (f *factory[C, B]) Spec() Spec    { return f.spec }
func (f *factory[C, B]) Learners() int { return len(f.learners) }

func (f *factory[C, B]) NewInstance() (Instance, error) {
	return &instance[C, B]{
		f:           f,
		t:           f.h.rules.NewTable(&f.cfg, &f.setup),
		learnerSeat: make([]int, len(f.learners)),
		learners:    make([]Learner, len(f.learners)),
	}, nil
}

func (f *factory[C, B]) Close() error {
	var errs []error
	for _, c := range f.closers {
		errs = append(errs, c.Close())
	}
	f.closers = nil
	return errors.Join(errs...)
}

// tagged is an error that reads as err and also matches tag with
// errors.Is: it marks an error with an env sentinel without repeating it.
type tagged struct{ tag, err error }

func (t tagged) Error() string   { return t.err.Error() }
func (t tagged) Unwrap() []error { return []error{t.tag, t.err} }
