package pandemic

import (
	"fmt"

	"jgym/game"
)

// Errors the engine returns. The course program aborts in these cases
// (SPEC §14, §15.3); jgym ends the game with the error instead, the trace
// written as the course program leaves it. Each wraps ErrAbort.
var (
	// ErrAbort is wrapped by every error where the course program aborts
	// the game (game.ErrAbort).
	ErrAbort = game.ErrAbort
	// ErrGameOver is returned by Step after the last round (env.ErrGameOver).
	ErrGameOver = game.ErrGameOver
	// ErrNoSpawnCell means a unit found no spawnable cell (SPEC §5.3).
	ErrNoSpawnCell = fmt.Errorf("%w: no spawnable cell for a unit", ErrAbort)
	// ErrKilledTwice means a unit killed by an attack died again from the
	// virus in the same round; the reference refuses to kill a unit twice
	// (SPEC §8.7 step 4).
	ErrKilledTwice = fmt.Errorf("%w: unit killed twice in one round", ErrAbort)
	// ErrNoMaskCell means no cell can take a new mask. The course program
	// then loops forever (SPEC §8.11 has no attempt limit); jgym stops,
	// as at an abort.
	ErrNoMaskCell = fmt.Errorf("%w: no free grass cell for a mask", ErrAbort)
)

// Game is one Pandemic game: a deterministic state machine driven by the
// board generator seeded with the game seed. It is not safe for concurrent
// use; a Game is stepped by a single goroutine.
type Game struct {
	State
	cfg  Config
	seed int
	rng  Rand

	// Moves holds the printed movements of the last round played; it is
	// complete once MovesDone is true, even when Step failed later in the
	// round (the course engine writes the commands block before the virus
	// phase, SPEC §8.5).
	Moves     []Move
	MovesDone bool
	// MapAttempts is the number of map attempts GENERATOR1 needed (0 for
	// FIXED).
	MapAttempts int

	ring []Pos // spawn candidates, row-major (SPEC §5.3); static
	// compat[idx] has bit k set when the neighbour of idx in diffusion
	// order k (SPEC §8.7) is on the board and compatible; static.
	compat []uint8

	// scratch reused across rounds
	valid  []Command
	perm   []int
	killed []bool
	dead   []int
	list   []Pos
	active []int32  // cells with virus (see emitAndDiffuse)
	cand   []int32  // cells whose virus is recomputed
	vals   []uint8  // their new values
	mark   []uint32 // stamp of the cells in cand
	stamp  uint32
	counts []int32
	comp   []int32
	sizes  []int
}

// New builds a game: the map, then the initial units (SPEC §4, §5).
func New(cfg Config, seed int) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{cfg: cfg, seed: seed}
	g.rng.Seed(seed)
	s := &g.State
	s.Cfg, s.Rows, s.Cols = &g.cfg, cfg.Rows, cfg.Cols
	n := cfg.Rows * cfg.Cols
	s.Virus = make([]uint8, n)
	s.UnitAt = make([]int32, n)
	s.MaskAt = make([]bool, n)
	for idx := range s.UnitAt {
		s.UnitAt[idx] = -1
	}
	if err := g.buildBoard(); err != nil {
		return nil, err
	}
	g.initStatic()
	if err := g.placeUnits(); err != nil {
		return nil, err
	}
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

// buildBoard makes the map: GENERATOR1 or FIXED (SPEC §4.8).
func (g *Game) buildBoard() error {
	s := &g.State
	n := s.Rows * s.Cols
	s.Types = make([]CellType, n)
	s.CityOf = make([]int32, n)
	s.PathOf = make([]int32, n)
	for idx := range s.CityOf {
		s.CityOf[idx], s.PathOf[idx] = -1, -1
	}
	if fm := g.cfg.Fixed; fm != nil {
		for i, row := range fm.Grid {
			for j := 0; j < s.Cols; j++ {
				t, v, _ := cellOfChar(row[j])
				s.Types[i*s.Cols+j] = t
				s.Virus[i*s.Cols+j] = uint8(v)
			}
		}
		s.Cities, s.Paths = fm.Cities, fm.Paths
		for _, p := range fm.Masks {
			s.MaskAt[s.Idx(p)] = true
			s.Masks = append(s.Masks, p)
		}
	} else {
		m, err := generateMap(&g.rng, s.Rows, s.Cols)
		if err != nil {
			return err
		}
		copy(s.Types, m.types)
		s.Cities, s.Paths = m.cities, m.paths
		g.MapAttempts = m.attempts
	}
	for id, city := range s.Cities {
		for _, p := range city {
			s.CityOf[s.Idx(p)] = int32(id)
		}
	}
	for id, path := range s.Paths {
		for _, p := range path.Cells {
			s.PathOf[s.Idx(p)] = int32(id)
		}
	}
	s.CityOwner = make([]int, len(s.Cities))
	s.PathOwner = make([]int, len(s.Paths))
	for k := range s.CityOwner {
		s.CityOwner[k] = -1
	}
	for k := range s.PathOwner {
		s.PathOwner[k] = -1
	}
	return nil
}

// diffusion neighbour order of SPEC §8.7: (i+1,j), (i-1,j), (i,j+1), (i,j-1).
var diffDI, diffDJ = [4]int{1, -1, 0, 0}, [4]int{0, 0, 1, -1}

// compatible reports whether the virus flows between cell types a and b
// (SPEC §8.7).
func compatible(a, b CellType) bool {
	return a != Wall && b != Wall && (a == Grass) == (b == Grass)
}

// initStatic computes the spawn ring and the diffusion neighbours.
func (g *Game) initStatic() {
	s := &g.State
	rows, cols := s.Rows, s.Cols
	for i := 1; i <= rows-2; i++ {
		for j := 1; j <= cols-2; j++ {
			if i == 1 || i == rows-2 || j == 1 || j == cols-2 {
				g.ring = append(g.ring, Pos{i, j})
			}
		}
	}
	g.compat = make([]uint8, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			t := s.Types[i*cols+j]
			var bits uint8
			for k := 0; k < 4; k++ {
				ii, jj := i+diffDI[k], j+diffDJ[k]
				if ii >= 0 && ii < rows && jj >= 0 && jj < cols && compatible(t, s.Types[ii*cols+jj]) {
					bits |= 1 << k
				}
			}
			g.compat[i*cols+j] = bits
		}
	}
	g.initVirus()
}

// placeUnits creates the units and spawns each player's (SPEC §5).
func (g *Game) placeUnits() error {
	cfg := &g.cfg
	s := &g.State
	s.Units = make([]Unit, cfg.NumUnits())
	for id := range s.Units {
		u := &s.Units[id]
		*u = Unit{ID: id, Player: id / cfg.NbUnits, Pos: NoPos, Health: cfg.InitialHealth}
		if k := id % cfg.NbUnits; k < 3 {
			u.Damage, u.Turns = k+1, 1
		}
	}
	s.rebuildUnitLists()
	g.killed = make([]bool, len(s.Units))
	for pl := 0; pl < NumPlayers; pl++ {
		if err := g.spawn(s.PlayerUnits[pl]); err != nil {
			return fmt.Errorf("place the units of player %d: %w", pl, err)
		}
	}
	return nil
}

// spawn is the spawn procedure of SPEC §5.3 for the given ids, in order.
func (g *Game) spawn(ids []int) error {
	if len(ids) == 0 {
		return nil
	}
	s := &g.State
	list := append(g.list[:0], g.ring...)
	for _, id := range ids {
		chosen := NoPos
		for chosen == NoPos && len(list) > 0 {
			k := g.rng.Int(0, len(list)-1)
			p := list[k]
			list = append(list[:k], list[k+1:]...)
			if s.spawnable(p) {
				chosen = p
			}
		}
		if chosen == NoPos {
			for idx := range s.Types {
				if p := s.PosOf(idx); s.spawnable(p) {
					chosen = p
					break
				}
			}
		}
		if chosen == NoPos {
			g.list = list
			return fmt.Errorf("unit %d: %w", id, ErrNoSpawnCell)
		}
		s.Units[id].Pos = chosen
		s.UnitAt[s.Idx(chosen)] = int32(id)
	}
	g.list = list
	return nil
}

// Clone returns an independent copy of g that can be stepped without
// touching g: same state and same board generator state.
func (g *Game) Clone() *Game {
	c := &Game{cfg: g.cfg, seed: g.seed, rng: g.rng, MapAttempts: g.MapAttempts, ring: g.ring, compat: g.compat}
	c.State.CopyFrom(&g.State)
	c.State.Cfg = &c.cfg
	c.killed = make([]bool, len(g.killed))
	c.active = append([]int32(nil), g.active...)
	c.mark = make([]uint32, len(g.mark))
	c.Moves = append([]Move(nil), g.Moves...)
	c.MovesDone = g.MovesDone
	return c
}
