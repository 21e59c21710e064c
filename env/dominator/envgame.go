package dominator

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"jgym/arena"
	"jgym/env"
)

// EnvID is the id of Dominator in an env.Registry.
const EnvID = "Dominator-v0"

// Resolver turns a seat name into a bot factory: a registered bot name or
// a "prefix:PATH" name. The closer, if not nil, releases what the bot
// holds once no game uses it any more.
type Resolver func(name string) (BotFactory, io.Closer, error)

// EnvOption configures an Env.
type EnvOption func(*envOptions)

type envOptions struct {
	resolve  Resolver
	prefixes []string
}

// WithResolver makes the Env seat bots through r instead of LookupBot.
func WithResolver(r Resolver) EnvOption { return func(o *envOptions) { o.resolve = r } }

// WithLoader makes the Env seat bots through ResolveBot with l: the
// registered bots, and "policy:REF" and "cpp:REF" files that l loads
// (arena.Prefixes, which Bots lists).
func WithLoader(l arena.Loader) EnvOption {
	return func(o *envOptions) {
		o.resolve = func(name string) (BotFactory, io.Closer, error) { return ResolveBot(name, l) }
		o.prefixes = slices.Clone(arena.Prefixes)
	}
}

// WithPrefixes lists the "prefix:PATH" prefixes the resolver accepts, for
// Bots.
func WithPrefixes(p ...string) EnvOption {
	return func(o *envOptions) { o.prefixes = append([]string(nil), p...) }
}

// Env is Dominator as an env.Game: observations of dominator-obs-1 (see
// Observer), one direction per unit slot as the action, rewards from the
// total scores, bots seated through a Resolver.
type Env struct {
	opts envOptions
}

var _ env.Game = (*Env)(nil)

// NewEnv returns Dominator as an env.Game.
func NewEnv(opts ...EnvOption) *Env {
	e := &Env{opts: envOptions{resolve: func(name string) (BotFactory, io.Closer, error) {
		f, err := LookupBot(name)
		return f, nil, err
	}}}
	for _, o := range opts {
		o(&e.opts)
	}
	return e
}

// Spec describes the spaces with the default configuration.
func (e *Env) Spec() env.Spec {
	cfg := DefaultConfig()
	return specFor(&cfg)
}

// Bots lists the registered bots and the resolver's prefixes.
func (e *Env) Bots() (names, prefixes []string) {
	return BotNames(), append([]string(nil), e.opts.prefixes...)
}

// specFor returns the spaces of a configuration.
func specFor(cfg *Config) env.Spec {
	u := NumSlots(cfg)
	return env.Spec{
		ID:                 EnvID,
		ObservationVersion: ObservationVersion,
		NumSeats:           NumPlayers,
		Observation: []env.TensorSpec{
			{Name: "board", Dtype: env.Uint8, Shape: []int{BoardPlanes, cfg.Rows, cfg.Cols}, Low: 0, High: 100,
				Description: "planes of the observer's view: terrain, owner, unit, health %, haunted, threat bits"},
			{Name: "units", Dtype: env.Uint8, Shape: []int{u, UnitFeatures}, Low: 0, High: 255,
				Description: "per unit id: mine, rel owner, type, health %, row, col, on board, active witch"},
			{Name: "globals", Dtype: env.Float32, Shape: []int{NumGlobals}, Low: 0, High: 1,
				Description: "round, rounds left; per rel player land, total score, farmers, knights (normalized)"},
			{Name: "action_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "directions the engine's validation accepts per unit slot (None always)"},
			{Name: "move_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "legal directions whose move would succeed if executed first (None always)"},
		},
		Action: env.TensorSpec{Name: "action", Dtype: env.Int8, Shape: []int{u}, Low: 0, High: float64(None),
			Description: "a direction 0..8 of the observer's frame per unit slot; illegal ones are dropped"},
		ActionOrder: env.TensorSpec{Name: "action_order", Dtype: env.Int16, Shape: []int{u}, Low: math.MinInt16, High: math.MaxInt16,
			Description: "optional: commands are issued in increasing value, ties by slot"},
		NumActions:    NumDirs,
		NumRounds:     cfg.NbRounds,
		DefaultConfig: DefaultConfigText,
	}
}

// NewFactory validates a setup: exactly four seats, at least one learner,
// a configuration the engine accepts, bots the resolver knows.
func (e *Env) NewFactory(s env.Setup) (env.Factory, error) {
	if len(s.Seats) != NumPlayers {
		return nil, fmt.Errorf("%w: want %d seats, got %d", env.ErrBadSetup, NumPlayers, len(s.Seats))
	}
	if s.Learners() == 0 {
		return nil, fmt.Errorf("%w: no learner seat (an empty bot name makes a seat a learner)", env.ErrBadSetup)
	}
	if s.Reward > env.Rank {
		return nil, fmt.Errorf("%w: unknown reward mode %d", env.ErrBadSetup, s.Reward)
	}
	cfg := DefaultConfig()
	if strings.TrimSpace(s.Config) != "" {
		c, err := ParseConfig(strings.NewReader(s.Config))
		if err != nil {
			return nil, fmt.Errorf("config: %w", tagged{env.ErrBadSetup, err})
		}
		cfg = c
	}
	if cfg.Rows > 255 {
		return nil, fmt.Errorf("%w: boards of more than 255 rows do not fit the observation", env.ErrBadSetup)
	}
	f := &factory{cfg: cfg, setup: s}
	f.setup.Seats = slices.Clone(s.Seats)
	f.spec = specFor(&f.cfg)
	for j, name := range s.Seats {
		if name == "" {
			f.learners = append(f.learners, j)
			continue
		}
		bf, closer, err := e.opts.resolve(name)
		if err != nil {
			f.Close()
			if errors.Is(err, ErrUnknownBot) || errors.Is(err, env.ErrUnknownBot) {
				return nil, fmt.Errorf("seat %d: %w", j, tagged{env.ErrUnknownBot, err})
			}
			return nil, fmt.Errorf("seat %d: bot %q: %w", j, name, tagged{env.ErrBadSetup, err})
		}
		if closer != nil {
			f.closers = append(f.closers, closer)
		}
		f.bots[j] = bf
	}
	return f, nil
}

var (
	_ env.Factory  = (*factory)(nil)
	_ env.Instance = (*instance)(nil)
	_ env.Tracer   = (*instance)(nil)
)

// factory makes instances of one setup.
type factory struct {
	cfg      Config
	setup    env.Setup
	spec     env.Spec
	learners []int                  // seat index (in setup order) of each learner
	bots     [NumPlayers]BotFactory // by setup seat; nil for learners
	closers  []io.Closer
}

func (f *factory) Spec() env.Spec { return f.spec }
func (f *factory) Learners() int  { return len(f.learners) }

func (f *factory) NewInstance() (env.Instance, error) {
	return &instance{f: f, learnerSeat: make([]int, len(f.learners))}, nil
}

func (f *factory) Close() error {
	var errs []error
	for _, c := range f.closers {
		errs = append(errs, c.Close())
	}
	f.closers = nil
	return errors.Join(errs...)
}

// instance is one Dominator table.
type instance struct {
	f           *factory
	m           *Match
	seat        [NumPlayers]int // setup seat j plays as player seat[j]
	learnerSeat []int           // player of each learner
	obs         Observer
	dec         Decoder
	openTrace   env.TraceOpener
	traceFile   io.WriteCloser
	episode     int
}

// errNotStarted is returned by Step before the first Reset.
var errNotStarted = errors.New("dominator: Step before Reset")

// Reset starts a new game: the board from the seed, the seating (shuffled
// with a generator derived from the seed when the setup asks), fresh bots.
func (in *instance) Reset(seed int64) error {
	if err := errors.Join(in.endTrace(), in.closeBots()); err != nil {
		return err
	}
	var bots [NumPlayers]Bot
	var names [NumPlayers]string
	for j := range in.seat {
		in.seat[j] = j
	}
	if in.f.setup.Shuffle {
		shuffleSeats(&in.seat, seed)
	}
	for l, j := range in.f.learners {
		in.learnerSeat[l] = in.seat[j]
	}
	for j, bf := range in.f.bots {
		p := in.seat[j]
		names[p] = seatName(in.f.setup.Seats[j])
		if bf != nil {
			bots[p] = bf(p, int(seed))
		}
	}
	m, err := NewMatchWithBots(in.f.cfg, int(seed), names, bots)
	if err != nil {
		for _, b := range bots {
			if c, ok := b.(io.Closer); ok {
				c.Close()
			}
		}
		in.m = nil
		return fmt.Errorf("new game seed %d: %w", seed, err)
	}
	in.m = m
	in.episode++
	if in.openTrace != nil {
		return in.startTrace(in.episode-1, seed)
	}
	return nil
}

// SetTrace makes the instance write a .res trace of each game.
func (in *instance) SetTrace(open env.TraceOpener) { in.openTrace = open }

// startTrace opens the trace of a new game and writes its header and
// initial state; the names are the seats' bots ("Learner" for learners).
func (in *instance) startTrace(episode int, seed int64) error {
	w, err := in.openTrace(episode, seed)
	if err != nil {
		return fmt.Errorf("open trace: %w", err)
	}
	in.traceFile = w
	in.m.WriteTrace(w)
	return in.m.trace.Err()
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

// endTrace closes the current trace, if any.
func (in *instance) endTrace() error {
	if in.traceFile == nil {
		return nil
	}
	var err error
	if in.m != nil && in.m.trace != nil {
		err = in.m.trace.Err()
		in.m.trace = nil
	}
	if cerr := in.traceFile.Close(); err == nil {
		err = cerr
	}
	in.traceFile = nil
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	return nil
}

// shuffleSeats permutes the seats with a splitmix64 generator seeded from
// the game seed (Fisher-Yates), independent of the game's own generator.
func shuffleSeats(seat *[NumPlayers]int, seed int64) {
	x := uint64(seed) ^ 0x6a09e667f3bcc909
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for i := NumPlayers - 1; i > 0; i-- {
		k := int(next() % uint64(i+1))
		seat[i], seat[k] = seat[k], seat[i]
	}
}

func (in *instance) closeBots() error {
	if in.m == nil {
		return nil
	}
	var errs []error
	for p, b := range in.m.Bots {
		if c, ok := b.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
		in.m.Bots[p] = nil
	}
	return errors.Join(errs...)
}

// Close releases the bots and closes the trace.
func (in *instance) Close() error { return errors.Join(in.closeBots(), in.endTrace()) }

// Step plays one round: the bots give their orders, the learners' actions
// become orders, the engine plays the round.
func (in *instance) Step(action, order []byte, reward []float32) (bool, error) {
	m := in.m
	if m == nil {
		return false, errNotStarted
	}
	if m.Done() {
		return true, ErrGameOver
	}
	u := NumSlots(&in.f.cfg)
	before := m.TotalScore
	err := m.playRound(func(p int, o *Orders) {
		for l, q := range in.learnerSeat {
			if q != p {
				continue
			}
			var ord []byte
			if order != nil {
				ord = order[2*l*u : 2*(l+1)*u]
			}
			in.dec.Decode(&m.State, p, action[l*u:(l+1)*u], ord, o)
		}
	})
	if err != nil {
		return false, err
	}
	done := m.Done()
	if done && in.traceFile != nil {
		if err := in.endTrace(); err != nil {
			return false, err
		}
	}
	for l, p := range in.learnerSeat {
		reward[l] = rewardOf(in.f.setup.Reward, &before, &m.TotalScore, p, done)
	}
	return done, nil
}

// rewardOf is the reward of player p for a round that took the totals from
// before to after: the change of p's total (its land after the round), of
// p's total minus the others' mean, or at the end the rank mapped to
// [-1, 1].
func rewardOf(mode env.RewardMode, before, after *[NumPlayers]int, p int, done bool) float32 {
	switch mode {
	case env.Relative:
		return float32(relScore(after, p) - relScore(before, p))
	case env.Rank:
		if !done {
			return 0
		}
		return float32(1 - 2*(meanRank(after, p)-1)/3)
	}
	return float32(after[p] - before[p])
}

func relScore(s *[NumPlayers]int, p int) float64 {
	others := 0
	for q, x := range s {
		if q != p {
			others += x
		}
	}
	return float64(s[p]) - float64(others)/(NumPlayers-1)
}

// meanRank is the rank of p (1 best), tied players sharing the mean of
// their ranks.
func meanRank(s *[NumPlayers]int, p int) float64 {
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

// Observe writes every learner's observation, the total scores in seat
// order, each learner's rank (1 + number of players with a higher total),
// seat and the round.
func (in *instance) Observe(o *env.Out) {
	m := in.m
	if m == nil {
		return
	}
	s := &m.State
	u := NumSlots(&in.f.cfg)
	bb := BoardPlanes * in.f.cfg.Rows * in.f.cfg.Cols
	for l, p := range in.learnerSeat {
		in.obs.Board(s, p, o.Obs[0][l*bb:(l+1)*bb])
		in.obs.Units(s, p, o.Obs[1][l*u*UnitFeatures:(l+1)*u*UnitFeatures])
		in.obs.Globals(s, p, o.Obs[2][l*4*NumGlobals:(l+1)*4*NumGlobals])
		in.obs.Mask(s, p, o.Obs[3][l*u*NumDirs:(l+1)*u*NumDirs])
		in.obs.MoveMask(s, p, o.Obs[4][l*u*NumDirs:(l+1)*u*NumDirs])
	}
	for q, x := range s.TotalScore {
		o.Scores[q] = int32(x)
	}
	for l, p := range in.learnerSeat {
		r := int32(1)
		for _, x := range s.TotalScore {
			if x > s.TotalScore[p] {
				r++
			}
		}
		o.Rank[l] = r
		o.Seats[l] = int32(p)
	}
	o.Round[0] = int32(m.Round)
}

// tagged is an error that reads as err and also matches tag with
// errors.Is: it marks an error with an env sentinel without repeating it.
type tagged struct{ tag, err error }

func (t tagged) Error() string   { return t.err.Error() }
func (t tagged) Unwrap() []error { return []error{t.tag, t.err} }
