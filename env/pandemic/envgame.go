package pandemic

import (
	"fmt"
	"io"
	"math"
	"strings"

	"jgym/arena"
	"jgym/env"
)

// EnvID is the id of Pandemic in an env.Registry.
const EnvID = "Pandemic-v0"

// Resolver turns a seat name into a bot factory: a registered bot name or
// a "prefix:PATH" name. The closer, if not nil, releases what the bot
// holds once no game uses it any more.
type Resolver = env.Resolver[Bot]

// EnvOption configures an Env.
type EnvOption = env.HostOption[Bot]

// WithResolver makes the Env seat bots through r instead of LookupBot.
func WithResolver(r Resolver) EnvOption { return env.WithResolver(r) }

// WithLoader makes the Env seat bots through ResolveBot with l: the
// registered bots, and "policy:REF" and "cpp:REF" files that l loads
// (arena.Prefixes, which Bots lists).
func WithLoader(l arena.Loader) EnvOption {
	return env.WithResolver(func(name string) (BotFactory, io.Closer, error) { return ResolveBot(name, l) }, arena.Prefixes...)
}

// WithPrefixes lists the "prefix:PATH" prefixes the resolver accepts, for
// Bots.
func WithPrefixes(p ...string) EnvOption { return env.WithPrefixes[Bot](p...) }

// Env is Pandemic as an env.Game: observations of pandemic-obs-1
// (docs/rules/pandemic.md), one direction per unit slot as the action,
// rewards from the scores, bots seated through a Resolver.
type Env = env.Host[Config, Bot]

// NewEnv returns Pandemic as an env.Game.
func NewEnv(opts ...EnvOption) *Env { return env.NewHost[Config, Bot](rules{}, opts...) }

// rules is Pandemic for an env.Host and an arena.Host (arena.go): the game's
// name, configurations and bots, its spaces and tables.
type rules struct{}

func (rules) Name() string                            { return strings.Fields(Version)[0] }
func (rules) DefaultConfig() Config                   { return DefaultConfig() }
func (rules) ParseConfig(r io.Reader) (Config, error) { return ParseConfig(r) }
func (rules) Bots() *env.BotRegistry[Bot]             { return bots }

func (rules) Spec(cfg *Config) (env.Spec, error)  { return specFor(cfg), nil }
func (rules) NewTable(cfg *Config, _ *env.Setup) env.Table[Bot] {
	return &table{cfg: cfg, slots: NumSlots(cfg)}
}

// CheckSetup refuses the options Pandemic does not offer yet (orders,
// per-unit credit).
func (rules) CheckSetup(s *env.Setup, _ *env.Spec) error {
	if (s.OpponentOrder != "" && s.OpponentOrder != "seat") || (s.ActionOrder != "" && s.ActionOrder != "slot") ||
		s.UnitRewards || len(s.CreditWeights) > 0 {
		return fmt.Errorf("%w: pandemic offers no orders or per-unit credit", env.ErrBadSetup)
	}
	return nil
}


// specFor returns the spaces of a configuration.
func specFor(cfg *Config) env.Spec {
	u := NumSlots(cfg)
	return env.Spec{
		ID:                 EnvID,
		ObservationVersion: ObservationVersion,
		NumSeats:           NumPlayers,
		Observation: []env.TensorSpec{
			{Name: "board", Dtype: env.Uint8, Shape: []int{BoardPlanes, cfg.Rows, cfg.Cols}, Low: 0, High: 255,
				Description: "planes: terrain, virus, unit (1+rel owner), health, conquest (1+rel owner), flags"},
			{Name: "units", Dtype: env.Uint8, Shape: []int{u, UnitFeatures}, Low: 0, High: 255,
				Description: "per unit slot: mine, rel owner, health, row, col, damage, turns, immune, masked, cell type, cell virus, conquest, adjacent enemies"},
			{Name: "globals", Dtype: env.Float32, Shape: []int{NumGlobals}, Low: 0, High: math.MaxFloat32,
				Description: "round, mask round, scores, cities, paths, units, income per relative player, masks (normalized)"},
			{Name: "action_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "legal directions per unit slot (None always legal)"},
		},
		Action: env.TensorSpec{Name: "action", Dtype: env.Int8, Shape: []int{u}, Low: 0, High: float64(None),
			Description: "a direction 0..4 (bottom, right, top, left, none) per unit slot; slots not owned are ignored"},
		ActionOrder: env.TensorSpec{Name: "action_order", Dtype: env.Int16, Shape: []int{u}, Low: math.MinInt16, High: math.MaxInt16,
			Description: "optional: commands are issued in increasing value, ties by slot (the engine shuffles them)"},
		NumActions:    NumDirs,
		NumRounds:     cfg.NbRounds,
		DefaultConfig: DefaultConfigText,
	}
}

// table is one Pandemic game at an env table (env.Table): the engine,
// the bots by player, the learners' orders and the observation encoder.
type table struct {
	cfg    *Config
	slots  int
	seed   int
	g      *Game
	names  [NumPlayers]string
	bots   [NumPlayers]Bot // by player; nil for learners
	orders [NumPlayers]Orders
	cmds   [NumPlayers][]Command
	keys   []int64
	obs    Observer
	trace  *TraceWriter
}

var _ env.Table[Bot] = (*table)(nil)

// Reset starts the game of the seed: the map, the units, the bots.
func (t *table) Reset(seed int64, names [NumPlayers]string, bots [NumPlayers]Bot) error {
	g, err := New(*t.cfg, int(seed))
	t.g = g
	if err != nil {
		return err
	}
	t.seed, t.names, t.bots = int(seed), names, bots
	return nil
}

func (t *table) Done() bool              { return t.g.Done() }
func (t *table) Round() int              { return t.g.Round }
func (t *table) Scores() [NumPlayers]int { return t.g.Scores }

// Play plays one round: the bots give their orders, the learners' actions
// become orders, the engine plays the round and the trace records it. A
// round the engine aborts after its commands block still writes the block,
// as the course engine does.
func (t *table) Play(learners []env.Learner) (bool, error) {
	g := t.g
	for p := range t.orders {
		o := &t.orders[p]
		o.Reset(len(g.Units))
		if t.bots[p] != nil {
			t.bots[p].Play(&g.State, o)
			// A bot that can fail (one in its own process that crashed or
			// ran out of time) fails the env, as it ends a match.
			if be, ok := t.bots[p].(BotErr); ok {
				if err := be.Err(); err != nil {
					return false, fmt.Errorf("round %d: the bot in seat %d failed: %w", g.Round, p, err)
				}
			}
		}
	}
	for _, l := range learners {
		t.keys = DecodeActions(&g.State, l.Player, l.Action, l.Order, &t.orders[l.Player], t.keys)
	}
	for p := range t.orders {
		if err := t.orders[p].Err(); err != nil {
			return false, fmt.Errorf("round %d: player %d: %w", g.Round, p, err)
		}
		t.cmds[p] = t.orders[p].List()
	}
	err := g.Step(&t.cmds)
	if t.trace != nil && (err == nil || g.MovesDone) {
		t.trace.Commands(g.Moves)
		if err == nil {
			t.trace.State(&g.State)
		}
	}
	if err != nil {
		return false, fmt.Errorf("round %d: %w", g.Round, err)
	}
	if t.trace != nil {
		if err := t.trace.Err(); err != nil {
			return false, fmt.Errorf("trace: %w", err)
		}
	}
	return false, nil
}

// Observe writes learner l's observation as player p.
func (t *table) Observe(o *env.Out, l, p int) {
	s := &t.g.State
	u := t.slots
	bb := BoardBytes(t.cfg)
	t.obs.Board(s, p, o.Obs[0][l*bb:(l+1)*bb])
	t.obs.Units(s, p, o.Obs[1][l*u*UnitFeatures:(l+1)*u*UnitFeatures])
	t.obs.Globals(s, p, o.Obs[2][l*4*NumGlobals:(l+1)*4*NumGlobals])
	t.obs.Mask(s, p, o.Obs[3][l*u*NumDirs:(l+1)*u*NumDirs])
}

// StartTrace writes the .res header and the initial state to w; the names
// are the seats' bots ("Learner" for learners).
func (t *table) StartTrace(w io.Writer) error {
	t.trace = NewTraceWriter(w)
	t.trace.Header(t.cfg, t.seed, t.names)
	t.trace.State(&t.g.State)
	return t.trace.Err()
}

// EndTrace stops the trace.
// UnitRewards is never asked for: CheckSetup refuses the option.
func (t *table) UnitRewards(_ int, dst []float32) { clear(dst) }

func (t *table) EndTrace() error {
	if t.trace == nil {
		return nil
	}
	err := t.trace.Err()
	t.trace = nil
	return err
}
