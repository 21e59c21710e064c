package pandemic

import (
	"io"
	"io/fs"
	"math"

	"jgym/game"
	"jgym/kit"
	"jgym/policy"
)

// EnvID is the id of Pandemic in an env.Registry.
const EnvID = "Pandemic-v0"

// Def is Pandemic's definition: everything the core needs to play it,
// host it as an env, seat bots and policies, check and learn from its
// traces and export players for its kit.
var Def = game.Define(&game.Def[Config, *Game, State, Dir]{
	Name:      "Pandemic",
	EnvID:     EnvID,
	StrongBot: "Pasteur",

	DefaultConfig: DefaultConfig,
	ParseConfig:   ParseConfig,

	New:      New,
	State:    func(g *Game) *State { return &g.State },
	Round:    func(g *Game) int { return g.Round },
	Scores:   func(g *Game) [NumPlayers]int { return g.Scores },
	Step:     (*Game).Step,
	NumUnits: func(s *State) int { return len(s.Units) },
	Owner:    func(s *State, id int) int { return s.Units[id].Player },
	Config:   func(s *State) *Config { return s.Cfg },

	Orders: orderRules,
	// The kit's Dir is an enum: a command file holds what move() was given
	// as a char-sized value; the engine skips invalid directions.
	LogDirs: [2]int{math.MinInt8, math.MaxInt8},

	// A round the engine aborts after its commands block (the virus
	// phase, respawn, mask spawn) still writes the block (TraceWriter.Round).
	Trace: func(w io.Writer, cfg *Config, seed int, names [NumPlayers]string, g *Game) game.Tracer[*Game] {
		t := NewTraceWriter(w)
		t.Header(cfg, seed, names)
		t.State(&g.State)
		return t
	},
	// Verify accepts a trace cut short only where the replayed engine
	// aborts (VerifyOptions.AllowAborted stays off).
	Verify: verifier.Bytes,
	// The replay estimates the unit statuses a trace does not print
	// (dataset.Estimator).
	Replay:  newTraceRounds,
	Rebuild: Rebuild,

	Bots: bots,

	// The board's size is part of the spec: a configuration's spec has
	// its rows and columns, and a policy's signature the default board's.
	Spec:       specFor,
	NewEncoder: func() game.Encoder[State] { return &Observer{} },
	Legal:      func(s *State, me, id int, d Dir) bool { return d.Valid() && s.Units[id].Player == me },
	None:       None,

	Signature: signature,
	// The engine executes the commands of a round in one random order it
	// draws over every player's list (SPEC §8.3): the order a player
	// gives them in changes which order is drawn, not its odds, so
	// Pandemic offers no action order. The opponents may be ordered by
	// score.
	OpponentOrders: map[string]func(obs [][]byte){policy.OpponentsByScore: orderOpponents},

	Credit:        credit,
	CreditWeights: creditWeights,
	CopyState:     func(dst, src *State) { dst.CopyFrom(src) },

	Kit:         func() (fs.FS, error) { return kit.FS("pandemic") },
	CppProtocol: cppProtocol{},
	CppTarget:   CppTarget,
})

// orderRules are the kit's player-side filter: the first command per unit
// id wins, whatever its validity; the engine checks the rest (SPEC §8.1,
// §8.2). Nothing is dropped without marking its unit.
var orderRules = game.OrderRules[Dir]{}

// cppProtocol is Pandemic's side of the runner protocol (cppproto.go).
type cppProtocol struct{}

func (cppProtocol) AppendInit(b []byte, me, seed int, s *State) []byte {
	return appendInit(b, me, seed, s)
}

func (cppProtocol) AppendRound(b []byte, s *State) []byte { return appendRound(b, s) }

func (cppProtocol) ParseCommands(line []byte, dst []Command) ([]Command, error) {
	return parseCommands(line, dst)
}

func (cppProtocol) Round(s *State) (int, bool) { return s.Round, s.Round >= s.Cfg.NbRounds-1 }
