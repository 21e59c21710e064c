package crematoria

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

// CppKit returns Crematoria's course kit (kit/crematoria: jgym's headers
// of the player API, SPEC §11, and the runner) for package cppbot.
func CppKit() (*cppbot.Kit, error) {
	cppKitOnce.Do(func() {
		fsys, err := kit.FS("crematoria")
		if err != nil {
			cppKitErr = err
			return
		}
		cppKit, cppKitErr = cppbot.NewKit("Crematoria", fsys, map[string]error{"too-many-commands": ErrTooManyCommands})
	})
	return cppKit, cppKitErr
}

// CppBot plays a seat with a C++ bot of the course kit, compiled by
// package cppbot: every round it sends the state the player sees to the
// bot's process and gives the commands it answers. A failure (a crash, a
// hang, garbage, too many commands) makes it give no orders and report a
// *cppbot.BotError from Err; Match ends that game.
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

// Play sends the state to the bot and gives its commands. After an error
// it gives no orders; see Err.
func (b *CppBot) Play(s *State, o *Orders) {
	for _, c := range b.Commands(s) {
		o.Command(c.ID, c.Dir)
	}
}

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
