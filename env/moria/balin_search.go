package moria

// Shortest paths for the Balin bot: Dijkstra over the board with small
// integer costs (walking 1, digging a rock its hits left + 1, penalties
// near danger), with a bucket queue (Dial's algorithm).

// costBuckets is the bucket ring of the queue; it must exceed the largest
// cost of entering a cell.
const costBuckets = 64

// maxEnter bounds the cost of entering one cell.
const maxEnter = costBuckets - 1

const unreached = int32(1 << 30)

// search is one Dijkstra run over the board.
type search struct {
	dist    [NumCells]int32
	parent  [NumCells]int16 // previous cell of the path, -1 at a source
	src     [NumCells]int16 // source that reached the cell (an index given by the caller)
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

func (q *search) push(idx int, d int32, parent, src int) {
	if d >= q.dist[idx] {
		return
	}
	q.dist[idx], q.parent[idx], q.src[idx] = d, int16(parent), int16(src)
	b := &q.buckets[d%costBuckets]
	*b = append(*b, int16(idx))
	q.n++
}

// run pops cells in increasing distance. enter[idx] is the cost of
// stepping into cell idx (0: impossible); orth allows only orthogonal
// steps. With reverse, the search runs from the targets towards the
// walkers: a popped cell's neighbours get its distance plus its own cost
// of entering. limit stops the search at that distance; so does the last
// of the q.left cells of q.need when it is popped.
func (q *search) run(enter *[NumCells]int8, reverse, orth bool, limit int32) {
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
			if reverse && w == 0 {
				continue // nobody steps in here
			}
			src := int(q.src[idx])
			i, j := idx/Cols, idx%Cols
			if i > 0 && i < Rows-1 && j > 0 && j < Cols-1 {
				// Every neighbour is on the board: the same steps, in the
				// same order, without the bounds.
				for dir := Bottom; dir < None; dir += step {
					n := idx + dirDelta[dir]
					if !reverse {
						if w = int32(enter[n]); w == 0 {
							continue
						}
					}
					q.push(n, d+w, idx, src)
				}
				continue
			}
			for dir := Bottom; dir < None; dir += step {
				a, c := i+dirDI[dir], j+dirDJ[dir]
				if a < 0 || a >= Rows || c < 0 || c >= Cols {
					continue
				}
				n := a*Cols + c
				if !reverse {
					if w = int32(enter[n]); w == 0 {
						continue
					}
				}
				q.push(n, d+w, idx, src)
			}
		}
		*b = (*b)[:0]
	}
}

// firstStep returns the cell after the source on the path to idx (the
// source itself when idx is a source).
func (q *search) firstStep(idx int) int {
	for {
		p := int(q.parent[idx])
		if p < 0 || q.parent[p] < 0 {
			return idx
		}
		idx = p
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
