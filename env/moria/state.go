package moria

import "jgym/game"

// CellType is the kind of a cell (SPEC §0).
type CellType uint8

// Cell types, numbered as in the course kit.
const (
	Outside CellType = iota
	Cave
	Abyss
	Granite
	Rock
)

func (t CellType) String() string {
	if t > Rock {
		return "CellType(?)"
	}
	return [...]string{"Outside", "Cave", "Abyss", "Granite", "Rock"}[t]
}

// UnitType is the kind of a unit (SPEC §0).
type UnitType uint8

// Unit types, numbered as in the course kit.
const (
	Dwarf UnitType = iota
	Wizard
	Orc
	Troll
	Balrog
)

// Char returns the trace letter of the unit type: d, w, o, t or b.
func (t UnitType) Char() byte { return "dwotb???"[t&7] }

func (t UnitType) String() string {
	if t > Balrog {
		return "UnitType(?)"
	}
	return [...]string{"Dwarf", "Wizard", "Orc", "Troll", "Balrog"}[t]
}

// Fixed constants of the game (SPEC §2).
const (
	DwarfHealth     = 100
	WizardHealth    = 50
	OrcHealth       = 75
	TrollHealth     = 500
	MinDamageDwarf  = 20
	MaxDamageDwarf  = 40
	MinDamageOrc    = 15
	MaxDamageOrc    = 30
	MinDamageTroll  = 50
	MaxDamageTroll  = 150
	IniTreasures    = 80
	InvProbAbyss    = 25
	InvProbOrc      = 50
	NumPlayers      = 4
	balrogSafeManh  = 4 // orcs and trolls keep a Manhattan distance > 4 from the Balrog
	birthSafeManh   = 2 // no orc is born within Manhattan 2 of the Balrog
	balrogBanRadius = 3
)

// MaxHealth returns the maximum health of a unit type (the Balrog is
// immortal and has none: 0).
func (t UnitType) MaxHealth() int {
	switch t {
	case Dwarf:
		return DwarfHealth
	case Wizard:
		return WizardHealth
	case Orc:
		return OrcHealth
	case Troll:
		return TrollHealth
	}
	return 0
}

// Cell is one cell of the board (the kit's Cell).
type Cell struct {
	Type     CellType
	Owner    int8 // clan owning a conquered cave, or -1
	Turns    int8 // Rock: hits left before it breaks (rock_resistance when intact)
	Treasure bool
	ID       int16 // unit on the cell, or -1
}

// Unit is one unit record (SPEC §6). The ID is its index in State.Units and
// never changes; Player is its current clan (-1 for Sauron's units).
type Unit struct {
	Type   UnitType
	ID     int
	Player int
	Health int
	Pos    Pos
}

// State is the whole game state at the start of a round: what every player
// sees. Bots must treat it as read-only.
type State struct {
	Cfg   *Config
	Round int
	// Cells is the board, indexed by Pos.Index.
	Cells [NumCells]Cell
	Units []Unit
	// Per-clan and Sauron id lists in increasing id order (SPEC §6).
	Dwarves     [NumPlayers][]int
	Wizards     [NumPlayers][]int
	Orcs        []int // living orcs
	Trolls      []int
	BalrogID    int
	NbCells     [NumPlayers]int
	NbTreasures [NumPlayers]int

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

// CellAt returns the cell at (i, j). Off the board it returns the kit's
// default cell (Cave, no owner, no unit, no treasure).
func (s *State) CellAt(i, j int) Cell {
	p := Pos{i, j}
	if !p.OnBoard() {
		return Cell{Type: Cave, Owner: -1, ID: -1}
	}
	return s.Cells[p.Index()]
}

// ValidID reports whether id is a unit the API and the engine accept: in
// range, and alive or the Balrog (SPEC §6).
func (s *State) ValidID(id int) bool {
	if id < 0 || id >= len(s.Units) {
		return false
	}
	u := &s.Units[id]
	return u.Health > 0 || u.Type == Balrog
}

// Inside reports whether p is inside Moria: on the board and not Outside.
func (s *State) Inside(p Pos) bool { return p.OnBoard() && s.Cells[p.Index()].Type != Outside }

// Balrog returns the Balrog.
func (s *State) Balrog() *Unit { return &s.Units[s.BalrogID] }

// Score returns the score of clan p: cells owned plus treasure_value times
// treasures (SPEC §9).
func (s *State) Score(p int) int { return s.NbCells[p] + s.Cfg.TreasureValue*s.NbTreasures[p] }

// Scores returns the four scores.
func (s *State) Scores() [NumPlayers]int {
	var sc [NumPlayers]int
	for p := range sc {
		sc[p] = s.Score(p)
	}
	return sc
}

// Winners returns the clans with the top score, computed as the course
// engine does (SPEC §9: the running maximum starts at 0).
func (s *State) Winners() []int {
	best := 0
	var top []int
	for p := 0; p < NumPlayers; p++ {
		sc := s.Score(p)
		if sc > best {
			best, top = sc, []int{p}
		} else if sc == best {
			top = append(top, p)
		}
	}
	return top
}

// rebuildLists rebuilds the per-clan and Sauron lists (SPEC §6).
func (s *State) rebuildLists() {
	for p := 0; p < NumPlayers; p++ {
		s.Dwarves[p] = s.Dwarves[p][:0]
		s.Wizards[p] = s.Wizards[p][:0]
	}
	s.Orcs = s.Orcs[:0]
	s.Trolls = s.Trolls[:0]
	for id := range s.Units {
		u := &s.Units[id]
		switch u.Type {
		case Dwarf:
			s.Dwarves[u.Player] = append(s.Dwarves[u.Player], id)
		case Wizard:
			s.Wizards[u.Player] = append(s.Wizards[u.Player], id)
		case Orc:
			if u.Health > 0 {
				s.Orcs = append(s.Orcs, id)
			}
		case Troll:
			s.Trolls = append(s.Trolls, id)
		case Balrog:
			s.BalrogID = id
		}
	}
}

// countCells recounts the caves owned by each clan.
func (s *State) countCells() {
	var n [8]int
	for idx := range s.Cells {
		n[(s.Cells[idx].Owner+1)&7]++
	}
	for p := 0; p < NumPlayers; p++ {
		s.NbCells[p] = n[p+1]
	}
}

// CopyFrom makes s a deep copy of o, reusing s's storage.
func (s *State) CopyFrom(o *State) {
	s.Cfg = o.Cfg
	s.Round = o.Round
	s.Cells = o.Cells
	s.CellsChanged()
	s.Units = append(s.Units[:0], o.Units...)
	for p := 0; p < NumPlayers; p++ {
		s.Dwarves[p] = append(s.Dwarves[p][:0], o.Dwarves[p]...)
		s.Wizards[p] = append(s.Wizards[p][:0], o.Wizards[p]...)
	}
	s.Orcs = append(s.Orcs[:0], o.Orcs...)
	s.Trolls = append(s.Trolls[:0], o.Trolls...)
	s.BalrogID = o.BalrogID
	s.NbCells = o.NbCells
	s.NbTreasures = o.NbTreasures
}
