package dominator

import (
	"io"
	"io/fs"
	"math"

	"jgym/game"
	"jgym/kit"
	"jgym/policy"
)

// EnvID is the id of Dominator in an env.Registry.
const EnvID = "Dominator-v0"

// Def is Dominator's definition: everything the core needs to play it,
// host it as an env, seat bots and policies, check and learn from its
// traces and export players for its kit.
var Def = game.Define(&game.Def[Config, *Game, State, Dir]{
	Name:      "Dominator",
	EnvID:     EnvID,
	StrongBot: "Khan", // package khan, registered when imported

	DefaultConfig: DefaultConfig,
	ParseConfig:   ParseConfig,

	New:      New,
	State:    func(g *Game) *State { return &g.State },
	Round:    func(g *Game) int { return g.Round },
	Scores:   func(g *Game) [NumPlayers]int { return g.Scores() },
	Step:     (*Game).Step,
	NumUnits: func(s *State) int { return len(s.Units) },
	Owner:    func(s *State, id int) int { return s.Units[id].Player },
	Config:   func(s *State) *Config { return s.Cfg },

	Orders: orderRules,
	// The kit's command() checks neither ids nor directions, and the
	// command file records them as given (SPEC §15.1): any 32-bit value.
	LogDirs: [2]int{math.MinInt32, math.MaxInt32},
	// Every player programs as player 0 (SPEC §3.4): a bot plays on its
	// rotated view (player 0's is the state itself) and its directions are
	// in the view's frame, which the engine turns (Dir.Rotate). Labels
	// turn the printed real directions back into the seat's frame. So a
	// Command, the lists of a CommandLog and a cpp: seat's messages are in
	// the seat's view; a SeatBot (the policy bot) reads the real state.
	View:    view,
	ViewDir: viewDir,

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
	Legal:      Legal,
	None:       None,

	Signature: signature,
	// The commands of a round are executed in a random order the engine
	// draws over all players' lists (SPEC §8.3): the order a player gives
	// them in changes which order is drawn, not its odds, so Dominator
	// offers no action order. The opponents may be ordered by score.
	OpponentOrders: map[string]func(obs [][]byte){policy.OpponentsByScore: orderOpponents},

	Credit:        credit,
	CreditWeights: creditWeights,
	CopyState:     func(dst, src *State) { dst.CopyFrom(src) },

	Kit:         func() (fs.FS, error) { return kit.FS("dominator") },
	CppProtocol: cppProtocol{},
	CppTarget:   CppTarget,
})

// orderRules are the kit's player-side filter: the first command per unit
// id wins; ids and directions are not checked, the engine drops bad ones
// (SPEC §8.1, §8.2).
var orderRules = game.OrderRules[Dir]{}

// view is player p's view of s (State.View): s itself for player 0, else
// built in scratch.
func view(s *State, p int, scratch *State) *State {
	if p == 0 {
		return s
	}
	s.View(p, scratch)
	return scratch
}

// viewDir turns a real direction of player p's unit into p's frame, the
// inverse of Dir.Rotate; None and invalid values stay.
func viewDir(p int, d Dir) Dir {
	if d >= 0 && d < None {
		return (d + Dir(8-2*p)) % 8
	}
	return d
}

// Demo is registered here, DummyClone by its own file, Khan by package
// jgym/env/dominator/khan when imported (def_gen.go holds the registry).
func init() { RegisterBot("Demo", NewDemo) }

// cppProtocol is Dominator's side of the runner protocol (cppproto.go).
type cppProtocol struct{}

func (cppProtocol) AppendInit(b []byte, me, seed int, s *State) []byte {
	return appendInit(b, me, seed, s.Cfg)
}

func (cppProtocol) AppendRound(b []byte, s *State) []byte { return appendRound(b, s) }

func (cppProtocol) ParseCommands(line []byte, dst []Command) ([]Command, error) {
	return parseCommands(line, dst)
}

func (cppProtocol) Round(s *State) (int, bool) { return s.Round, s.Round >= s.Cfg.NbRounds-1 }
