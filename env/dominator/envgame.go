package dominator

import (
	"fmt"
	"io"
	"math"
	"strings"

	"jgym/arena"
	"jgym/env"
)

// EnvID is the id of Dominator in an env.Registry.
const EnvID = "Dominator-v0"

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

// Env is Dominator as an env.Game: observations of dominator-obs-1 (see
// Observer), one direction per unit slot as the action, rewards from the
// total scores, bots seated through a Resolver.
type Env = env.Host[Config, Bot]

// NewEnv returns Dominator as an env.Game.
func NewEnv(opts ...EnvOption) *Env { return env.NewHost[Config, Bot](rules{}, opts...) }

// rules is Dominator for an env.Host and an arena.Host (arena.go): the game's
// name, configurations and bots, its spaces and tables.
type rules struct{}

func (rules) Name() string                            { return strings.Fields(Version)[0] }
func (rules) DefaultConfig() Config                   { return DefaultConfig() }
func (rules) ParseConfig(r io.Reader) (Config, error) { return ParseConfig(r) }
func (rules) Bots() *env.BotRegistry[Bot]             { return bots }

func (rules) NewTable(cfg *Config) env.Table[Bot] { return &table{cfg: cfg} }

// Spec describes the spaces of a configuration: boards of up to 255 rows,
// whose coordinates fit the observation's bytes.
func (rules) Spec(cfg *Config) (env.Spec, error) {
	if cfg.Rows > 255 {
		return env.Spec{}, fmt.Errorf("%w: boards of more than 255 rows do not fit the observation", env.ErrBadSetup)
	}
	return specFor(cfg), nil
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

// table is one Dominator game at an env table (env.Table): a Match of
// the seated bots, the learners' decoder and the observation encoder.
type table struct {
	cfg *Config
	m   *Match
	dec Decoder
	obs Observer
}

var _ env.Table[Bot] = (*table)(nil)

// Reset starts the match of the seed with the bots.
func (t *table) Reset(seed int64, names [NumPlayers]string, bots [NumPlayers]Bot) error {
	m, err := NewMatchWithBots(*t.cfg, int(seed), names, bots)
	t.m = m
	return err
}

func (t *table) Done() bool              { return t.m.Done() }
func (t *table) Round() int              { return t.m.Round }
func (t *table) Scores() [NumPlayers]int { return t.m.TotalScore }

// Play plays one round of the match: each bot's orders, in seat order,
// then those of the learner playing that seat, if any.
func (t *table) Play(learners []env.Learner) (bool, error) {
	m := t.m
	return false, m.playRound(func(p int, o *Orders) {
		for _, l := range learners {
			if l.Player == p {
				t.dec.Decode(&m.State, p, l.Action, l.Order, o)
			}
		}
	})
}

// Observe writes learner l's observation as player p.
func (t *table) Observe(o *env.Out, l, p int) {
	s := &t.m.State
	u := NumSlots(t.cfg)
	bb := BoardPlanes * t.cfg.Rows * t.cfg.Cols
	t.obs.Board(s, p, o.Obs[0][l*bb:(l+1)*bb])
	t.obs.Units(s, p, o.Obs[1][l*u*UnitFeatures:(l+1)*u*UnitFeatures])
	t.obs.Globals(s, p, o.Obs[2][l*4*NumGlobals:(l+1)*4*NumGlobals])
	t.obs.Mask(s, p, o.Obs[3][l*u*NumDirs:(l+1)*u*NumDirs])
	t.obs.MoveMask(s, p, o.Obs[4][l*u*NumDirs:(l+1)*u*NumDirs])
}

// StartTrace makes the match write its trace to w.
func (t *table) StartTrace(w io.Writer) error {
	t.m.WriteTrace(w)
	return t.m.trace.Err()
}

// EndTrace stops the match's trace.
func (t *table) EndTrace() error {
	if t.m == nil || t.m.trace == nil {
		return nil
	}
	err := t.m.trace.Err()
	t.m.trace = nil
	return err
}
