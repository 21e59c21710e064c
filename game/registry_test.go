package game_test

import (
	"errors"
	"testing"

	"jgym/env/toy"
	"jgym/game"
)

// strongAs is a game whose definition names another strong bot.
type strongAs struct {
	game.Entry
	strong string
}

func (e strongAs) Strong() string { return e.strong }

// TestRegistryStrongBot checks that a registry refuses a game whose strong
// bot is not one of its registered bots (a strong bot in a subpackage that
// the registry's assembler forgot to import), and takes the others.
func TestRegistryStrongBot(t *testing.T) {
	for _, tc := range []struct {
		strong string
		want   error
	}{
		{toy.Def.Strong(), nil},
		{"Demo", nil},
		{"", nil},
		{"Nobody", game.ErrUnknownBot},
	} {
		r, err := game.NewRegistry(strongAs{toy.Def, tc.strong})
		if !errors.Is(err, tc.want) || (err == nil) != (r != nil) {
			t.Errorf("strong bot %q: registry %v, error %v; want error %v", tc.strong, r != nil, err, tc.want)
		}
	}
}
