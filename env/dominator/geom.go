package dominator

import "fmt"

// NumPlayers is the number of players of every game (SPEC §2.1).
const NumPlayers = 4

// Dir is a direction of movement (SPEC §3.1). Commands carry whatever
// integer a player passed, so a Dir may be out of range; the engine drops
// such commands (SPEC §8.2).
type Dir int

// The directions, in the course's numbering: 0..7 turn counter-clockwise in
// steps of 45 degrees, even values are orthogonal, odd ones diagonal.
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
)

// Valid reports whether d is one of the nine directions (dir_ok).
func (d Dir) Valid() bool { return d >= 0 && d < DirSize }

// Diagonal reports whether d is one of the four diagonal directions.
func (d Dir) Diagonal() bool { return d.Valid() && d != None && d%2 == 1 }

// Char returns the one-letter code of d used in traces, or '?'.
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

// Rotate returns the real direction of direction d commanded by player p,
// who sees the board rotated (SPEC §3.4): (d + 2p) mod 8. None and invalid
// directions are returned unchanged.
func (d Dir) Rotate(p int) Dir {
	if d < 0 || d >= None {
		return d
	}
	return (d + Dir(2*p)) % 8
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

// Pos is a position: row I (0 at the top) and column J (0 at the left).
type Pos struct {
	I, J int
}

func (p Pos) String() string { return fmt.Sprintf("(%d, %d)", p.I, p.J) }

// Add moves p one step in direction d; None and invalid directions leave
// it unchanged (SPEC §3.1). There is no wrap-around.
func (p Pos) Add(d Dir) Pos {
	if !d.Valid() {
		return p
	}
	return Pos{p.I + dirDI[d], p.J + dirDJ[d]}
}

// Less orders positions by row, then column.
func (p Pos) Less(q Pos) bool { return p.I < q.I || (p.I == q.I && p.J < q.J) }

// Manhattan returns the Manhattan distance between p and q.
func Manhattan(p, q Pos) int { return absInt(p.I-q.I) + absInt(p.J-q.J) }

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// diamond lists the offsets of a diamond of radius r in the order of the
// SPEC conventions: x from -r to r, then y from -r to r, |x|+|y| <= r.
func diamond(r int) []Pos {
	var out []Pos
	for x := -r; x <= r; x++ {
		for y := -r; y <= r; y++ {
			if absInt(x)+absInt(y) <= r {
				out = append(out, Pos{x, y})
			}
		}
	}
	return out
}

// The diamonds the rules use: the witch area (radius 2, SPEC §3.2), the
// same without its centre (activity, SPEC §6), and the respawn clearance
// (radius 3).
var (
	diamond2     = diamond(2)
	diamond2Ring = func() []Pos {
		var out []Pos
		for _, o := range diamond2 {
			if o != (Pos{}) {
				out = append(out, o)
			}
		}
		return out
	}()
	diamond3 = diamond(3)
)

// Box is a player's rectangle of rows I0..I1 and columns J0..J1
// (inclusive) used for placing and respawning units (SPEC §3.3).
type Box struct {
	I0, I1, J0, J1 int
}

// Contains reports whether p lies in the box.
func (b Box) Contains(p Pos) bool { return p.I >= b.I0 && p.I <= b.I1 && p.J >= b.J0 && p.J <= b.J1 }

// PlayerBox returns the box of player p on a board of rows x cols (SPEC
// §3.3): players 0 and 3 take the top rows, 1 and 2 the bottom rows;
// players 0 and 1 the left columns, 2 and 3 the right columns.
func PlayerBox(p, rows, cols int) Box {
	h, hc := rows/2, cols/2
	var b Box
	if p == 0 || p == 3 {
		b.I0, b.I1 = 1, h-2
	} else {
		b.I0, b.I1 = h+2, rows-2
	}
	if p == 0 || p == 1 {
		b.J0, b.J1 = 1, hc-2
	} else {
		b.J0, b.J1 = hc+2, cols-2
	}
	return b
}
