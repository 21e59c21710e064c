package game

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Registry is an ordered set of defined games, the first the default. The
// zero value is empty and ready to use; it is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	games []Entry
}

// NewRegistry returns a registry of the games, in order.
func NewRegistry(games ...Entry) (*Registry, error) {
	r := &Registry{}
	for _, g := range games {
		if err := r.Add(g); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Add registers a game after the others. Two games may not share a name
// or an env id (ignoring case), and a game's strong bot must be one of
// its registered bots: a strong bot in a subpackage of its game registers
// itself when imported, so the error (ErrUnknownBot) says that the place
// assembling the registry does not import it.
func (r *Registry) Add(g Entry) error {
	if s := g.Strong(); s != "" && !slices.Contains(g.Arena().Bots(), s) {
		return fmt.Errorf("game %s: strong bot %q: %w (is its package imported?)", g.Arena().Name(), s, ErrUnknownBot)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, o := range r.games {
		if strings.EqualFold(o.Arena().Name(), g.Arena().Name()) || strings.EqualFold(o.ID(), g.ID()) {
			return fmt.Errorf("game registered twice: %s (%s)", g.Arena().Name(), g.ID())
		}
	}
	r.games = append(r.games, g)
	return nil
}

// Games returns the registered games in order.
func (r *Registry) Games() []Entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]Entry(nil), r.games...)
}

// Lookup returns the game of a name or an env id, ignoring case.
func (r *Registry) Lookup(name string) (Entry, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, g := range r.games {
		if strings.EqualFold(g.Arena().Name(), name) || strings.EqualFold(g.ID(), name) {
			return g, true
		}
	}
	return nil, false
}

// Names lists the games' names, in order.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, len(r.games))
	for i, g := range r.games {
		names[i] = g.Arena().Name()
	}
	return names
}
