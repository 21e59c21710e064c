package game

import (
	"maps"

	"jgym/cppbot"
)

// CppBot plays a seat with a C++ bot of the game's course kit, compiled by
// package cppbot: every round it sends the state as its seat sees it to
// the bot's process (Def.CppProtocol) and gives the commands it answers. A
// failure (a crash, a hang, garbage, too many commands) makes it give no
// orders and report a *cppbot.BotError from Err; the Match ends the game.
type CppBot[S any, D Dir] struct {
	cppbot.Bot[*S, Command[D]]
}

var (
	_ Bot[int, int8] = (*CppBot[int, int8])(nil)
	_ BotErr         = (*CppBot[int, int8])(nil)
)

// Play sends the state to the bot and gives its commands. After an error
// it gives no orders; see Err.
func (b *CppBot[S, D]) Play(s *S, o *Orders[D]) {
	for _, c := range b.Commands(s) {
		o.Command(c.ID, c.Dir)
	}
}

// NewCppBot starts prog for seat me of a game with the given seed.
func (d *Def[C, G, S, D]) NewCppBot(prog *cppbot.Program, me, seed int) *CppBot[S, D] {
	return &CppBot[S, D]{cppbot.NewBot[*S, Command[D]](prog, d.CppProtocol, me, seed)}
}

// CppFactory returns a BotFactory that starts a process of prog for each
// seat.
func (d *Def[C, G, S, D]) CppFactory(prog *cppbot.Program) BotFactory[S, D] {
	return func(me, seed int) Bot[S, D] { return d.NewCppBot(prog, me, seed) }
}

// CppKit returns the game's course kit for package cppbot (built once).
func (d *Def[C, G, S, D]) CppKit() (*cppbot.Kit, error) {
	d.kitOnce.Do(func() {
		if d.Kit == nil {
			d.kitErr = errNoKit(d.Name)
			return
		}
		fsys, err := d.Kit()
		if err != nil {
			d.kitErr = err
			return
		}
		errs := map[string]error{"too-many-commands": ErrTooManyCommands}
		maps.Copy(errs, d.KitErrors)
		d.kit, d.kitErr = cppbot.NewKit(d.Name, fsys, errs)
	})
	return d.kit, d.kitErr
}
