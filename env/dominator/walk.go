package dominator

// Walker computes walking distances over a board's cells: Khan's fields
// (package khan) and the targets tensor's on boards wider than 64 columns.
// Its zero value is ready to use after Reset; it keeps scratch space
// between calls.
type Walker struct {
	rows, cols int
	nb         []int32 // neighbours, see Neighbours
	queue      []int32
}

// Unreachable is the distance Field gives the cells it does not reach.
const Unreachable = 1 << 14

// Reset sets the board's size (it keeps the neighbour table when the size
// is the same).
func (w *Walker) Reset(rows, cols int) {
	if w.rows != rows || w.cols != cols {
		w.rows, w.cols, w.nb = rows, cols, nil
	}
}

// Neighbours returns the 8 neighbour cells of every cell, in direction
// order (cell c's neighbour in direction d at 8*c+d), -1 off the board.
func (w *Walker) Neighbours() []int32 {
	cells := w.rows * w.cols
	if len(w.nb) == 8*cells {
		return w.nb
	}
	w.nb = make([]int32, 8*cells)
	for c := 0; c < cells; c++ {
		p := Pos{c / w.cols, c % w.cols}
		for d := Bottom; d < None; d++ {
			q := p.Add(d)
			w.nb[8*c+int(d)] = -1
			if q.I >= 0 && q.I < w.rows && q.J >= 0 && q.J < w.cols {
				w.nb[8*c+int(d)] = int32(q.I*w.cols + q.J)
			}
		}
	}
	return w.nb
}

// Field computes into dist the distance from every cell to the nearest
// source over the cells pass allows (sources always count), orthogonally
// or in 8 directions (diag); unreachable cells get Unreachable.
func (w *Walker) Field(dist []int16, srcs []int32, diag bool, pass []bool) {
	nb := w.Neighbours()
	step := 2
	if diag {
		step = 1
	}
	for i := range dist {
		dist[i] = Unreachable
	}
	q := w.queue[:0]
	for _, c := range srcs {
		if dist[c] != 0 {
			dist[c] = 0
			q = append(q, c)
		}
	}
	for h := 0; h < len(q); h++ {
		c := int(q[h])
		row := nb[8*c : 8*c+8]
		for d := 0; d < 8; d += step {
			nc := row[d]
			if nc < 0 || dist[nc] != Unreachable || !pass[nc] {
				continue
			}
			dist[nc] = dist[c] + 1
			q = append(q, nc)
		}
	}
	w.queue = q
}
