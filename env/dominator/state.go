package dominator

// CellType is the kind of a cell (SPEC §11.1).
type CellType uint8

// Cell types, numbered as in the course kit.
const (
	Empty CellType = iota
	Wall
)

// UnitType is the kind of a unit (SPEC §11.1).
type UnitType uint8

// Unit types, numbered as in the course kit.
const (
	Farmer UnitType = iota
	Knight
	Witch
)

// Char returns the trace letter of the unit type: f, k or w.
func (t UnitType) Char() byte { return "fkw?"[t&3] }

func (t UnitType) String() string {
	return [...]string{"Farmer", "Knight", "Witch", "UnitType(3)"}[t&3]
}

// Cell is one cell of the board (SPEC §6).
type Cell struct {
	Type    CellType
	Owner   int8 // -1, or the player whose colour the cell has
	Haunted bool
	ID      int16 // the unit standing on the cell, or -1
}

// defaultCell is what the kit's cell() returns off the board.
var defaultCell = Cell{Type: Empty, Owner: -1, ID: -1}

// Unit is one unit record (SPEC §6). ID is its index in State.Units and
// never changes, nor does its type; Player is its current owner.
type Unit struct {
	Type   UnitType
	ID     int
	Player int
	Health int // -1 for witches
	Pos    Pos
	Active bool // meaningful for witches
}

// State is a game state as the players see it at the start of a round: the
// engine's real state, or one player's rotated view of it (View). Bots
// must treat it as read-only.
type State struct {
	Cfg   *Config
	Round int
	// Grid holds the Rows x Cols cells, row-major (index i*Cols+j).
	Grid  []Cell
	Units []Unit
	// Land is the number of cells of each player's colour; TotalScore
	// the running sum of Land over the states so far (SPEC §9).
	Land       [NumPlayers]int
	TotalScore [NumPlayers]int
	// Per-player id lists: farmers and knights in increasing id order,
	// rebuilt every round; witches in their fixed order (SPEC §6).
	Farmers [NumPlayers][]int
	Knights [NumPlayers][]int
	Witches [NumPlayers][]int
}

// Rows returns the number of rows of the board.
func (s *State) Rows() int { return s.Cfg.Rows }

// Cols returns the number of columns of the board.
func (s *State) Cols() int { return s.Cfg.Cols }

// OnBoard reports whether p is a position of the board (pos_ok).
func (s *State) OnBoard(p Pos) bool {
	return p.I >= 0 && p.I < s.Cfg.Rows && p.J >= 0 && p.J < s.Cfg.Cols
}

// Index returns the index in Grid of an on-board position.
func (s *State) Index(p Pos) int { return p.I*s.Cfg.Cols + p.J }

// Cell returns the cell at p, or the kit's default cell (empty, no owner,
// no unit) when p is off the board, as cell() does (SPEC §11.3).
func (s *State) Cell(p Pos) Cell {
	if !s.OnBoard(p) {
		return defaultCell
	}
	return s.Grid[p.I*s.Cfg.Cols+p.J]
}

// UnitAt returns the unit standing at p, or nil.
func (s *State) UnitAt(p Pos) *Unit {
	if !s.OnBoard(p) {
		return nil
	}
	if id := s.Grid[p.I*s.Cfg.Cols+p.J].ID; id >= 0 {
		return &s.Units[id]
	}
	return nil
}

// Score returns the total score of player p: the sum of its land over
// the states so far (SPEC §9).
func (s *State) Score(p int) int { return s.TotalScore[p] }

// Scores returns the four total scores: the score of the game (SPEC §9).
func (s *State) Scores() [NumPlayers]int { return s.TotalScore }

// Winners returns the players with the top total score, computed as the
// course program does (SPEC §9: the running maximum starts at 0).
func (s *State) Winners() []int {
	best := 0
	var top []int
	for p := 0; p < NumPlayers; p++ {
		sc := s.TotalScore[p]
		if sc > best {
			best, top = sc, []int{p}
		} else if sc == best {
			top = append(top, p)
		}
	}
	return top
}

// rebuildLists rebuilds the farmer and knight lists (SPEC §6).
func (s *State) rebuildLists() {
	for p := 0; p < NumPlayers; p++ {
		s.Farmers[p] = s.Farmers[p][:0]
		s.Knights[p] = s.Knights[p][:0]
	}
	for id := range s.Units {
		u := &s.Units[id]
		switch u.Type {
		case Farmer:
			s.Farmers[u.Player] = append(s.Farmers[u.Player], id)
		case Knight:
			s.Knights[u.Player] = append(s.Knights[u.Player], id)
		}
	}
}

// CopyFrom makes s a deep copy of o, reusing s's storage.
func (s *State) CopyFrom(o *State) {
	s.Cfg = o.Cfg
	s.Round = o.Round
	s.Grid = append(s.Grid[:0], o.Grid...)
	s.Units = append(s.Units[:0], o.Units...)
	s.Land, s.TotalScore = o.Land, o.TotalScore
	for p := 0; p < NumPlayers; p++ {
		s.Farmers[p] = append(s.Farmers[p][:0], o.Farmers[p]...)
		s.Knights[p] = append(s.Knights[p][:0], o.Knights[p]...)
		s.Witches[p] = append(s.Witches[p][:0], o.Witches[p]...)
	}
}

// View writes into dst player k's view of s (SPEC §3.4): the board turned
// so that k's box is the top-left one, owners and players renumbered so
// that k is player 0, per-player lists re-indexed. Player k's program sees
// this view and its direction d is executed as d.Rotate(k). dst must not be
// s; its storage is reused.
func (s *State) View(k int, dst *State) {
	if k == 0 {
		dst.CopyFrom(s)
		return
	}
	n := s.Cfg.Rows
	dst.Cfg = s.Cfg
	dst.Round = s.Round
	if cap(dst.Grid) < len(s.Grid) {
		dst.Grid = make([]Cell, len(s.Grid))
	}
	dst.Grid = dst.Grid[:len(s.Grid)]
	dst.Units = append(dst.Units[:0], s.Units...)
	// View cell (i, j) is real cell (n-1-j, i), (n-1-i, n-1-j) or
	// (j, n-1-i) for k = 1, 2, 3: along a view row the real index moves by
	// a fixed stride.
	var owner [NumPlayers + 2]int8 // by owner+1
	owner[0] = -1
	for o := 0; o <= NumPlayers; o++ {
		owner[o+1] = int8((o - k + 2*NumPlayers) % NumPlayers)
	}
	src := s.Grid
	for i := 0; i < n; i++ {
		var at, stride int
		switch k {
		case 1:
			at, stride = (n-1)*n+i, -n
		case 2:
			at, stride = (n-1-i)*n+n-1, -1
		default:
			at, stride = n-1-i, n
		}
		row := dst.Grid[i*n : (i+1)*n]
		for j := range row {
			c := src[at]
			at += stride
			c.Owner = owner[c.Owner+1]
			if c.ID >= 0 {
				u := &dst.Units[c.ID]
				u.Pos = Pos{i, j}
				u.Player = (u.Player - k + 2*NumPlayers) % NumPlayers
			}
			row[j] = c
		}
	}
	for p := 0; p < NumPlayers; p++ {
		q := (p + k) % NumPlayers
		dst.Land[p], dst.TotalScore[p] = s.Land[q], s.TotalScore[q]
		dst.Farmers[p] = append(dst.Farmers[p][:0], s.Farmers[q]...)
		dst.Knights[p] = append(dst.Knights[p][:0], s.Knights[q]...)
		dst.Witches[p] = append(dst.Witches[p][:0], s.Witches[q]...)
	}
}
