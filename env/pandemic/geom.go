package pandemic

import "fmt"

// NumPlayers is the number of players of every game (SPEC §2.1).
const NumPlayers = 4

// Dir is a direction of movement (SPEC §3.1).
type Dir int8

// The directions, in the course's numbering.
const (
	Bottom Dir = iota
	Right
	Top
	Left
	None
	// DirSize is the number of directions; it is not a direction.
	DirSize
)

var (
	dirChars = [DirSize]byte{'b', 'r', 't', 'l', 'n'}
	dirNames = [DirSize]string{"Bottom", "Right", "Top", "Left", "None"}
	dirDI    = [DirSize]int{1, 0, -1, 0, 0}
	dirDJ    = [DirSize]int{0, 1, 0, -1, 0}
)

// Valid reports whether d is one of the five directions (the kit's dir_ok).
func (d Dir) Valid() bool { return d >= 0 && d < DirSize }

// Char returns the one-letter code of d used in traces.
func (d Dir) Char() byte {
	if !d.Valid() {
		return '?'
	}
	return dirChars[d]
}

func (d Dir) String() string {
	if !d.Valid() {
		return fmt.Sprintf("Dir(%d)", int(d))
	}
	return dirNames[d]
}

// DirFromChar returns the direction whose trace letter is c.
func DirFromChar(c byte) (Dir, bool) {
	for d, x := range dirChars {
		if x == c {
			return Dir(d), true
		}
	}
	return 0, false
}

// Pos is a position: row I (top to bottom) and column J (left to right).
type Pos struct {
	I, J int
}

// NoPos is the position of a unit killed during the current round
// (SPEC §8.8); between rounds every unit is on the board.
var NoPos = Pos{-1, -1}

func (p Pos) String() string { return fmt.Sprintf("(%d, %d)", p.I, p.J) }

// Add returns p moved one step in direction d; None and invalid
// directions leave it unchanged, as the kit's Pos + Dir.
func (p Pos) Add(d Dir) Pos {
	if !d.Valid() {
		return p
	}
	return Pos{p.I + dirDI[d], p.J + dirDJ[d]}
}

// Less orders positions row-major (SPEC conventions).
func (p Pos) Less(q Pos) bool { return p.I < q.I || (p.I == q.I && p.J < q.J) }

// Manhattan is the number of 4-neighbour steps between p and q on an
// empty board.
func Manhattan(p, q Pos) int { return abs(p.I-q.I) + abs(p.J-q.J) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Dist2 is the squared Euclidean distance between p and q (SPEC §3.3).
func Dist2(p, q Pos) int {
	a, b := p.I-q.I, p.J-q.J
	return a*a + b*b
}

// CellType is the kind of a cell (SPEC §3.2).
type CellType uint8

// Cell types, numbered as in the course kit.
const (
	Wall CellType = iota
	Grass
	City
	Path
)

func (t CellType) String() string {
	if t > Path {
		return fmt.Sprintf("CellType(%d)", int(t))
	}
	return [...]string{"Wall", "Grass", "City", "Path"}[t]
}

// Virus caps and emission (SPEC §2.2).
const (
	MaxVirusGrass = 4
	MaxVirusCity  = 10
	VirusEmission = 3
)

// MaxVirus returns the cap of the virus on a cell of type t.
func MaxVirus(t CellType) int {
	switch t {
	case Grass:
		return MaxVirusGrass
	case City, Path:
		return MaxVirusCity
	}
	return 0
}
