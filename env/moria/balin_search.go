package moria

import "unsafe"

// Shortest paths for the Balin bot: Dijkstra over the board with small
// integer costs (walking 1, digging a rock its hits left + 1, penalties
// near danger), with a bucket queue (Dial's algorithm).

// costBuckets is the bucket ring of the queue; it must exceed the largest
// cost of entering a cell.
const costBuckets = 64

// maxEnter bounds the cost of entering one cell.
const maxEnter = costBuckets - 1

const unreached = int32(1 << 30)

// search is one Dijkstra run over the board from the targets towards the
// walkers (targetSearch, wizardSearch); fwdSearch is the search from the
// dwarves (assign).
type search struct {
	dist    [NumCells]int32
	buckets [costBuckets][]int16
	n       int             // cells queued and not popped
	need    *[NumCells]bool // with left > 0: run stops once left of these are popped
	left    int
}

func (q *search) reset() {
	for i := range q.dist {
		q.dist[i] = unreached
	}
	for b := range q.buckets {
		q.buckets[b] = q.buckets[b][:0]
	}
	q.n = 0
}

func (q *search) push(idx int, d int32) {
	if d >= q.dist[idx] {
		return
	}
	q.dist[idx] = d
	b := &q.buckets[d%costBuckets]
	*b = append(*b, int16(idx))
	q.n++
}

// run pops cells in increasing distance: a popped cell's neighbours get
// its distance plus its own cost of entering, enter[idx] (0: nobody
// steps in), the cost a walker pays to step from them onto it; orth
// allows only orthogonal steps. limit stops the search at that distance;
// so does the last of the q.left cells of q.need when it is popped.
func (q *search) run(enter *[NumCells]int8, orth bool, limit int32) {
	step := Dir(1)
	if orth {
		step = 2
	}
	for d := int32(0); q.n > 0 && d <= limit; d++ {
		b := &q.buckets[d%costBuckets]
		for k := 0; k < len(*b); k++ {
			idx := int((*b)[k])
			q.n--
			if q.dist[idx] != d {
				continue // a stale entry
			}
			if q.left > 0 && q.need[idx] {
				if q.left--; q.left == 0 {
					return
				}
			}
			w := int32(enter[idx])
			if w == 0 {
				continue // nobody steps in here
			}
			i, j := idx/Cols, idx%Cols
			if i > 0 && i < Rows-1 && j > 0 && j < Cols-1 {
				// Every neighbour is on the board: the same steps, in the
				// same order, without the bounds.
				for dir := Bottom; dir < None; dir += step {
					q.push(idx+dirDelta[dir], d+w)
				}
				continue
			}
			for dir := Bottom; dir < None; dir += step {
				a, c := i+dirDI[dir], j+dirDJ[dir]
				if a < 0 || a >= Rows || c < 0 || c >= Cols {
					continue
				}
				q.push(a*Cols+c, d+w)
			}
		}
		*b = (*b)[:0]
	}
}

// dirTo returns the direction from cell a to its neighbour b.
func dirTo(a, b int) Dir {
	for d := Bottom; d < None; d++ {
		if a+dirDelta[d] == b && absInt(a%Cols-b%Cols) <= 1 {
			return d
		}
	}
	return None
}

// fwdSearch is the search from Balin's dwarves (assign), over all eight
// directions: Dijkstra with a ring of buckets as search, a cell's
// distance the least cost of a way from a dwarf (entering a cell costs
// enter), its parent and source those of the first push that gave it
// that distance, the pushes in the order of the pops and, from a popped
// cell, of the directions (as the search of the old code, which pushed a
// cell again only to lower its distance). A cell costs the same to enter
// from any neighbour, so its first push is already its least: the
// neighbour popped first gives it, and a later push comes from a cell
// popped no earlier (costs of 1 to maxEnter keep the ring in order). The
// search thus pushes a cell only when it has not been reached: its cost
// of entering, 0 for a cell no dwarf enters, is set to 0 once it is. The
// board is padded with a ring of cells of cost 0 (rows of padCols cells),
// so that every cell of the board has its eight neighbours and the steps
// need no bounds.
type fwdSearch struct {
	cost    [padCells]int8    // cost of entering a cell not reached yet, else 0
	node    [padCells]fwdNode // the record of a reached cell
	buckets [costBuckets][]int16
}

// fwdNode is the record of a reached cell in a word (16 KB for the
// board, where three fields took twice as much): its distance (bits
// 0-9), the direction of the step from its parent, the previous cell of
// the path (bits 10-13, fwdSource at a source), and the source that
// reached it (bits 14-31).
type fwdNode uint32

const (
	fwdDistBits = 10
	fwdDirShift = fwdDistBits
	fwdSrcShift = fwdDirShift + 4
	fwdSource   = 8 << fwdDirShift // the direction field of a source
)

// The distances fwdNode holds: the search pops no cell beyond
// balinSearchLimit, and pushes none beyond it by more than maxEnter.
var _ = [1]int{}[(balinSearchLimit+maxEnter)>>fwdDistBits]

func (x fwdNode) dist() int32 { return int32(x & (1<<fwdDistBits - 1)) }
func (x fwdNode) dir() int    { return int(x >> fwdDirShift & 15) }
func (x fwdNode) src() int    { return int(x >> fwdSrcShift) }

const (
	padCols  = 64 // cells of a row of the padded board: 1 + Cols + 3
	padCells = 4096
	padMask  = padCells - 1
)

// fwdDelta is the change of a padded index for each direction.
var fwdDelta = [8]int{padCols, padCols + 1, 1, 1 - padCols, -padCols, -padCols - 1, -1, padCols - 1}

// padOf and boardOf convert between board and padded indices.
var padOf, boardOf = func() (p [NumCells]int16, b [padCells]int16) {
	for i := range b {
		b[i] = -1
	}
	for idx := range p {
		x := (idx/Cols+1)*padCols + idx%Cols + 1
		p[idx], b[x] = int16(x), int16(idx)
	}
	return
}()

// reset starts a search with the costs of entering the cells (enter, 0:
// never entered).
func (q *fwdSearch) reset(enter *[NumCells]int8) {
	for i := range Rows {
		p := (i+1)*padCols + 1
		copy(q.cost[p:p+Cols], enter[i*Cols:i*Cols+Cols])
	}
	for b := range q.buckets {
		q.buckets[b] = q.buckets[b][:0]
	}
}

// dist returns the distance of board cell idx, a cell of a cost (enter
// not 0): unreached if the search has not reached it.
func (q *fwdSearch) dist(idx int) int32 {
	p := padOf[idx]
	if q.cost[p] != 0 {
		return unreached
	}
	return q.node[p].dist()
}

// source queues board cell idx, at distance 0, as source src (a cell
// holds one unit, so no source is queued twice).
func (q *fwdSearch) source(idx, src int) {
	p := int(padOf[idx])
	q.cost[p] = 0
	q.node[p] = fwdNode(src<<fwdSrcShift | fwdSource)
	q.buckets[0] = append(q.buckets[0], int16(p))
}

// run pops the cells in increasing distance, up to limit, and steps to
// their neighbours in the order of the directions. It counts no cells
// queued: the buckets beyond the last cell queued are empty, up to limit.
func (q *fwdSearch) run(limit int32) {
	for d := int32(0); d <= limit; d++ {
		// The cells at distance d: no step costs 0 or costBuckets, so
		// none joins them while they are popped.
		b := &q.buckets[uint32(d)%costBuckets]
		for _, p16 := range *b {
			p := int(p16)
			src := q.node[p&padMask] >> fwdSrcShift << fwdSrcShift
			q.relax(p+padCols, d, src|fwdNode(Bottom)<<fwdDirShift)
			q.relax(p+padCols+1, d, src|fwdNode(BR)<<fwdDirShift)
			q.relax(p+1, d, src|fwdNode(Right)<<fwdDirShift)
			q.relax(p+1-padCols, d, src|fwdNode(RT)<<fwdDirShift)
			q.relax(p-padCols, d, src|fwdNode(Top)<<fwdDirShift)
			q.relax(p-padCols-1, d, src|fwdNode(TL)<<fwdDirShift)
			q.relax(p-1, d, src|fwdNode(Left)<<fwdDirShift)
			q.relax(p+padCols-1, d, src|fwdNode(LB)<<fwdDirShift)
		}
		*b = (*b)[:0]
	}
}

// relax steps from a cell at distance d to its neighbour n, with x the
// source and direction fields of n's record.
func (q *fwdSearch) relax(n int, d int32, x fwdNode) {
	// n is a neighbour of a cell of the board, within the padded board:
	// its cost is read without a bounds check (a mask was an
	// instruction of the eight a popped cell runs for each neighbour).
	c := (*int8)(unsafe.Add(unsafe.Pointer(&q.cost), n))
	w := *c
	if w == 0 {
		return // reached already, or never entered
	}
	*c = 0
	n &= padMask
	nd := d + int32(w)
	q.node[n] = x | fwdNode(nd)
	b := &q.buckets[uint32(nd)%costBuckets]
	*b = append(*b, int16(n))
}

// firstStep returns the board cell after the source on the path to board
// cell idx (the source itself when idx is a source).
func (q *fwdSearch) firstStep(idx int) int {
	p := int(padOf[idx])
	for {
		d := q.node[p].dir()
		if d == fwdSource>>fwdDirShift {
			return int(boardOf[p])
		}
		r := p - fwdDelta[d]
		if q.node[r].dir() == fwdSource>>fwdDirShift {
			return int(boardOf[p])
		}
		p = r
	}
}
