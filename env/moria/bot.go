package moria

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

// Bot plays one seat of one game. Play is called once per round with the
// state at the start of the round (read-only) and gives its orders through o.
type Bot interface {
	Play(s *State, o *Orders)
}

// BotFactory makes the bot for seat me of a game with the given game seed.
// A bot that draws random numbers seeds its own generator with seed+me+1, as
// the kit does (SPEC §1.5).
type BotFactory func(me, seed int) Bot

// BotErr is implemented by bots that can fail, such as bots running in
// their own process: after each Play, PlayRound ends the game with the
// bot's error.
type BotErr interface{ Err() error }

// ErrUnknownBot is returned for a bot name that is not registered.
var ErrUnknownBot = errors.New("unknown bot")

var (
	botsMu sync.RWMutex
	bots   = map[string]BotFactory{}
)

// RegisterBot registers a bot under name. It panics on a duplicate name, like
// registering two players with the same name in the kit.
func RegisterBot(name string, f BotFactory) {
	botsMu.Lock()
	defer botsMu.Unlock()
	if _, dup := bots[name]; dup {
		panic("moria: bot registered twice: " + name)
	}
	bots[name] = f
}

// BotNames returns the registered bot names in sorted order.
func BotNames() []string {
	botsMu.RLock()
	defer botsMu.RUnlock()
	return namesLocked()
}

// LookupBot returns the factory of a registered bot.
func LookupBot(name string) (BotFactory, error) {
	botsMu.RLock()
	defer botsMu.RUnlock()
	f, ok := bots[name]
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknownBot, name, namesLocked())
	}
	return f, nil
}

func namesLocked() []string {
	names := make([]string, 0, len(bots))
	for n := range bots {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func init() {
	RegisterBot("Null", func(me, seed int) Bot { return Null{} })
	RegisterBot("Demo", NewDemo)
}

// Null is the kit's Null player: it gives no orders.
type Null struct{}

// Play does nothing.
func (Null) Play(*State, *Orders) {}
