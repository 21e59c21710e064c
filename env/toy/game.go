package toy

import (
	"fmt"

	"jgym/env"
	"jgym/game"
)

// NumPlayers is the number of players of every game.
const NumPlayers = game.NumSeats

// Dir is a direction of a command: the action of one unit.
type Dir int8

// The directions; None is the action of a unit slot that gets no
// command.
const (
	Up Dir = iota
	Right
	Down
	Left
	None
	NumDirs = int(None) + 1
)

// dirChars are the directions as the trace's movements write them.
const dirChars = "urdl"

var dRow, dCol = [4]int{-1, 0, 1, 0}, [4]int{0, 1, 0, -1}

// Valid reports whether d is one of the four moves.
func (d Dir) Valid() bool { return d >= Up && d <= Left }

// The cells of the grid.
const (
	Blank byte = '.' // free and unpainted
	Wall  byte = '#'
	Paint byte = 'a' // Paint+p: free and painted by player p
)

// The core's types for the toy.
type (
	// Command is one order: move unit ID one cell in direction Dir.
	Command = game.Command[Dir]
	// Orders collects one player's commands of a round.
	Orders = game.Orders[Dir]
	// Bot plays one seat, reading the state at the start of each round.
	Bot = game.Bot[State, Dir]
)

// ErrBadUnit is the abort of a game where a player commands a unit id
// that does not exist.
var ErrBadUnit = fmt.Errorf("%w: no such unit", game.ErrAbort)

// Unit is one unit: its owner (fixed: unit id / Config.Units) and cell.
type Unit struct {
	Player   int
	Row, Col int
}

// State is everything bots and the encoder read of a game.
type State struct {
	Cfg      *Config
	Round    int             // rounds played
	Grid     []byte          // Rows*Cols cells, row by row
	Units    []Unit          // by id
	Captures [NumPlayers]int // captures made by each player
	at       []int16         // per cell: the unit there, or -1
}

// Cell is the index of (r, c) in Grid.
func (s *State) Cell(r, c int) int { return r*s.Cfg.Cols + c }

// At is the id of the unit at cell i, or -1.
func (s *State) At(i int) int { return int(s.at[i]) }

// Target is the cell a move of unit id in direction d leads to, or -1
// when it leaves the board or hits a wall.
func (s *State) Target(id int, d Dir) int {
	u := s.Units[id]
	r, c := u.Row+dRow[d], u.Col+dCol[d]
	if r < 0 || r >= s.Cfg.Rows || c < 0 || c >= s.Cfg.Cols || s.Grid[s.Cell(r, c)] == Wall {
		return -1
	}
	return s.Cell(r, c)
}

// Scores are the players' scores: each painted cell 1 point, each capture
// Config.Capture.
func (s *State) Scores() [NumPlayers]int {
	var sc [NumPlayers]int
	for _, v := range s.Grid {
		if v >= Paint && v < Paint+NumPlayers {
			sc[v-Paint]++
		}
	}
	for p := range sc {
		sc[p] += s.Cfg.Capture * s.Captures[p]
	}
	return sc
}

// CopyFrom makes s a copy of src, reusing s's memory.
func (s *State) CopyFrom(src *State) {
	s.Cfg, s.Round, s.Captures = src.Cfg, src.Round, src.Captures
	s.Grid = append(s.Grid[:0], src.Grid...)
	s.Units = append(s.Units[:0], src.Units...)
	s.at = append(s.at[:0], src.at...)
}

// place rebuilds the cell index from the units; false when two share a
// cell or one stands off the board or on a wall.
func (s *State) place() bool {
	s.at = s.at[:0]
	for range s.Grid {
		s.at = append(s.at, -1)
	}
	for id, u := range s.Units {
		if u.Row < 0 || u.Row >= s.Cfg.Rows || u.Col < 0 || u.Col >= s.Cfg.Cols {
			return false
		}
		i := s.Cell(u.Row, u.Col)
		if s.at[i] >= 0 || s.Grid[i] == Wall {
			return false
		}
		s.at[i] = int16(id)
	}
	return true
}

// Game is the engine: a state and the generator of its draws (the map,
// then the cell of every captured unit).
type Game struct {
	State
	rng   Rand
	moved []bool    // units that moved this round
	Moves []Command // the movements of the last round, in order
}

// New generates the game of cfg and the seed: Walls walls, then each
// unit on a free cell, drawn in id order.
func New(cfg Config, seed int) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{rng: NewRand(seed)}
	s := &g.State
	s.Cfg = &cfg
	s.Grid = make([]byte, cfg.Rows*cfg.Cols)
	for i := range s.Grid {
		s.Grid[i] = Blank
	}
	for w := 0; w < cfg.Walls; {
		if i := g.rng.Intn(len(s.Grid)); s.Grid[i] == Blank {
			s.Grid[i] = Wall
			w++
		}
	}
	s.Units = make([]Unit, cfg.NumUnits())
	s.at = make([]int16, len(s.Grid))
	for i := range s.at {
		s.at[i] = -1
	}
	for id := range s.Units {
		s.Units[id].Player = id / cfg.Units
		g.drop(id)
	}
	g.moved = make([]bool, len(s.Units))
	return g, nil
}

// drop puts unit id on a free cell drawn at random (no wall, no unit).
func (g *Game) drop(id int) {
	s := &g.State
	for {
		i := g.rng.Intn(len(s.Grid))
		if s.Grid[i] != Wall && s.at[i] < 0 {
			s.Units[id].Row, s.Units[id].Col = i/s.Cfg.Cols, i%s.Cfg.Cols
			s.at[i] = int16(id)
			return
		}
	}
}

// Step plays one round with the players' command lists:
//
//  1. Moves. The commands are taken in turns: the first command of each
//     player, then the second of each, and so on, the players in the
//     order p, p+1, ... from p = round mod 4. A command moves its unit
//     one cell if the unit is the player's, has not moved this round and
//     the cell is on the board, not a wall and not held by the player's
//     own unit; otherwise it is ignored. A move onto an opponent's unit
//     captures it: the mover's player scores a capture and the captured
//     unit is put on a free cell drawn at random (it moves no more this
//     round).
//  2. Paint. Every unit paints its cell with its player's colour.
//
// A command naming a unit id outside the game aborts it (ErrBadUnit),
// before anything moves.
func (g *Game) Step(cmds *[NumPlayers][]Command) error {
	if g.Round >= g.Cfg.NbRounds {
		return game.ErrGameOver
	}
	for p := range cmds {
		for _, c := range cmds[p] {
			if c.ID < 0 || c.ID >= len(g.Units) {
				return fmt.Errorf("%w: player %d commands unit %d (the game has %d)", ErrBadUnit, p, c.ID, len(g.Units))
			}
		}
	}
	g.startRound()
	g.moveUnits(cmds)
	g.paint()
	g.Round++
	return nil
}

// startRound forgets the last round's moves.
func (g *Game) startRound() {
	g.Moves = g.Moves[:0]
	clear(g.moved)
}

// moveUnits is phase 1: the commands in turns from player round mod 4.
func (g *Game) moveUnits(cmds *[NumPlayers][]Command) {
	first := g.Round % NumPlayers
	for k, more := 0, true; more; k++ {
		more = false
		for i := range NumPlayers {
			p := (first + i) % NumPlayers
			if k < len(cmds[p]) {
				more = true
				g.move(p, cmds[p][k])
			}
		}
	}
}

// move plays player p's command c; it reports whether the unit moved.
func (g *Game) move(p int, c Command) bool {
	s := &g.State
	if !c.Dir.Valid() || s.Units[c.ID].Player != p || g.moved[c.ID] {
		return false
	}
	to := s.Target(c.ID, c.Dir)
	if to < 0 {
		return false
	}
	victim := int(s.at[to])
	if victim >= 0 && s.Units[victim].Player == p {
		return false
	}
	u := &s.Units[c.ID]
	s.at[s.Cell(u.Row, u.Col)] = -1
	u.Row, u.Col = to/s.Cfg.Cols, to%s.Cfg.Cols
	s.at[to] = int16(c.ID)
	g.moved[c.ID] = true
	if victim >= 0 {
		s.Captures[p]++
		g.moved[victim] = true
		g.drop(victim)
	}
	g.Moves = append(g.Moves, c)
	return true
}

// paint is phase 2: every unit paints its cell.
func (g *Game) paint() {
	s := &g.State
	for _, u := range s.Units {
		s.Grid[s.Cell(u.Row, u.Col)] = Paint + byte(u.Player)
	}
}

// Rand is the toy's random generator (SplitMix64): it draws the map and
// the cells of captured units, and the Demo bot's moves.
type Rand struct{ g env.SplitMix64 }

// NewRand returns the generator of a seed.
func NewRand(seed int) Rand {
	return Rand{env.SplitMix64{State: uint64(seed)*0x9e3779b97f4a7c15 ^ 0x746f79}}
}

// Uint64 draws 64 random bits.
func (r *Rand) Uint64() uint64 { return r.g.Uint64() }

// Intn draws an integer in 0..n-1 (n > 0).
func (r *Rand) Intn(n int) int { return int(r.Uint64() % uint64(n)) }

// Reseed puts the engine's generator at the start of another seed (the
// search bot reseeds its rollouts' copies: game.Reseed).
func (g *Game) Reseed(seed int) { g.rng = NewRand(seed) }
