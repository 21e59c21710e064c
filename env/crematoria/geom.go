package crematoria

import "fmt"

// Board size. The course engine only accepts 40 x 80 (SPEC §2.1).
const (
	Rows   = 40
	Cols   = 80
	Levels = 2
	// NumCells is the number of cells of the board, both levels.
	NumCells = Levels * Rows * Cols
	// LevelCells is the number of cells of one level.
	LevelCells = Rows * Cols
)

// Dir is a direction of movement (SPEC §3.1).
type Dir int8

// The directions, in the course's numbering.
const (
	Bottom Dir = iota
	BR
	Right
	RT
	Top
	TL
	Left
	LB
	Up
	Down
	None
	// DirSize is the number of directions; it is not a direction.
	DirSize
)

var (
	dirChars = [DirSize]byte{'b', 'w', 'r', 'x', 't', 'y', 'l', 'z', 'u', 'd', 'n'}
	dirNames = [DirSize]string{"Bottom", "BR", "Right", "RT", "Top", "TL", "Left", "LB", "Up", "Down", "None"}
	dirDI    = [DirSize]int{1, 1, 0, -1, -1, -1, 0, 1, 0, 0, 0}
	dirDJ    = [DirSize]int{0, 1, 1, 1, 0, -1, -1, -1, 0, 0, 0}
	dirDK    = [DirSize]int{0, 0, 0, 0, 0, 0, 0, 0, 1, -1, 0}
)

// Valid reports whether d is one of the 11 directions.
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

// Pos is a position: row I, column J, level K (0 underground, 1 outside).
type Pos struct {
	I, J, K int
}

// NoPos is the position of units that are not on the board.
var NoPos = Pos{-1, -1, -1}

func (p Pos) String() string { return fmt.Sprintf("(%d, %d, %d)", p.I, p.J, p.K) }

// Add moves p one step in direction d (SPEC §3.1): the column wraps, the row
// and level do not, so the result may be off the board.
func (p Pos) Add(d Dir) Pos {
	if !d.Valid() {
		return p
	}
	q := Pos{p.I + dirDI[d], p.J + dirDJ[d], p.K + dirDK[d]}
	if q.J >= Cols {
		q.J -= Cols
	} else if q.J < 0 {
		q.J += Cols
	}
	return q
}

// OnBoard reports whether p is a position of the board.
func (p Pos) OnBoard() bool {
	return p.I >= 0 && p.I < Rows && p.J >= 0 && p.J < Cols && (p.K == 0 || p.K == 1)
}

// Index returns the index of an on-board position in State.Cells.
func (p Pos) Index() int { return p.K*LevelCells + p.I*Cols + p.J }

// PosOf is the inverse of Pos.Index.
func PosOf(idx int) Pos {
	return Pos{I: (idx % LevelCells) / Cols, J: idx % Cols, K: idx / LevelCells}
}

func colDist(j1, j2 int) int {
	h := j1 - j2
	if h < 0 {
		h = -h
	}
	if Cols-h < h {
		h = Cols - h
	}
	return h
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Cheb is the Chebyshev distance with horizontal wrap-around; the level is
// ignored (SPEC §3.2).
func Cheb(p, q Pos) int {
	v := absInt(p.I - q.I)
	h := colDist(p.J, q.J)
	if v > h {
		return v
	}
	return h
}

// Manh is the Manhattan distance with horizontal wrap-around (SPEC §3.2).
func Manh(p, q Pos) int { return absInt(p.I-q.I) + colDist(p.J, q.J) }

// Daylight reports whether position p is under the sun at round r (SPEC §3.3).
func Daylight(p Pos, r int) bool {
	if p.K != 1 {
		return false
	}
	t1 := (2 * r) % Cols
	if t1+39 < Cols {
		return p.J < t1 || p.J > t1+39
	}
	return t1+39-Cols < p.J && p.J < t1
}

// NightStart returns the first column of the night band at round r; the
// band holds the 40 columns from it (mod 80).
func NightStart(r int) int { return (2 * r) % Cols }
