package crematoria

import "jgym/game"

// CellType is the kind of a cell (SPEC §11.1).
type CellType uint8

// Cell types, numbered as in the course kit.
const (
	Outside CellType = iota
	Cave
	Rock
	Elevator
)

// UnitType is the kind of a unit (SPEC §11.1).
type UnitType uint8

// Unit types, numbered as in the course kit.
const (
	Pioneer UnitType = iota
	Furyan
	Necromonger
	Hellhound
)

// Char returns the trace letter of the unit type: p, f, n or h.
func (t UnitType) Char() byte { return "pfnh"[t&3] }

func (t UnitType) String() string {
	return [...]string{"Pioneer", "Furyan", "Necromonger", "Hellhound"}[t&3]
}

// Fixed constants of the game (SPEC §2.2).
const (
	FuryanHealth      = 100
	PioneerHealth     = 50
	NecromongerHealth = 75
	MinDamageFuryan   = 25
	MaxDamageFuryan   = 50
	MinDamageNecro    = 20
	MaxDamageNecro    = 40
	InvProbGem        = 4
	InvProbNecro      = 2
	HealthRecovery    = 5
	NumPlayers        = 4
)

// MaxHealth returns the maximum health of a unit type (hellhounds are
// immortal and have none).
func (t UnitType) MaxHealth() int {
	switch t {
	case Pioneer:
		return PioneerHealth
	case Furyan:
		return FuryanHealth
	case Necromonger:
		return NecromongerHealth
	}
	return -1
}

// Cell is one cell of the board.
type Cell struct {
	Type  CellType
	Owner int8  // group owning a conquered cave, or -1
	Gem   bool  // an outside cell holding a gem
	ID    int16 // unit on the cell, or -1
}

// Unit is one unit record (SPEC §6). The ID is its index in State.Units and
// never changes; Player is its current group (-1 for the environment).
type Unit struct {
	Type   UnitType
	ID     int
	Player int
	Health int
	Turns  int
	Pos    Pos
}

// State is the whole game state at the start of a round: what every player
// sees. Bots must treat it as read-only.
type State struct {
	Cfg   *Config
	Round int
	// Cells holds both levels, indexed by Pos.Index.
	Cells [NumCells]Cell
	Units []Unit
	// Per-group id lists in increasing id order (SPEC §6).
	Furyans      [NumPlayers][]int
	Pioneers     [NumPlayers][]int
	Necromongers []int // landed and descending
	Hellhounds   []int
	NbCells      [NumPlayers]int
	NbGems       [NumPlayers]int

	// The cells the engine wrote, for the observers (game.CellLog).
	// Code that writes Cells of a state the engine steps must call
	// CellsChanged.
	log game.CellLogRef[State]
}

// noteCell records that cell idx of s was (or is about to be) written.
func (s *State) noteCell(idx int) { s.log.Note(s, idx) }

// cellLogOf returns s's log and its write count when it is valid for s
// (every write to s's cells since the log began is in it), else nil.
func (s *State) cellLogOf() (*game.CellLog[State], uint64) { return s.log.Log(s) }

// CellsChanged tells the observers that Cells was written outside the
// engine (a test or a tool editing a state the engine steps): they read
// every cell again at their next call.
func (s *State) CellsChanged() { s.log.Changed(s) }

// Cell returns the cell at p, which must be on the board.
func (s *State) Cell(p Pos) *Cell { return &s.Cells[p.Index()] }

// CellAt returns the cell at (i, j, k) and whether it is on the board. Off
// the board it returns the kit's default cell (Cave, no owner, no unit).
func (s *State) CellAt(i, j, k int) Cell {
	p := Pos{i, j, k}
	if !p.OnBoard() {
		return Cell{Type: Cave, Owner: -1, ID: -1}
	}
	return s.Cells[p.Index()]
}

// ValidID reports whether id is a unit the API and the engine accept: in
// range, and a hellhound or alive (SPEC §6).
func (s *State) ValidID(id int) bool {
	if id < 0 || id >= len(s.Units) {
		return false
	}
	u := &s.Units[id]
	return u.Type == Hellhound || u.Health > 0
}

// Score returns the score of group g: cells owned plus gem value times gems.
func (s *State) Score(g int) int { return s.NbCells[g] + s.Cfg.GemValue*s.NbGems[g] }

// Scores returns the four scores.
func (s *State) Scores() [NumPlayers]int {
	var sc [NumPlayers]int
	for g := range sc {
		sc[g] = s.Score(g)
	}
	return sc
}

// Daylight reports whether p is under the sun in the current round.
func (s *State) Daylight(p Pos) bool { return Daylight(p, s.Round) }

// Winners returns the groups with the top score, computed as the course
// engine does (SPEC §9: the running maximum starts at 0).
func (s *State) Winners() []int {
	best := 0
	var top []int
	for g := 0; g < NumPlayers; g++ {
		sc := s.Score(g)
		if sc > best {
			best, top = sc, []int{g}
		} else if sc == best {
			top = append(top, g)
		}
	}
	return top
}

// rebuildLists rebuilds the per-group lists and cell counts (SPEC §8.15).
func (s *State) rebuildLists() {
	s.rebuildUnitLists()
	s.countCells()
}

// rebuildUnitLists rebuilds the per-group unit lists. (A Game keeps its
// cell counts up to date as cells change owner, see Game.setOwner.)
func (s *State) rebuildUnitLists() {
	for g := 0; g < NumPlayers; g++ {
		s.Furyans[g] = s.Furyans[g][:0]
		s.Pioneers[g] = s.Pioneers[g][:0]
	}
	s.Necromongers = s.Necromongers[:0]
	s.Hellhounds = s.Hellhounds[:0]
	for id := range s.Units {
		u := &s.Units[id]
		switch u.Type {
		case Furyan:
			s.Furyans[u.Player] = append(s.Furyans[u.Player], id)
		case Pioneer:
			s.Pioneers[u.Player] = append(s.Pioneers[u.Player], id)
		case Necromonger:
			if u.Health > 0 {
				s.Necromongers = append(s.Necromongers, id)
			}
		case Hellhound:
			s.Hellhounds = append(s.Hellhounds, id)
		}
	}
}

// countCells recounts the cells owned by each group.
func (s *State) countCells() {
	// Branch-free count: owners are -1..3, so owner+1 indexes n; four
	// interleaved tallies keep the increments independent.
	var n [4][8]int
	cells := s.Cells[:LevelCells]
	for idx := 0; idx+3 < len(cells); idx += 4 {
		n[0][(cells[idx].Owner+1)&7]++
		n[1][(cells[idx+1].Owner+1)&7]++
		n[2][(cells[idx+2].Owner+1)&7]++
		n[3][(cells[idx+3].Owner+1)&7]++
	}
	for g := 0; g < NumPlayers; g++ {
		s.NbCells[g] = n[0][g+1] + n[1][g+1] + n[2][g+1] + n[3][g+1]
	}
}

// CopyFrom makes s a deep copy of o, reusing s's storage.
func (s *State) CopyFrom(o *State) {
	s.Cfg = o.Cfg
	s.Round = o.Round
	s.Cells = o.Cells
	s.CellsChanged()
	s.Units = append(s.Units[:0], o.Units...)
	for g := 0; g < NumPlayers; g++ {
		s.Furyans[g] = append(s.Furyans[g][:0], o.Furyans[g]...)
		s.Pioneers[g] = append(s.Pioneers[g][:0], o.Pioneers[g]...)
	}
	s.Necromongers = append(s.Necromongers[:0], o.Necromongers...)
	s.Hellhounds = append(s.Hellhounds[:0], o.Hellhounds...)
	s.NbCells = o.NbCells
	s.NbGems = o.NbGems
}
