package env

import (
	"fmt"
	"io"
	"sort"
	"sync"
)

// BotFactory makes the bot B of seat me of a game with the given game
// seed. A bot that draws random numbers seeds its own generator with
// seed+me+1, as the course kits do.
type BotFactory[B any] func(me, seed int) B

// Resolver turns a seat name into a bot factory: a registered bot name or
// a "prefix:PATH" name. The closer, if not nil, releases what the bot
// holds once no game uses it any more.
type Resolver[B any] func(name string) (BotFactory[B], io.Closer, error)

// BotRegistry maps the names of a game's bots to their factories. It is
// safe for concurrent use.
type BotRegistry[B any] struct {
	game string
	mu   sync.RWMutex
	bots map[string]BotFactory[B]
}

// NewBotRegistry returns an empty registry of the bots of game (its name
// in messages).
func NewBotRegistry[B any](game string) *BotRegistry[B] {
	return &BotRegistry[B]{game: game, bots: map[string]BotFactory[B]{}}
}

// Register registers a bot under name. It panics on a duplicate name, as
// registering two players with the same name fails in the course kits.
func (r *BotRegistry[B]) Register(name string, f BotFactory[B]) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.bots[name]; dup {
		panic(r.game + ": bot registered twice: " + name)
	}
	r.bots[name] = f
}

// Names returns the registered names, sorted.
func (r *BotRegistry[B]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.namesLocked()
}

func (r *BotRegistry[B]) namesLocked() []string {
	names := make([]string, 0, len(r.bots))
	for n := range r.bots {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the factory of a registered bot; the error wraps
// ErrUnknownBot and lists the known names.
func (r *BotRegistry[B]) Lookup(name string) (BotFactory[B], error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	f, ok := r.bots[name]
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknownBot, name, r.namesLocked())
	}
	return f, nil
}
