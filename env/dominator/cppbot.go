package dominator

import (
	"sync"

	"jgym/cppbot"
	"jgym/kit"
)

var (
	cppKitOnce sync.Once
	cppKit     *cppbot.Kit
	cppKitErr  error
)

// CppKit returns Dominator's course kit (kit/dominator: jgym's headers of
// the player API, SPEC §11, and the runner) for package cppbot.
func CppKit() (*cppbot.Kit, error) {
	cppKitOnce.Do(func() {
		fsys, err := kit.FS("dominator")
		if err != nil {
			cppKitErr = err
			return
		}
		cppKit, cppKitErr = cppbot.NewKit("Dominator", fsys, map[string]error{"too-many-commands": ErrTooManyCommands})
	})
	return cppKit, cppKitErr
}

// CppBot plays a seat with a C++ bot of the course kit, compiled by
// package cppbot: every round it sends the seat's rotated view of the
// state (SPEC §3.4) to the bot's process and gives the commands it
// answers. A failure (a crash, a hang, garbage, too many commands) makes
// it give no orders and report a *cppbot.BotError from Err; Match ends
// that game.
type CppBot struct {
	cppbot.Bot[*State, Command]
}

var (
	_ Bot    = (*CppBot)(nil)
	_ BotErr = (*CppBot)(nil)
)

// NewCppBot starts prog for seat me of a game with the given seed.
func NewCppBot(prog *cppbot.Program, me, seed int) *CppBot {
	return &CppBot{cppbot.NewBot[*State, Command](prog, cppProtocol{}, me, seed)}
}

// CppFactory returns a BotFactory that starts a process of prog for each
// seat.
func CppFactory(prog *cppbot.Program) BotFactory {
	return func(me, seed int) Bot { return NewCppBot(prog, me, seed) }
}

// Play sends the seat's view v to the bot and gives its commands. After
// an error it gives no orders; see Err.
func (b *CppBot) Play(v *State, o *Orders) {
	for _, c := range b.Commands(v) {
		o.Command(c.ID, c.Dir)
	}
}

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
