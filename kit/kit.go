// Package kit holds jgym's implementation of each game's course kit, one
// folder per game (kit/crematoria, ...): the headers of the C++ player API
// with the kit's names and memory layout, the runner that connects a
// player to jgym (docs/cpp-bots.md), and the course's example players
// (AIDemo.cc, AINull.cc). The files are embedded here once; the cpp: bots
// compile against them and the exporters write players for them.
package kit

import (
	"embed"
	"fmt"
	"io/fs"
)

//go:embed crematoria moria pandemic dominator
var files embed.FS

// FS returns the kit of a game by its folder name ("crematoria").
func FS(game string) (fs.FS, error) {
	if _, err := fs.Stat(files, game); err != nil {
		return nil, fmt.Errorf("kit: no kit for %q", game)
	}
	return fs.Sub(files, game)
}
