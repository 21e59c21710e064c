package game

import (
	"io"
	"io/fs"
	"sync"

	"jgym/arena"

	"jgym/cppbot"
	"jgym/cppexport"
	"jgym/env"
	"jgym/policy"
)

// NumSeats is the number of seats at every table.
const NumSeats = env.NumSeats

// Dir is the type of a game's directions: the action of one unit.
type Dir interface{ ~int8 | ~int }

// Config is a game's configuration.
type Config interface {
	// Rounds is the number of rounds of a game.
	Rounds() int
}

// Def is the definition of a game: everything the core needs to play it,
// host it as an env, seat bots and policies at its tables, check and learn
// from its traces and export players for its kit. C is the game's
// configuration, G its engine (a pointer to its game state machine), S
// the state bots read and the encoder encodes, D its direction type.
//
// A game package fills one Def, hands it to [Define] and exports the
// result; a tool registers it with [Registry.Add]. The fields marked
// optional may be left zero.
type Def[C Config, G any, S any, D Dir] struct {
	// Name is the game's name as its traces and configuration files begin
	// with it, and as --game takes it ("Crematoria").
	Name string
	// EnvID is the game's id in env registries and Gymnasium
	// ("Crematoria-v0").
	EnvID string
	// StrongBot names the game's strong scripted bot, the one its recipe
	// trains against ("Riddick").
	StrongBot string

	// DefaultConfig returns the kit's default configuration.
	DefaultConfig func() C
	// ParseConfig reads a configuration file of the game.
	ParseConfig func(r io.Reader) (C, error)
	// New starts the engine of a game: the map of the seed, its units.
	New func(cfg C, seed int) (G, error)
	// State is the engine's current state, which bots and the encoder
	// read.
	State func(g G) *S
	// Round is the number of rounds the engine has played.
	Round func(g G) int
	// Scores are the players' scores, by the game's own score rule.
	Scores func(g G) [NumSeats]int
	// Step plays one round with the players' command lists. An error
	// wrapping ErrAbort is an abort of the course program; the game ends
	// there.
	Step func(g G, cmds *[NumSeats][]Command[D]) error
	// NumUnits is the number of unit ids of a state: orders may name ids
	// 0..NumUnits-1 (others are kept aside by the player-side filter).
	NumUnits func(s *S) int
	// Owner is the player who owns unit id in s, or -1.
	Owner func(s *S, id int) int
	// Config is the configuration of the game a state is of.
	Config func(s *S) *C

	// Orders is the player-side filter of the kit's command function.
	Orders OrderRules[D]
	// LogFirstRound is the number of the first round in the game's
	// command files: 0, or 1 (Moria numbers its rounds from 1).
	LogFirstRound int
	// LogDirs bounds the directions a command file may hold: recorded
	// lists passed the player-side filter, so another value is a corrupt
	// file.
	LogDirs [2]int
	// View, optional, is how a bot sees the state: the state p's bot
	// plays on, which may be s itself or scratch filled with p's view
	// (Dominator rotates the board so that every player is player 0). Nil:
	// every bot reads the real state. A bot that is a SeatBot reads the
	// real state and its seat instead.
	View func(s *S, p int, scratch *S) *S
	// ViewDir, optional, turns a real direction of player p's unit into
	// the direction of p's view (the frame of its actions and labels);
	// nil when the frames are the same.
	ViewDir func(p int, d D) D

	// Trace starts writing the .res trace of a game: its header and
	// initial state. The Tracer then writes each round.
	Trace func(w io.Writer, cfg *C, seed int, names [NumSeats]string, g G) Tracer[G]
	// Verify checks a trace (plain bytes) against the rules, or replays
	// it from its command log when log is not nil. cfg, if not nil, is
	// the configuration the game was played with; by default the trace's
	// header says it. It returns nil, a *course.Divergence or another
	// error.
	Verify func(trace []byte, log *CommandLog[D], cfg *C) error
	// Replay rebuilds the rounds of a trace (plain bytes) for datasets,
	// with the verifier's rules check.
	Replay func(trace []byte, cfg *C) (Rounds[C, S, D], error)
	// Rebuild returns a new engine at the position s, a state Replay
	// rebuilt from a trace, with g's configuration, seed and random
	// generator (g is left as it is): everything the engine derives from
	// its state (lists, counts, indexes) is derived again from s. It is
	// how a game starts from a round of a trace without its command file.
	Rebuild func(g G, s *S) (G, error)

	// Bots are the game's registered bots (Null included).
	Bots *env.BotRegistry[Bot[S, D]]

	// Spec describes the env's spaces for a configuration: the
	// observation tensors NewEncoder writes and how to read them, the
	// action of one direction per unit slot (the core fills the identity:
	// id, name, strong bot, seats; see EnvSpec). A configuration whose observation does not fit them
	// is an error wrapping env.ErrBadSetup.
	Spec func(cfg *C) (env.Spec, error)
	// NewEncoder returns an observation encoder (it may keep scratch
	// space: one per table or bot).
	NewEncoder func() Encoder[S]
	// Legal reports whether direction d of unit slot id, in an action of
	// player me, becomes a command: the decoder gives the commands of the
	// slots me owns whose direction is legal, dropping what the engine
	// would drop.
	Legal func(s *S, me, id int, d D) bool
	// None is the direction of a unit slot that gets no command.
	None D

	// Signature is what the game's policies take and give, with the
	// observation versions its policy bot still feeds.
	Signature func() policy.Signature
	// ActionOrders, optional, are the orders of the commands the policy
	// bot and the env can issue besides slot order (policy.OrderSlot), by
	// the name a model's action_order metadata gives: the priority of a
	// command, lower first, ties by slot.
	ActionOrders map[string]func(s *S, me, id int, d D) int
	// OpponentOrders, optional, are the orders of the opponents in the
	// observation besides seat order (policy.OpponentsBySeat), by the name
	// a model's opponent_order metadata gives: each relabels one seat's
	// encoded tensors in place (a nil slice: a tensor not encoded, left
	// alone). It reads the scores from the tensor named "globals"
	// (scoresTensor), which an env table encodes into scratch when the
	// setup's subset of tensors leaves it out.
	OpponentOrders map[string]func(obs [][]byte)

	// Credit, optional, is the game's per-unit credit: it splits player
	// p's score change in the round g just played among p's unit slots,
	// writing into dst (len U, zeroed) what each unit earned by the game's
	// scoring, each kind of event times its weight (w, in the order of
	// CreditWeights), and returns the part of the change (with the
	// default weights) that no unit earned. before is the state at the
	// start of the round.
	Credit func(before *S, g G, p int, w []float64, dst []float32) (remainder float32)
	// CreditWeights are the weights Credit takes, with their defaults.
	CreditWeights []env.Weight
	// CopyState copies a state into dst, reusing dst's memory (the
	// credit's snapshot of the state before a round).
	CopyState func(dst, src *S)

	// Kit, optional, is the game's course kit (jgym's headers of the
	// player API and the runner), for "cpp:" seats; KitErrors map the
	// runner's error kinds to the game's errors (besides
	// "too-many-commands", which is ErrTooManyCommands).
	Kit       func() (fs.FS, error)
	KitErrors map[string]error
	// CppProtocol is the game's side of the runner protocol (required
	// with a Kit).
	CppProtocol cppbot.Protocol[*S, Command[D]]
	// CppTarget, optional, is the game's side of an exported C++ player
	// (jgym export-cpp).
	CppTarget func() cppexport.Target

	// Filled by Define.
	arena   *arena.Host[C, Bot[S, D]]
	kitOnce sync.Once
	kit     *cppbot.Kit
	kitErr  error
}

// scoresTensor names the observation tensor an opponent order
// (Def.OpponentOrders) reads the players' scores from.
const scoresTensor = "globals"

// Tracer writes the rounds of a trace after its header and initial
// state.
type Tracer[G any] interface {
	// Round writes the round the engine just played: its movements and
	// the state after it when err (the error of its Step) is nil, and
	// what the course program writes of a round it aborts otherwise.
	Round(g G, err error)
	// Err is the first write error.
	Err() error
}

// Encoder writes one seat's observation of a state.
type Encoder[S any] interface {
	// Encode writes player p's observation of s into obs, one slice per
	// observation tensor of the spec (sized for one seat); a nil slice is
	// a tensor not asked for, which need not be computed.
	Encode(s *S, p int, obs [][]byte)
}

// Rounds walks the rounds of one trace, rebuilding the state at the start
// of each round from the trace (a game's verifier in small steps).
type Rounds[C, S any, D Dir] interface {
	// Config is the configuration of the trace's game.
	Config() *C
	// Seed is the trace's seed.
	Seed() int
	// Names are the players' names as the trace header has them.
	Names() [NumSeats]string
	// Next rebuilds the next round that has a movements block: the state
	// at its start and the one after it. It returns false at the end of
	// the trace or on an error (Err).
	Next() bool
	// State is the state at the start of the current round.
	State() *S
	// Moves are the current round's printed movements, in real
	// directions: the labels' source.
	Moves() []Command[D]
	// Scores are the scores at the start of the round and after it.
	Scores() (before, after [NumSeats]int)
	// Err is the error that stopped Next, if any.
	Err() error
}
