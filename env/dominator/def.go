package dominator

import (
	"bytes"
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
	StrongBot: "Khan",

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
	// turn the printed real directions back into the seat's frame.
	View:    view,
	ViewDir: viewDir,

	Trace: func(w io.Writer, cfg *Config, seed int, names [NumPlayers]string, g *Game) game.Tracer[*Game] {
		t := NewTraceWriter(w)
		t.Header(cfg, seed, names)
		t.State(&g.State)
		return t
	},
	Verify: func(trace []byte, log *CommandLog, cfg *Config) error {
		tr, err := ParseTrace(bytes.NewReader(trace))
		if err != nil {
			return err
		}
		return VerifyWith(tr, VerifyOptions{Config: cfg, Commands: log})
	},
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

// The core's types for Dominator.
type (
	// Command is one order as a player gives it: unit ID and direction
	// Dir in the player's rotated view (SPEC §3.4). Neither is checked
	// until the engine validates the command (SPEC §8.2).
	Command = game.Command[Dir]
	// Move is one printed movement of a round (SPEC §8.7): the unit and
	// the real direction it moved (or attacked) in.
	Move = Command
	// Orders collects one player's commands of a round with the kit's
	// player-side filter (SPEC §8.1): every call counts towards
	// MaxCommands, the first command per unit id wins.
	Orders = game.Orders[Dir]
	// Bot plays one seat. Play is called once per round with the seat's
	// view of the state at the start of the round (State.View: the bot is
	// player 0, its box is the top-left one) and gives its orders, in that
	// view's directions. The view is read-only and valid only during the
	// call.
	Bot = game.Bot[State, Dir]
	// SeatBot is implemented by bots that can play from the real state:
	// a Match then calls PlaySeat(s, me, o) instead of building the view.
	// PlaySeat must give the orders Play would give on the view
	// (directions in the view's frame).
	SeatBot = game.SeatBot[State, Dir]
	// BotFactory makes the bot of seat me of a game with the game seed.
	BotFactory = game.BotFactory[State, Dir]
	// Null is the kit's Null player.
	Null = game.Null[State, Dir]
	// Match is a game with four bots, as the kit's Game program runs it
	// (SPEC §7): each round every bot plays on its view of the state, then
	// the engine plays the round.
	Match = game.Match[Config, *Game, State, Dir]
	// CommandLog holds the command lists each player's object held after
	// its play() in each round (SPEC §15.1), in the player's view,
	// directions as passed (possibly invalid). A missing line (Present)
	// means the player never finished its play(): it crashed, and the
	// course program with it.
	CommandLog = game.CommandLog[Dir]
	// PolicyBot plays a seat with an ONNX policy. It reads the real state
	// and its seat (a SeatBot), as the env does: its Play, too, takes the
	// real state, not a view.
	PolicyBot = game.PolicyBot[Config, *Game, State, Dir]
	// CppBot plays a seat with a C++ bot of the course kit: every round it
	// sends the seat's rotated view (SPEC §3.4) to the bot's process.
	CppBot = game.CppBot[State, Dir]
)

// The errors of the engine, the player-side filter and command files
// (package game's).
var (
	// ErrAbort means the course program aborts at this point (a failed
	// assertion, a player's 1001st command, a name the trace cannot
	// hold): its trace stops there, and so does jgym's.
	ErrAbort = game.ErrAbort
	// ErrTooManyCommands means a player gave more than MaxCommands orders
	// in one round, which aborts the whole game (SPEC §8.1, §14.11).
	ErrTooManyCommands = game.ErrTooManyCommands
	// ErrGameOver is returned by Step after the last round.
	ErrGameOver = game.ErrGameOver
	// ErrCommandFile is wrapped by every command-file error.
	ErrCommandFile = game.ErrCommandFile
	// ErrUnknownBot is returned for a bot name that is not registered.
	ErrUnknownBot = game.ErrUnknownBot
)

// MaxCommands is the most command calls a player may make in one round;
// one more aborts the whole game (SPEC §8.1, §14.11).
const MaxCommands = game.MaxCommands

// bots is the registry of Dominator's bots (Null, and Khan's file
// registers Khan).
var bots = game.NewBots[State, Dir]("dominator")

func init() { RegisterBot("Demo", NewDemo) }

// RegisterBot registers a bot under name. It panics on a duplicate name,
// as registering two players with the same name fails in the kit.
func RegisterBot(name string, f BotFactory) { bots.Register(name, f) }

// Rounds is the number of rounds of a game (game.Config).
func (c Config) Rounds() int { return c.NbRounds }

// ParseCommandLog reads a command file (SPEC §15.1): one line per round
// and player, "r p n id1 dir1 ... idn dirn", rounds from 0, any 32-bit
// integers as ids and directions. Lines may come in any order; a (round,
// player) given twice is an error.
func ParseCommandLog(r io.Reader) (*CommandLog, error) { return Def.ParseCommandLog(r) }

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
