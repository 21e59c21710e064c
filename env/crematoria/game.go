package crematoria

import (
	"errors"
	"fmt"

	"jgym/course"
	"jgym/env"
)

// Errors the engine returns. The course program aborts in these cases; jgym
// ends the game with the error instead.
var (
	// ErrGameOver is returned by Step after the last round (env.ErrGameOver).
	ErrGameOver = env.ErrGameOver
	// ErrNoRespawnCell means a dead unit found no cell to respawn on.
	ErrNoRespawnCell = errors.New("no free cave cell to respawn a unit")
	// ErrTooFewCells means the initial units do not fit on the map.
	ErrTooFewCells = errors.New("not enough free cave cells for the initial units")
)

// Game is one Crematoria game: a deterministic state machine driven by the
// board generator seeded with the game seed. It is not safe for concurrent
// use; a Game is stepped by a single goroutine.
type Game struct {
	State
	cfg  Config
	seed int
	rng  Rand

	// Moves holds the printed movements of the last round played.
	Moves []Move

	// scratch buffers reused across rounds
	queues    [NumPlayers][]Command
	startNec  []int
	deadNec   []int
	deadOther []int
	excl      []bool
	free      []int
	perm      []int
	alpha     course.LazyPerm
	perm2     []int
	hd0       [][8]int32 // D0 around each hellhound (see computeD0)
	d0        d0Search
	caves     []int32 // level-0 Cave cells in row-major order (static)
	caveRows  rowBits // the same as row bitboards
	srcs      []Pos   // scratch for the rule checker (verify.go)
	cands     []Dir
	attack    []Dir
}

// New builds a game: the map, then the initial units (SPEC §4, §5).
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
	if err := g.placeUnits(); err != nil {
		return nil, err
	}
	for idx := 0; idx < LevelCells; idx++ {
		if g.Cells[idx].Type == Cave {
			g.caves = append(g.caves, int32(idx))
			g.caveRows.set(idx/Cols, idx%Cols)
		}
	}
	g.rebuildLists()
	return g, nil
}

// Config returns the game's configuration.
func (g *Game) Config() Config { return g.cfg }

// Seed returns the game seed.
func (g *Game) Seed() int { return g.seed }

// Rand returns the board generator (for tests and tools).
func (g *Game) Rand() *Rand { return &g.rng }

// Done reports whether every round has been played.
func (g *Game) Done() bool { return g.Round >= g.cfg.NbRounds }

func (g *Game) buildBoard() error {
	for idx := range g.Cells {
		g.Cells[idx] = Cell{Type: Outside, Owner: -1, ID: -1}
	}
	if g.cfg.Fixed != nil {
		for r, line := range g.cfg.Fixed {
			k, i := r/Rows, r%Rows
			for j := 0; j < Cols; j++ {
				c := &g.Cells[Pos{i, j, k}.Index()]
				switch ch := line[j]; ch {
				case 'R':
					c.Type = Rock
				case 'C':
					c.Type = Cave
				case 'E':
					c.Type = Elevator
				case 'O':
					c.Type = Outside
				case 'G':
					c.Type, c.Gem = Outside, true
				default:
					c.Type, c.Owner = Cave, int8(ch-'0')
				}
			}
		}
		return nil
	}
	m, err := generateMap(&g.rng, g.cfg.NbElevators)
	if err != nil {
		return err
	}
	for idx, t := range m {
		g.Cells[idx].Type = t
		if t == Elevator {
			g.Cells[LevelCells+idx].Type = Elevator
		}
	}
	return nil
}

// markSquare sets excl for every on-board level-0 cell within Chebyshev
// distance r of p.
func markSquare(excl []bool, p Pos, r int) {
	for a := -r; a <= r; a++ {
		i := p.I + a
		if i < 0 || i >= Rows {
			continue
		}
		for b := -r; b <= r; b++ {
			j := (p.J + b + 2*Cols) % Cols
			excl[i*Cols+j] = true
		}
	}
}

func (g *Game) placeUnits() error {
	cfg := &g.cfg
	T := cfg.NbFuryans + cfg.NbPioneers
	N := NumPlayers * T
	total := cfg.NumUnits()
	g.Units = make([]Unit, total)
	for id := range g.Units {
		u := &g.Units[id]
		u.ID, u.Turns, u.Pos = id, -1, NoPos
		switch {
		case id < N:
			u.Player = id / T
			if id%T < cfg.NbFuryans {
				u.Type, u.Health = Furyan, FuryanHealth
			} else {
				u.Type, u.Health = Pioneer, PioneerHealth
			}
		case id < N+cfg.MaxNecros:
			u.Type, u.Player = Necromonger, -1
		default:
			u.Type, u.Player, u.Health = Hellhound, -1, -1
		}
	}
	excl := make([]bool, LevelCells)
	caves := 0
	for idx := 0; idx < LevelCells; idx++ {
		if g.Cells[idx].Type == Cave {
			caves++
		}
	}
	if caves == 0 {
		return ErrTooFewCells
	}
	// 1. Hellhounds, highest id first.
	for h := 1; h <= cfg.NbHellhounds; h++ {
		id := total - h
		var p Pos
		for tries := 0; ; tries++ {
			if tries > 10000000 {
				return fmt.Errorf("place hellhound %d: %w", id, ErrTooFewCells)
			}
			row := g.rng.Int(0, Rows-1)
			col := g.rng.Int(0, Cols-1)
			p = Pos{row, col, 0}
			if g.Cells[p.Index()].Type == Cave && !excl[p.I*Cols+p.J] {
				break
			}
		}
		g.Units[id].Pos = p
		g.Cells[p.Index()].ID = int16(id)
		markSquare(excl, p, 3)
	}
	// 2. The wasted permutation.
	m1 := 0
	for idx := 0; idx < LevelCells; idx++ {
		if g.Cells[idx].Type == Cave && excl[idx] {
			m1++
		}
	}
	g.rng.SkipPerm(m1)
	// 3-5. Players' units.
	sigma := g.rng.Perm(N)
	var free []int
	for idx := 0; idx < LevelCells; idx++ {
		c := &g.Cells[idx]
		if c.Type == Cave && c.ID < 0 && !excl[idx] {
			free = append(free, idx)
		}
	}
	if len(free) < N {
		return ErrTooFewCells
	}
	tau := g.rng.Perm(len(free))
	for q := 0; q < N; q++ {
		u := &g.Units[sigma[q]]
		idx := free[tau[q]]
		u.Pos = PosOf(idx)
		c := &g.Cells[idx]
		c.ID = int16(u.ID)
		if u.Type == Pioneer {
			c.Owner = int8(u.Player)
		}
	}
	g.excl = excl
	return nil
}
