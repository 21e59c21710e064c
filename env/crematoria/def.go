package crematoria

import (
	"io"
	"io/fs"

	"jgym/game"
	"jgym/kit"
	"jgym/policy"
)

// EnvID is the id of Crematoria in an env.Registry.
const EnvID = "Crematoria-v0"

// Def is Crematoria's definition: everything the core needs to play it,
// host it as an env, seat bots and policies, check and learn from its
// traces and export players for its kit.
var Def = game.Define(&game.Def[Config, *Game, State, Dir]{
	Name:      "Crematoria",
	EnvID:     EnvID,
	StrongBot: "Riddick", // package riddick, registered when imported

	DefaultConfig: DefaultConfig,
	ParseConfig:   ParseConfig,

	New:      New,
	State:    func(g *Game) *State { return &g.State },
	Round:    func(g *Game) int { return g.Round },
	Scores:   func(g *Game) [NumPlayers]int { return g.Scores() },
	Step:     (*Game).Step,
	NumUnits: func(s *State) int { return len(s.Units) },
	Owner:    func(s *State, id int) int { return s.Units[id].Player },
	Config:   func(s *State) *Config { return cppConfig(s) },

	Orders:  orderRules,
	LogDirs: [2]int{0, int(DirSize) - 1},

	Trace: func(w io.Writer, cfg *Config, seed int, names [NumPlayers]string, g *Game) game.Tracer[*Game] {
		t := NewTraceWriter(w)
		t.Header(cfg, seed, names)
		t.State(&g.State)
		return t
	},
	Verify:  verifier.Bytes,
	Replay:  newTraceRounds,
	Rebuild: Rebuild,

	Bots: bots,

	Spec:       specFor,
	NewEncoder: func() game.Encoder[State] { return &Observer{} },
	Legal:      func(s *State, me, id int, d Dir) bool { return d.Valid() && s.Units[id].Player == me },
	None:       None,

	Signature:      signature,
	ActionOrders:   map[string]func(s *State, me, id int, d Dir) int{policy.OrderAttacksFirst: attacksFirst},
	OpponentOrders: map[string]func(obs [][]byte){policy.OpponentsByScore: orderOpponents},

	Credit:        credit,
	CreditWeights: creditWeights,
	CopyState:     func(dst, src *State) { dst.CopyFrom(src) },

	Kit:         func() (fs.FS, error) { return kit.FS("crematoria") },
	CppProtocol: cppProtocol{},
	CppTarget:   CppTarget,
})

// orderRules are the kit's player-side filter: command() ignores unit id
// -1 and directions out of range without marking the unit (SPEC §8.1).
var orderRules = game.OrderRules[Dir]{SkipMinusOne: true, Valid: Dir.Valid}

// cppProtocol is Crematoria's side of the runner protocol (cppproto.go).
type cppProtocol struct{}

func (cppProtocol) AppendInit(b []byte, me, seed int, s *State) []byte {
	return appendInit(b, me, seed, cppConfig(s))
}

func (cppProtocol) AppendRound(b []byte, s *State) []byte { return appendRound(b, s) }

func (cppProtocol) ParseCommands(line []byte, dst []Command) ([]Command, error) {
	return parseCommands(line, dst)
}

func (cppProtocol) Round(s *State) (int, bool) { return s.Round, s.Round >= cppConfig(s).NbRounds-1 }

// cppConfig is the configuration of s, the default one if s has none.
func cppConfig(s *State) *Config {
	if s.Cfg == nil {
		return &defaultConfig
	}
	return s.Cfg
}

// defaultConfig is the kit's default configuration, for states without
// one and the signature.
var defaultConfig = DefaultConfig()
