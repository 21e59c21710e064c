package toy

import (
	"io"

	"jgym/game"
)

// Def is the toy's definition: everything the core needs to play it, host
// it as an env, seat bots and policies at its tables and check and learn
// from its traces. It has no course kit (no cpp: seats, no export).
var Def = game.Define(&game.Def[Config, *Game, State, Dir]{
	Name:      "Toy",
	EnvID:     "Toy-v0",
	StrongBot: "Greedy",

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

	// Bots read the real state (no View); command files number rounds
	// from 0 and hold the four moves.
	Orders:  orderRules,
	LogDirs: [2]int{int(Up), int(Left)},

	Trace: func(w io.Writer, cfg *Config, seed int, names [NumPlayers]string, g *Game) game.Tracer[*Game] {
		return NewTraceWriter(w, cfg, seed, names, g)
	},
	Verify:  Verify,
	Replay:  Replay,
	Rebuild: Rebuild,

	Bots: bots,

	Spec:       specFor,
	NewEncoder: func() game.Encoder[State] { return Observer{} },
	Legal:      func(s *State, me, id int, d Dir) bool { return d.Valid() && s.Units[id].Player == me },
	None:       None,

	Signature: signature,
})

// orderRules are the player-side filter: the first command per unit, in
// one of the four directions (others are dropped without marking the
// unit); a unit id that does not exist passes, and the engine aborts.
var orderRules = game.OrderRules[Dir]{Valid: Dir.Valid}
