package moria

import "fmt"

// Board size. The course engine only accepts 60 x 60 (SPEC §2).
const (
	Rows = 60
	Cols = 60
	// NumCells is the number of cells of the board.
	NumCells = Rows * Cols
)

// Dir is a direction of movement (SPEC §3).
type Dir int8

// The directions, in the course's numbering. The orthogonal ones are even.
const (
	Bottom Dir = iota
	BR
	Right
	RT
	Top
	TL
	Left
	LB
	None
	// DirSize is the number of directions; it is not a direction.
	DirSize
)

var (
	dirChars = [DirSize]byte{'b', 'w', 'r', 'x', 't', 'y', 'l', 'z', 'n'}
	dirNames = [DirSize]string{"Bottom", "BR", "Right", "RT", "Top", "TL", "Left", "LB", "None"}
	dirDI    = [DirSize]int{1, 1, 0, -1, -1, -1, 0, 1, 0}
	dirDJ    = [DirSize]int{0, 1, 1, 1, 0, -1, -1, -1, 0}
	// dirDelta is the change of a cell index (i*Cols+j) for each direction.
	dirDelta = [DirSize]int{Cols, Cols + 1, 1, 1 - Cols, -Cols, -Cols - 1, -1, Cols - 1, 0}
	// dirFromChar maps a trace letter to its direction + 1 (0: none).
	dirFromChar = func() (t [256]int8) {
		for d, c := range dirChars {
			t[c] = int8(d) + 1
		}
		return t
	}()
)

// Valid reports whether d is one of the 9 directions.
func (d Dir) Valid() bool { return d >= 0 && d < DirSize }

// Diagonal reports whether d is one of the four diagonal directions.
func (d Dir) Diagonal() bool { return d.Valid() && d != None && d&1 == 1 }

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
	d := dirFromChar[c]
	return Dir(d - 1), d != 0
}

// Pos is a position: row I (top to bottom), column J.
type Pos struct {
	I, J int
}

// NoPos is the position of dead orcs.
var NoPos = Pos{-1, -1}

func (p Pos) String() string { return fmt.Sprintf("(%d, %d)", p.I, p.J) }

// Add moves p one step in direction d (SPEC §3). There is no wrap-around,
// so the result may be off the board.
func (p Pos) Add(d Dir) Pos {
	if !d.Valid() {
		return p
	}
	return Pos{p.I + dirDI[d], p.J + dirDJ[d]}
}

// OnBoard reports whether p is a position of the board.
func (p Pos) OnBoard() bool { return p.I >= 0 && p.I < Rows && p.J >= 0 && p.J < Cols }

// Index returns the index of an on-board position in State.Cells.
func (p Pos) Index() int { return p.I*Cols + p.J }

// PosOf is the inverse of Pos.Index.
func PosOf(idx int) Pos { return Pos{I: idx / Cols, J: idx % Cols} }

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Cheb is the Chebyshev distance max(|di|, |dj|).
func Cheb(p, q Pos) int { return max(absInt(p.I-q.I), absInt(p.J-q.J)) }

// Manh is the Manhattan distance |di| + |dj|.
func Manh(p, q Pos) int { return absInt(p.I-q.I) + absInt(p.J-q.J) }

// inner reports whether cell index idx is on an interior row and column
// (2..57): every neighbour of such a cell is on the board.
func inner(idx int) bool {
	i, j := idx/Cols, idx%Cols
	return i >= 2 && i < Rows-2 && j >= 2 && j < Cols-2
}
