package moria

import (
	"errors"
	"fmt"

	"jgym/env"
	"jgym/game"
)

// Errors the engine returns. The course program aborts in these cases
// (SPEC §8.8, §8.11, §15.4); jgym ends the game with the error instead, and
// a Match leaves the trace as the course program leaves it: ending with the
// last complete state.
var (
	// ErrGameOver is returned by Step after the last round (env.ErrGameOver).
	ErrGameOver = env.ErrGameOver
	// ErrAbort is wrapped by every error where the course engine aborts
	// in the middle of a round (a failed assertion) (game.ErrAbort).
	ErrAbort = game.ErrAbort
	// ErrBalrogBlocked means the Balrog's step leads onto a cell that holds
	// a unit id, only possible through a stale troll id (SPEC §8.8). The
	// reference fails an assertion in Board::move.
	ErrBalrogBlocked = fmt.Errorf("%w: Board::move assertion (the Balrog steps onto a cell holding a unit id)", ErrAbort)
	// ErrNoRebirthCell means a dead unit found no cell to be reborn on,
	// neither on the outside ring nor inside Moria (SPEC §8.11 step 6).
	ErrNoRebirthCell = fmt.Errorf("%w: no free cell for a unit's rebirth", ErrAbort)
	// ErrTooFewCells means the initial units do not fit on the map's
	// treasure-free caves (SPEC §5.2).
	ErrTooFewCells = errors.New("not enough free caves for the initial units")
)

// Game is one Moria game: a deterministic state machine driven by the
// board generator seeded with the game seed. It is not safe for concurrent
// use; a Game is stepped by a single goroutine.
type Game struct {
	State
	cfg   Config
	seed  int
	rng   Rand
	stats GenStats

	// Moves holds the printed movements of the last round played.
	Moves []Move

	killed       []bool  // per unit id: killed this round (SPEC §8.5)
	abyssCells   []int   // the Abyss cells, row-major (an abyss never changes)
	outsideCells []int32 // the Outside cells (they never change)
	round        roundScratch
}

// New builds a game: the map, then the initial units (SPEC §4, §5).
func New(cfg Config, seed int) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{cfg: cfg, seed: seed}
	g.rng.Seed(seed)
	g.State.Cfg = &g.cfg
	g.buildBoard()
	if err := g.placeUnits(); err != nil {
		return nil, err
	}
	g.killed = make([]bool, len(g.Units))
	for idx := range g.Cells {
		c := &g.Cells[idx]
		if c.ID >= 0 {
			g.setID(idx, int(c.ID))
		}
		switch c.Type {
		case Abyss:
			g.abyssCells = append(g.abyssCells, idx)
		case Outside:
			g.outsideCells = append(g.outsideCells, int32(idx))
		}
	}
	g.countCells()
	g.rebuildLists()
	return g, nil
}

// Config returns the game's configuration.
func (g *Game) Config() Config { return g.cfg }

// Seed returns the game seed.
func (g *Game) Seed() int { return g.seed }

// Rand returns the board generator (for tests and tools).
func (g *Game) Rand() *Rand { return &g.rng }

// GenStats reports the restarts of the map generator (zero for FIXED).
func (g *Game) GenStats() GenStats { return g.stats }

// Done reports whether every round has been played.
func (g *Game) Done() bool { return g.Round >= g.cfg.NbRounds }

// buildBoard makes the map: FIXED from the configuration, GENERATOR from
// the board generator (SPEC §2, §4).
func (g *Game) buildBoard() {
	if g.cfg.Fixed != nil {
		for i, line := range g.cfg.Fixed {
			for j := 0; j < Cols; j++ {
				g.Cells[i*Cols+j], _ = g.cfg.fixedCell(line[j])
			}
		}
		return
	}
	var m [NumCells]byte
	m, g.stats = generateMap(&g.rng)
	for idx, ch := range m {
		c := Cell{Owner: -1, ID: -1}
		switch ch {
		case 'R':
			c.Type, c.Turns = Rock, int8(g.cfg.RockResistance)
		case 'C':
			c.Type = Cave
		case 'T':
			c.Type, c.Treasure = Cave, true
		case 'G':
			c.Type = Granite
		default:
			c.Type = Outside
		}
		g.Cells[idx] = c
	}
}

// markSquare sets ban for every on-board cell within Chebyshev distance r
// of p.
func markSquare(ban []bool, p Pos, r int) {
	for i := max(p.I-r, 0); i <= min(p.I+r, Rows-1); i++ {
		for j := max(p.J-r, 0); j <= min(p.J+r, Cols-1); j++ {
			ban[i*Cols+j] = true
		}
	}
}

// placeUnits creates the unit table and places the initial units (SPEC §5).
func (g *Game) placeUnits() error {
	cfg := &g.cfg
	T := cfg.ClanUnits()
	N := NumPlayers * T
	g.Units = make([]Unit, cfg.NumUnits())
	for id := range g.Units {
		u := &g.Units[id]
		u.ID, u.Player, u.Pos = id, -1, NoPos
		switch {
		case id < N:
			u.Player = id / T
			if id%T < cfg.NbDwarves {
				u.Type = Dwarf
			} else {
				u.Type = Wizard
			}
		case id < cfg.FirstTroll():
			u.Type = Orc
		case id < cfg.BalrogID():
			u.Type = Troll
		default:
			u.Type = Balrog
		}
	}
	var v []int
	for idx := range g.Cells {
		if c := &g.Cells[idx]; c.Type == Cave && !c.Treasure {
			v = append(v, idx)
		}
	}
	pi := g.rng.Perm(len(v))
	col := g.rng.Int(3, Rows-4)
	row := g.rng.Int(3, Rows-4)
	ban := make([]bool, NumCells)
	b := &g.Units[cfg.BalrogID()]
	b.Pos = Pos{row, col}
	g.Cells[b.Pos.Index()].ID = int16(b.ID)
	markSquare(ban, b.Pos, balrogBanRadius)
	q := 0
	place := func(id int) error {
		for q < len(pi) && ban[v[pi[q]]] {
			q++
		}
		if q == len(pi) {
			return fmt.Errorf("place unit %d: %w", id, ErrTooFewCells)
		}
		u := &g.Units[id]
		u.Pos = PosOf(v[pi[q]])
		u.Health = u.Type.MaxHealth()
		q++
		g.Cells[u.Pos.Index()].ID = int16(id)
		markSquare(ban, u.Pos, 1)
		return nil
	}
	for id := cfg.BalrogID() - 1; id >= cfg.FirstTroll(); id-- {
		if err := place(id); err != nil {
			return err
		}
	}
	for _, id := range g.rng.Perm(N) {
		if err := place(id); err != nil {
			return err
		}
	}
	for id := 0; id < N; id++ {
		if u := &g.Units[id]; u.Type == Dwarf {
			g.Cells[u.Pos.Index()].Owner = int8(u.Player)
		}
	}
	return nil
}
