package crematoria

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"jgym/arena"
	"jgym/env"
)

// EnvID is the id of Crematoria in an env.Registry.
const EnvID = "Crematoria-v0"

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

// Env is Crematoria as an env.Game: observations of docs/observation.md
// (crematoria-obs-3), one direction per unit slot as the action, rewards
// from the scores, bots seated through a Resolver.
type Env = env.Host[Config, Bot]

// NewEnv returns Crematoria as an env.Game.
func NewEnv(opts ...EnvOption) *Env { return env.NewHost[Config, Bot](rules{}, opts...) }

// rules is Crematoria for an env.Host and an arena.Host (arena.go): the game's
// name, configurations and bots, its spaces and tables.
type rules struct{}

func (rules) Name() string                            { return strings.Fields(Version)[0] }
func (rules) DefaultConfig() Config                   { return DefaultConfig() }
func (rules) ParseConfig(r io.Reader) (Config, error) { return ParseConfig(r) }
func (rules) Bots() *env.BotRegistry[Bot]             { return bots }

func (rules) Spec(cfg *Config) (env.Spec, error)  { return specFor(cfg), nil }
func (rules) NewTable(cfg *Config) env.Table[Bot] { return &table{cfg: cfg, slots: NumSlots(cfg)} }

// specFor returns the spaces of a configuration.
func specFor(cfg *Config) env.Spec {
	u := NumSlots(cfg)
	return env.Spec{
		ID:                 EnvID,
		ObservationVersion: ObservationVersion,
		NumSeats:           NumPlayers,
		Observation: []env.TensorSpec{
			{Name: "board", Dtype: env.Uint8, Shape: []int{BoardPlanes, Rows, Cols}, Low: 0, High: 127,
				Description: "planes: level 0 codes, level 1 codes, flags (terrain | unit<<3)"},
			{Name: "units", Dtype: env.Uint8, Shape: []int{u, UnitFeatures}, Low: 0, High: 100,
				Description: "per unit slot: mine, rel owner, type, health, row, col, level, on elevator"},
			{Name: "globals", Dtype: env.Float32, Shape: []int{NumGlobals}, Low: 0, High: math.MaxFloat32,
				Description: "round, sun, scores, cells, gems, necromongers (normalized)"},
			{Name: "action_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "legal directions per unit slot (None always legal)"},
			{Name: "paths", Dtype: env.Bool, Shape: []int{u, PathColumns}, Low: 0, High: 1,
				Description: "per unit slot and path field: moves that near the field's nearest cell, distance thresholds"},
			{Name: "sun_paths", Dtype: env.Bool, Shape: []int{u, SunColumns}, Low: 0, High: 1,
				Description: "per unit slot: moves that near an escape underground and a gem worth the trip before the sun, slack thresholds"},
		},
		Action: env.TensorSpec{Name: "action", Dtype: env.Int8, Shape: []int{u}, Low: 0, High: float64(None),
			Description: "a direction 0..10 per unit slot; slots not owned are ignored"},
		ActionOrder: env.TensorSpec{Name: "action_order", Dtype: env.Int16, Shape: []int{u}, Low: math.MinInt16, High: math.MaxInt16,
			Description: "optional: commands are issued in increasing value, ties by slot"},
		NumActions:    NumDirs,
		NumRounds:     cfg.NbRounds,
		DefaultConfig: DefaultConfigText,
	}
}

// table is one Crematoria game at an env table (env.Table): the engine,
// the bots by group, the learners' orders and the observation encoder.
type table struct {
	cfg    *Config
	slots  int
	seed   int
	g      *Game
	names  [NumPlayers]string
	bots   [NumPlayers]Bot // by group; nil for learners
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
func (t *table) Scores() [NumPlayers]int { return t.g.Scores() }

// Play plays one round: the bots give their orders, the learners' actions
// become orders, the engine plays the round and the trace records it.
func (t *table) Play(learners []env.Learner) (bool, error) {
	g := t.g
	for p := range t.orders {
		o := &t.orders[p]
		o.Reset(len(g.Units))
		if t.bots[p] != nil {
			t.bots[p].Play(&g.State, o)
			// A bot that can fail (a C++ bot in its own process that
			// crashed or ran out of time) fails the env, as it ends a match.
			if be, ok := t.bots[p].(BotErr); ok {
				if err := be.Err(); err != nil {
					return false, fmt.Errorf("round %d: the bot in seat %d failed: %w", g.Round, p, err)
				}
			}
		}
	}
	for _, l := range learners {
		t.decode(l.Player, l.Action, l.Order, &t.orders[l.Player])
	}
	for p := range t.orders {
		if err := t.orders[p].Err(); err != nil {
			return false, fmt.Errorf("round %d: player %d: %w", g.Round, p, err)
		}
		t.cmds[p] = t.orders[p].List()
	}
	if err := g.Step(&t.cmds); err != nil {
		return false, fmt.Errorf("round %d: %w", g.Round, err)
	}
	if t.trace != nil {
		t.trace.Movements(g.Moves)
		t.trace.State(&g.State)
		if err := t.trace.Err(); err != nil {
			return false, fmt.Errorf("trace: %w", err)
		}
	}
	return false, nil
}

// decode turns one learner's actions into orders for group p: the slots
// p owns whose direction is not None, in increasing order value, ties by
// slot. Slots p does not own are skipped, as the engine would skip them
// (SPEC §8.2).
func (t *table) decode(p int, dirs, order []byte, o *Orders) {
	keys := t.keys[:0]
	units := t.g.Units
	for id, b := range dirs {
		d := Dir(int8(b))
		if d == None || !d.Valid() || units[id].Player != p {
			continue
		}
		var prio int64
		if order != nil {
			prio = int64(int16(binary.LittleEndian.Uint16(order[2*id:])))
		}
		keys = append(keys, prio<<32|int64(id))
	}
	if order != nil {
		slices.Sort(keys)
	}
	for _, k := range keys {
		id := int(k & 0xffffffff)
		o.Command(id, Dir(int8(dirs[id])))
	}
	t.keys = keys
}

// Observe writes learner l's observation as group p.
func (t *table) Observe(o *env.Out, l, p int) {
	s := &t.g.State
	u := t.slots
	t.obs.Board(s, p, o.Obs[0][l*BoardBytes:(l+1)*BoardBytes])
	t.obs.Units(s, p, o.Obs[1][l*u*UnitFeatures:(l+1)*u*UnitFeatures])
	t.obs.Globals(s, p, o.Obs[2][l*4*NumGlobals:(l+1)*4*NumGlobals])
	t.obs.Mask(s, p, o.Obs[3][l*u*NumDirs:(l+1)*u*NumDirs])
	t.obs.Paths(s, p, o.Obs[4][l*u*PathColumns:(l+1)*u*PathColumns])
	t.obs.SunPaths(s, p, o.Obs[5][l*u*SunColumns:(l+1)*u*SunColumns])
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
func (t *table) EndTrace() error {
	if t.trace == nil {
		return nil
	}
	err := t.trace.Err()
	t.trace = nil
	return err
}
