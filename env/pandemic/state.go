package pandemic

// Cell is the kit's view of one cell (SPEC §11.1): what State.Cell
// returns.
type Cell struct {
	Type   CellType
	UnitID int // unit on the cell, or -1
	CityID int // city of a CITY cell, or -1
	PathID int // path of a PATH cell, or -1
	Virus  int
	Mask   bool // a mask lies on the cell
}

// NoCell is the kit's default cell, returned for positions off the board:
// type CELL_TYPE_SIZE, no unit, city or path, no virus, no mask.
var NoCell = Cell{Type: CellType(4), UnitID: -1, CityID: -1, PathID: -1}

// Unit is one unit record (SPEC §6). The ID is its index in State.Units and
// never changes; Player is its current owner.
type Unit struct {
	ID     int
	Player int
	Pos    Pos
	Health int
	Damage int // virus damage per round; 0 when not infected
	Turns  int // rounds infected
	Immune bool
	Mask   bool // wears a mask
}

// State is the whole game state at the start of a round: what every player
// sees. Bots must treat it as read-only.
//
// The board is stored as one slice per field, indexed by Idx(p) =
// p.I*Cols + p.J; Cell assembles the kit's view of one cell.
type State struct {
	Cfg        *Config
	Rows, Cols int
	Round      int

	// Static: the map never changes during a game (shared between copies).
	Types  []CellType
	CityOf []int32 // city id of each cell, or -1
	PathOf []int32 // path id of each cell, or -1
	Cities [][]Pos
	Paths  []PathInfo

	// Dynamic.
	Virus     []uint8
	UnitAt    []int32 // unit id on each cell, or -1
	MaskAt    []bool  // a mask lies on the cell
	CityOwner []int   // -1 for no owner
	PathOwner []int
	Units     []Unit
	// PlayerUnits holds each player's unit ids, sorted increasingly.
	PlayerUnits [NumPlayers][]int
	// Masks lists the masks on the ground in the kit's order (SPEC §6).
	Masks  []Pos
	Scores [NumPlayers]int
}

// Idx returns the index of p in the board slices.
func (s *State) Idx(p Pos) int { return p.I*s.Cols + p.J }

// PosOf returns the position of board index idx.
func (s *State) PosOf(idx int) Pos { return Pos{idx / s.Cols, idx % s.Cols} }

// OnBoard reports whether p is inside the board (the kit's pos_ok).
func (s *State) OnBoard(p Pos) bool { return p.I >= 0 && p.I < s.Rows && p.J >= 0 && p.J < s.Cols }

// Cell returns the kit's view of the cell at p; NoCell off the board.
func (s *State) Cell(p Pos) Cell {
	if !s.OnBoard(p) {
		return NoCell
	}
	idx := s.Idx(p)
	return Cell{Type: s.Types[idx], UnitID: int(s.UnitAt[idx]), CityID: int(s.CityOf[idx]),
		PathID: int(s.PathOf[idx]), Virus: int(s.Virus[idx]), Mask: s.MaskAt[idx]}
}

// TotalUnits returns the number of units (4 nb_units).
func (s *State) TotalUnits() int { return len(s.Units) }

// Score returns the score of player pl.
func (s *State) Score(pl int) int { return s.Scores[pl] }

// Winners returns the players with the top score, computed as the course
// engine does (SPEC §9: the running maximum starts at 0).
func (s *State) Winners() []int {
	best := 0
	var top []int
	for pl := 0; pl < NumPlayers; pl++ {
		sc := s.Scores[pl]
		if sc > best {
			best, top = sc, []int{pl}
		} else if sc == best {
			top = append(top, pl)
		}
	}
	return top
}

// CopyFrom makes s a deep copy of o, reusing s's storage; the static map
// is shared.
func (s *State) CopyFrom(o *State) {
	s.Cfg, s.Rows, s.Cols, s.Round = o.Cfg, o.Rows, o.Cols, o.Round
	s.Types, s.CityOf, s.PathOf, s.Cities, s.Paths = o.Types, o.CityOf, o.PathOf, o.Cities, o.Paths
	s.Virus = append(s.Virus[:0], o.Virus...)
	s.UnitAt = append(s.UnitAt[:0], o.UnitAt...)
	s.MaskAt = append(s.MaskAt[:0], o.MaskAt...)
	s.CityOwner = append(s.CityOwner[:0], o.CityOwner...)
	s.PathOwner = append(s.PathOwner[:0], o.PathOwner...)
	s.Units = append(s.Units[:0], o.Units...)
	for pl := range s.PlayerUnits {
		s.PlayerUnits[pl] = append(s.PlayerUnits[pl][:0], o.PlayerUnits[pl]...)
	}
	s.Masks = append(s.Masks[:0], o.Masks...)
	s.Scores = o.Scores
}

// rebuildUnitLists rebuilds the per-player unit lists in increasing order
// (SPEC §8.9).
func (s *State) rebuildUnitLists() {
	for pl := range s.PlayerUnits {
		s.PlayerUnits[pl] = s.PlayerUnits[pl][:0]
	}
	for id := range s.Units {
		pl := s.Units[id].Player
		s.PlayerUnits[pl] = append(s.PlayerUnits[pl], id)
	}
}

// spawnable reports whether a unit may be placed at p (SPEC §5.3): GRASS
// with no unit on it or on its four neighbours.
func (s *State) spawnable(p Pos) bool {
	idx := s.Idx(p)
	if s.Types[idx] != Grass || s.UnitAt[idx] >= 0 {
		return false
	}
	if p.I > 0 && s.UnitAt[idx-s.Cols] >= 0 {
		return false
	}
	if p.I < s.Rows-1 && s.UnitAt[idx+s.Cols] >= 0 {
		return false
	}
	if p.J > 0 && s.UnitAt[idx-1] >= 0 {
		return false
	}
	if p.J < s.Cols-1 && s.UnitAt[idx+1] >= 0 {
		return false
	}
	return true
}
