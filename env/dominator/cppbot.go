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
	p        *cppbot.Process
	me, seed int
	ready    bool
	done     bool
	buf      []byte
	cmds     []Command
}

var (
	_ Bot    = (*CppBot)(nil)
	_ BotErr = (*CppBot)(nil)
)

// NewCppBot starts prog for seat me of a game with the given seed.
func NewCppBot(prog *cppbot.Program, me, seed int) *CppBot {
	return &CppBot{p: prog.Start(me, seed), me: me, seed: seed}
}

// CppFactory returns a BotFactory that starts a process of prog for each
// seat.
func CppFactory(prog *cppbot.Program) BotFactory {
	return func(me, seed int) Bot { return NewCppBot(prog, me, seed) }
}

// Process returns the bot's process.
func (b *CppBot) Process() *cppbot.Process { return b.p }

// Err returns the bot's error (a *cppbot.BotError), or nil.
func (b *CppBot) Err() error { return b.p.Err() }

// Close kills the bot's process.
func (b *CppBot) Close() error { return b.p.Close() }

// Play sends the seat's view v to the bot and gives its commands. After
// an error it gives no orders; see Err.
func (b *CppBot) Play(v *State, o *Orders) {
	if b.done || b.p.Err() != nil {
		return
	}
	cfg := v.Cfg
	if !b.ready {
		b.buf = appendInit(b.buf[:0], b.me, b.seed, cfg)
		if b.p.Ready(b.buf) != nil {
			return
		}
		b.ready = true
	}
	b.buf = appendRound(b.buf[:0], v)
	line, err := b.p.Ask(v.Round, b.buf)
	if err != nil {
		return
	}
	if b.cmds, err = parseCommands(line, b.cmds); err != nil {
		b.p.Fail(v.Round, err)
		return
	}
	for _, c := range b.cmds {
		o.Command(c.ID, c.Dir)
	}
	if v.Round >= cfg.NbRounds-1 {
		b.done = true
		b.p.Finish()
	}
}
