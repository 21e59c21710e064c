package dominator

import (
	"errors"
	"fmt"

	"jgym/course"
	"jgym/game"
)

// The engine's errors of package game.
var (
	// ErrAbort means the course program aborts at this point (a failed
	// assertion, a player's 1001st command, a name the trace cannot
	// hold): its trace stops there, and so does jgym's (game.ErrAbort).
	ErrAbort = game.ErrAbort
	// ErrGameOver is returned by Step after the last round.
	ErrGameOver = game.ErrGameOver
)

// ErrNoProgress means the course program would loop forever here (a
// generator or a placement that can never succeed); jgym stops instead.
var ErrNoProgress = errors.New("the course program never finishes")

// Game is one Dominator game: a deterministic state machine driven by the
// engine's generator, seeded with the game seed. It is not safe for
// concurrent use.
type Game struct {
	State
	cfg  Config
	seed int
	rng  Rand

	// Moves holds the printed movements of the last round played.
	Moves []Move

	// scratch reused across rounds
	valid     []Command // V of SPEC §8.2, real directions
	perm      []int
	moved     []int32 // round in which a unit was last in V
	killed    []int32 // round in which a unit was last killed
	lazy      course.LazyPerm
	cells     []int32 // candidate cells of a group spawn
	cells2    []int32
	extra     []int
	dead      [2][NumPlayers][]int // killed knights, farmers by new owner
	owned     [NumPlayers + 1]int  // land by owner+1, kept up to date
	near      []int32              // cells near a witch (markNearWitches)
	nearStamp int32
}

// New builds a game: the board, then the initial units (SPEC §4, §5, §7).
// The error wraps ErrConfig, ErrAbort or ErrNoProgress; the course program
// writes no trace in those cases.
func New(cfg Config, seed int) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{cfg: cfg, seed: seed}
	g.rng.Seed(seed)
	g.State.Cfg = &g.cfg
	if err := g.buildBoard(); err != nil {
		return nil, err
	}
	n := cfg.NumUnits()
	g.moved = make([]int32, n)
	g.killed = make([]int32, n)
	for i := range g.moved {
		g.moved[i], g.killed[i] = -1, -1
	}
	if err := g.placeUnits(); err != nil {
		return nil, err
	}
	g.rebuildLists()
	if err := g.checkOwners(); err != nil {
		return nil, err
	}
	g.countLand()
	g.score()
	return g, nil
}

// Config returns the game's configuration.
func (g *Game) Config() Config { return g.cfg }

// Seed returns the game seed.
func (g *Game) Seed() int { return g.seed }

// Rand returns the engine's generator (for tests and tools).
func (g *Game) Rand() *Rand { return &g.rng }

// Done reports whether every round has been played.
func (g *Game) Done() bool { return g.Round >= g.cfg.NbRounds }

// buildBoard makes the board of a FIXED configuration or runs the
// generator (SPEC §2.1, §4).
func (g *Game) buildBoard() error {
	c := &g.cfg
	g.Grid = make([]Cell, c.Rows*c.Cols)
	if c.Board != Fixed {
		return generateBoard(&g.rng, c, g.Grid)
	}
	for i, line := range c.Grid {
		for j := 0; j < c.Cols; j++ {
			cell := Cell{Type: Empty, Owner: -1, ID: -1}
			switch ch := line[j]; ch {
			case 'X':
				cell.Type = Wall
			case '.':
			default:
				cell.Owner = int8(ch - '0')
			}
			g.Grid[i*c.Cols+j] = cell
		}
	}
	return nil
}

// score sets the land of each player, kept up to date as cells change
// colour, and adds it to the totals (SPEC §9).
func (g *Game) score() {
	for p := 0; p < NumPlayers; p++ {
		g.Land[p] = g.owned[p+1]
		g.TotalScore[p] += g.Land[p]
	}
}

// countLand recounts the cells of each colour from scratch.
func (g *Game) countLand() {
	g.owned = [NumPlayers + 1]int{}
	for idx := range g.Grid {
		if o := g.Grid[idx].Owner; o >= 0 && o < NumPlayers {
			g.owned[o+1]++
		}
	}
}

// checkOwners reports an owner the first scoring rejects: a 4 of a FIXED
// map that no farmer painted over trips the course program's assertion
// (SPEC §2.1).
func (g *Game) checkOwners() error {
	for idx := range g.Grid {
		if o := g.Grid[idx].Owner; o >= NumPlayers {
			return fmt.Errorf("%w: cell (%d, %d) has owner %d", ErrAbort, idx/g.cfg.Cols, idx%g.cfg.Cols, o)
		}
	}
	return nil
}

// paint gives cell idx to player p, keeping the land counts up to date.
func (g *Game) paint(idx, p int) {
	c := &g.Grid[idx]
	if c.Owner >= 0 && c.Owner < NumPlayers {
		g.owned[c.Owner+1]--
	}
	c.Owner = int8(p)
	g.owned[p+1]++
}
