package env

import (
	"fmt"
	"sort"
	"sync"
)

// Registry maps game ids to games. The zero value is an empty registry
// ready to use; it is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	games map[string]Game
}

// NewRegistry returns a registry holding the given games.
func NewRegistry(games ...Game) (*Registry, error) {
	r := &Registry{}
	for _, g := range games {
		if err := r.Register(g); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds a game under its Spec().ID.
func (r *Registry) Register(g Game) error {
	id := g.Spec().ID
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.games == nil {
		r.games = map[string]Game{}
	}
	if _, dup := r.games[id]; dup {
		return fmt.Errorf("%w: %q", ErrDuplicateGame, id)
	}
	r.games[id] = g
	return nil
}

// Lookup returns the game registered under id. The error wraps
// ErrUnknownGame and lists the known ids.
func (r *Registry) Lookup(id string) (Game, error) {
	r.mu.RLock()
	g, ok := r.games[id]
	r.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknownGame, id, r.IDs())
	}
	return g, nil
}

// IDs returns the registered ids, sorted.
func (r *Registry) IDs() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ids := make([]string, 0, len(r.games))
	for id := range r.games {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Games returns the registered games in id order.
func (r *Registry) Games() []Game {
	ids := r.IDs()
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Game, 0, len(ids))
	for _, id := range ids {
		if g, ok := r.games[id]; ok {
			out = append(out, g)
		}
	}
	return out
}
