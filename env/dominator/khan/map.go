package khan

import "jgym/env/dominator"

// The map Khan plans with: walls, units, who will stand where, and
// breadth-first searches over the board of its view.

// khanMap is the per-round picture of the board, in Khan's view.
type khanMap struct {
	n     int     // side of the board
	wall  []bool  // per cell
	haunt []bool  // per cell: haunted now (stepping there kills)
	unit  []int16 // per cell: unit standing there now, or -1
	taken []bool  // per cell: an own unit will try to be there after the round
	leave []bool  // per cell: the own unit there is ordered to step away
	stamp []int32 // BFS visit stamps
	first []int8  // BFS: first direction from the start
	dist  []int16 // BFS: distance from the start
	queue []int32
	cur   int32
	walk  dominator.Walker // neighbours and fields
}

func (m *khanMap) reset(v *dominator.State) {
	m.n = v.Cfg.Rows
	cells := len(v.Grid)
	if len(m.wall) != cells {
		m.wall = make([]bool, cells)
		m.haunt = make([]bool, cells)
		m.unit = make([]int16, cells)
		m.taken = make([]bool, cells)
		m.leave = make([]bool, cells)
		m.stamp = make([]int32, cells)
		m.first = make([]int8, cells)
		m.dist = make([]int16, cells)
		m.queue = make([]int32, 0, cells)
		m.cur = 0
	}
	m.walk.Reset(v.Cfg.Rows, v.Cfg.Cols)
	for idx := range v.Grid {
		c := &v.Grid[idx]
		m.wall[idx] = c.Type == dominator.Wall
		m.unit[idx] = c.ID
		m.taken[idx] = false
		m.leave[idx] = false
		m.haunt[idx] = c.Haunted
	}
}

func (m *khanMap) idx(p dominator.Pos) int   { return p.I*m.n + p.J }
func (m *khanMap) pos(idx int) dominator.Pos { return dominator.Pos{I: idx / m.n, J: idx % m.n} }
func (m *khanMap) in(p dominator.Pos) bool   { return p.I >= 0 && p.I < m.n && p.J >= 0 && p.J < m.n }

// free reports whether a unit can step onto cell idx now: on the board,
// not a wall, nobody there, nobody of ours going there.
func (m *khanMap) free(idx int) bool { return !m.wall[idx] && m.unit[idx] < 0 && !m.taken[idx] }

// neighbours returns the 8 neighbour cells of every cell, in direction
// order, -1 off the board (dominator.Walker).
func (m *khanMap) neighbours() []int32 { return m.walk.Neighbours() }

// search is a breadth-first search from cell s over the cells pass allows
// (s excepted), orthogonally or in all 8 directions, until it reaches a
// cell marked in goal that accept (if not nil) accepts. It returns that
// cell and the first direction of a shortest path to it; ok is false when
// no cell is found within maxDist.
func (m *khanMap) search(s int, diag bool, maxDist int, pass, goal []bool, accept func(idx int) bool) (cell int, first dominator.Dir, ok bool) {
	nb := m.neighbours()
	step := 2
	if diag {
		step = 1
	}
	m.cur++
	cur := m.cur
	m.stamp[s] = cur
	m.first[s] = -1
	m.dist[s] = 0
	q := append(m.queue[:0], int32(s))
	for h := 0; h < len(q); h++ {
		c := int(q[h])
		if c != s && goal[c] && (accept == nil || accept(c)) {
			m.queue = q
			return c, dominator.Dir(m.first[c]), true
		}
		if int(m.dist[c]) >= maxDist {
			continue
		}
		row := nb[8*c : 8*c+8]
		for d := 0; d < 8; d += step {
			nc := row[d]
			if nc < 0 || m.stamp[nc] == cur || !pass[nc] {
				continue
			}
			m.stamp[nc] = cur
			m.dist[nc] = m.dist[c] + 1
			if c == s {
				m.first[nc] = int8(d)
			} else {
				m.first[nc] = m.first[c]
			}
			q = append(q, nc)
		}
	}
	m.queue = q
	return 0, dominator.None, false
}

// field computes into dist the distance from every cell to the nearest
// source over the cells pass allows (sources always count), orthogonally
// or in 8 directions; unreachable cells get unreachable
// (dominator.Walker.Field, which the targets tensor's searches share).
func (m *khanMap) field(dist []int16, srcs []int32, diag bool, pass []bool) {
	m.walk.Field(dist, srcs, diag, pass)
}

// unreachable is the distance of cells a field does not reach.
const unreachable = dominator.Unreachable

var (
	orthDirs = []dominator.Dir{dominator.Bottom, dominator.Right, dominator.Top, dominator.Left}
	allDirs  = []dominator.Dir{dominator.Bottom, dominator.BR, dominator.Right, dominator.RT, dominator.Top, dominator.TL, dominator.Left, dominator.LB}
)

// absInt returns |x|.
func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
