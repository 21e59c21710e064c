package pandemic

// The targets tensor of pandemic-obs-2 (docs/observation.md): for each
// unit of the observing seat, which of its four steps walk towards the
// kinds of target Pasteur sends units to, and how far the nearest of each
// kind is. The board tensor shows a network the cells around a unit; the
// cities, paths and masks it should walk to lie mostly beyond what it
// reads (the local network's crop), and the way there goes round walls:
// these are the walking distances Pasteur computes (pasteur.go).

import (
	"math"
	"slices"
)

// Target kinds of the targets tensor, in the order of its column groups.
const (
	// TargetCity: the cells of the cities the seat needs more units on:
	// not its own, or its own with an enemy unit on it, and fewer of its
	// units there than the strongest enemy's (one more when not its own).
	TargetCity = iota
	// TargetPath: the same for the paths.
	TargetPath
	// TargetBridge: the paths of TargetPath whose two cities are the
	// seat's (taking one joins two components).
	TargetBridge
	// TargetMask: the masks on the ground.
	TargetMask
	// TargetEnemy: the other players' units.
	TargetEnemy
	// NumTargetKinds is the number of target kinds.
	NumTargetKinds
)

// Columns of one target kind's group in the targets tensor: the four
// steps (Bottom, Right, Top, Left: a step to a cell nearer the target
// kind, walking through non-wall cells), then three distance bands.
const (
	TargetNear2   = 4 // the nearest is at most 2 steps away
	TargetNear6   = 5 // at most 6
	TargetNear15  = 6 // at most 15
	TargetColumns = 7 // columns per target kind
	// TargetFeatures is the number of columns of the targets tensor.
	TargetFeatures = NumTargetKinds * TargetColumns
)

// targetFields is the Observer's scratch space for the targets tensor.
//
// The cities, paths and bridges needed and the masks on the ground change
// seldom between two calls: each of these kinds keeps the walking
// distance field of its last set of targets (one breadth-first search
// over the map) and searches again only when the set changed, or only
// from the new masks when masks were added. The enemy units move every
// round: a search from all of them, one layer of cells at a time over
// bitboards of the map's rows, stops as soon as it has reached every unit
// of the seat, and keeps to the rows near the units (enemies). The layer
// that reaches a unit is its distance, and the steps towards the enemies
// are its neighbours in the layer before (a neighbour is at most one step
// nearer). Boards wider than 128 columns get a whole search instead.
type targetFields struct {
	grid   targetGrid
	count  [][NumPlayers]int16 // units of each player per city then path
	need   [TargetMask][]int   // the cities (TargetCity) or paths needed, per kind
	srcs   [NumTargetKinds][]Pos
	cache  [TargetEnemy]targetCache
	cells  []Pos        // the cells of the cities or paths of a kind
	queue  []int32      // the breadth-first search's
	units  []targetUnit // the enemy search's units, and those it could not tell
	failed []targetUnit
	prev   [NumPlayers]enemyDist // per seat, the enemy search's last distances
	bits   [4][]uint64           // the enemy search's bitboards
	wide   []int16               // the enemy field when a row does not fit the bitboards
}

// targetGrid is what the targets tensor keeps of a map: the cells as a
// grid with a wall border (padded indices), and each row's walkable cells
// as bits.
type targetGrid struct {
	types          []CellType // the map it was made of (State's static slices)
	cityOf, pathOf []int32
	rows, cols     int
	stride         int     // cols + 2: a padded row
	blank          []int16 // padded: -1 on a walkable cell, gridWall on a wall and the border
	words          int     // uint64 words of a bitboard row: 1 or 2, 0 when a row needs more
	open           []uint64
}

// gridWall marks the walls and the border in a padded distance field.
const gridWall = -2

// targetCache is one kind's distance field and the targets it was made
// for: city or path indices (need), or the masks' cells.
type targetCache struct {
	ok    bool
	need  []int
	cells []Pos
	dist  []int16 // padded, negative where unreachable; empty when there is no target
}

// targetUnit is a unit of the seat on the board that the enemy search has
// not reached yet.
type targetUnit struct {
	id    int
	pos   Pos
	bound int // its distance is at most this, or the search leaves it (math.MaxInt16: no bound)
}

// enemyDist is what the enemy search keeps of a seat's units from one
// call to the next: where each was and its distance (-1 if not known).
type enemyDist struct {
	ok   bool
	pos  []Pos
	dist []int32
}

// padOff is the padded index offset of a step in each direction.
func (g *targetGrid) padOff(d Dir) int {
	switch d {
	case Bottom:
		return g.stride
	case Right:
		return 1
	case Top:
		return -g.stride
	}
	return -1
}

// update remakes the grid when s plays on another map; it reports whether
// it did.
func (g *targetGrid) update(s *State) bool {
	if same(g.types, s.Types) && same(g.cityOf, s.CityOf) && same(g.pathOf, s.PathOf) && g.rows == s.Rows && g.cols == s.Cols {
		return false
	}
	g.types, g.cityOf, g.pathOf, g.rows, g.cols = s.Types, s.CityOf, s.PathOf, s.Rows, s.Cols
	g.stride = s.Cols + 2
	g.blank = append(g.blank[:0], make([]int16, (s.Rows+2)*g.stride)...)
	for i := range g.blank {
		g.blank[i] = gridWall
	}
	g.words = 0
	if s.Cols <= 128 {
		g.words = 1 + (s.Cols-1)/64
	}
	// Rows -1 and Rows stay empty: the search reads a row's neighbours
	// without bounds checks.
	g.open = append(g.open[:0], make([]uint64, (s.Rows+2)*g.words)...)
	for i := 0; i < s.Rows; i++ {
		for j := 0; j < s.Cols; j++ {
			if s.Types[i*s.Cols+j] == Wall {
				continue
			}
			g.blank[(i+1)*g.stride+j+1] = -1
			if g.words > 0 {
				g.open[(i+1)*g.words+j/64] |= 1 << (j % 64)
			}
		}
	}
	return true
}

// pad returns the padded index of p.
func (g *targetGrid) pad(p Pos) int { return (p.I+1)*g.stride + p.J + 1 }

// field returns the walking distance from every cell (padded) to the
// nearest source, in dst's memory: a breadth-first search through
// non-wall cells from the sources (walls too when they are one), as
// pasteurMap.field. Unreachable cells are negative (-1, gridWall on the
// walls and the border).
func (tf *targetFields) field(srcs []Pos, dst []int16) []int16 {
	g := &tf.grid
	dst = append(dst[:0], g.blank...)
	if cap(tf.queue) < len(dst) {
		tf.queue = make([]int32, 0, len(dst))
	}
	q := tf.queue[:0]
	for _, p := range srcs {
		if idx := int32(g.pad(p)); dst[idx] != 0 {
			dst[idx] = 0
			q = append(q, idx)
		}
	}
	stride := int32(g.stride)
	for h := 0; h < len(q); h++ {
		idx := q[h]
		d := dst[idx]
		if d == math.MaxInt16 {
			break // farther cells stay unreachable
		}
		d++
		if n := idx + stride; dst[n] == -1 {
			dst[n] = d
			q = append(q, n)
		}
		if n := idx - stride; dst[n] == -1 {
			dst[n] = d
			q = append(q, n)
		}
		if n := idx + 1; dst[n] == -1 {
			dst[n] = d
			q = append(q, n)
		}
		if n := idx - 1; dst[n] == -1 {
			dst[n] = d
			q = append(q, n)
		}
	}
	tf.queue = q[:0]
	return dst
}

// nearer adds sources to the distance field dist (padded) of field: a
// breadth-first search from them through the cells they are nearer to.
// A cell is set once, at its distance from the new sources, and keeps its
// old distance when that is not larger: the field of all the sources, as
// field would make it.
func (tf *targetFields) nearer(srcs []Pos, dist []int16) {
	g := &tf.grid
	q := tf.queue[:0]
	for _, p := range srcs {
		if idx := int32(g.pad(p)); dist[idx] != 0 {
			dist[idx] = 0
			q = append(q, idx)
		}
	}
	stride := int32(g.stride)
	for h := 0; h < len(q); h++ {
		idx := q[h]
		d := dist[idx]
		if d == math.MaxInt16 {
			break
		}
		d++
		for _, n := range [4]int32{idx + stride, idx - stride, idx + 1, idx - 1} {
			if f := dist[n]; f == -1 || f > d {
				dist[n] = d
				q = append(q, n)
			}
		}
	}
	tf.queue = q[:0]
}

// Targets writes the targets tensor, bool [U, TargetFeatures], of seat me
// into dst (len U*TargetFeatures): for each unit of me on the board, per
// target kind (TargetCity ...), whether each step gets one closer to the
// nearest target of that kind, and the distance bands of the nearest; the
// other slots are all false.
func (ob *Observer) Targets(s *State, me int, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*TargetFeatures]
	clear(dst)
	if len(s.PlayerUnits[me]) == 0 {
		return
	}
	tf := &ob.targets
	if tf.grid.update(s) {
		for k := range tf.cache {
			tf.cache[k].ok = false
		}
		for k := range tf.prev {
			tf.prev[k].ok = false
		}
	}
	tf.sources(s, me)
	for k := 0; k < TargetEnemy; k++ {
		c := &tf.cache[k]
		if k == TargetMask {
			switch m := tf.srcs[k]; {
			case c.ok && slices.Equal(c.cells, m):
			case c.ok && len(c.cells) > 0 && len(m) > len(c.cells) && slices.Equal(c.cells, m[:len(c.cells)]):
				// New masks only (the engine appends them): the cells
				// nearer one of them than before.
				tf.nearer(m[len(c.cells):], c.dist)
				c.cells = append(c.cells, m[len(c.cells):]...)
			default:
				c.cells = append(c.cells[:0], m...)
				c.dist = tf.kindField(s, k, c.dist)
			}
		} else if !c.ok || !slices.Equal(c.need, tf.need[k]) {
			c.need = append(c.need[:0], tf.need[k]...)
			c.dist = tf.kindField(s, k, c.dist)
		}
		c.ok = true
		if len(c.dist) > 0 {
			tf.fromField(s, me, k, c.dist, dst)
		}
	}
	switch {
	case len(tf.srcs[TargetEnemy]) == 0:
	case tf.grid.words == 0:
		tf.wide = tf.field(tf.srcs[TargetEnemy], tf.wide)
		tf.fromField(s, me, TargetEnemy, tf.wide, dst)
	default:
		tf.enemies(s, me, dst)
	}
}

// kindField returns the distance field of kind k's targets (the cells of
// the cities or paths of need[k], or srcs[k]) in dst's memory, empty when
// there is none.
func (tf *targetFields) kindField(s *State, k int, dst []int16) []int16 {
	srcs := tf.srcs[k]
	if k < TargetMask {
		srcs = tf.cells[:0]
		for _, t := range tf.need[k] {
			if k == TargetCity {
				srcs = append(srcs, s.Cities[t]...)
			} else {
				srcs = append(srcs, s.Paths[t].Cells...)
			}
		}
		tf.cells = srcs
	}
	if len(srcs) == 0 {
		return dst[:0]
	}
	return tf.field(srcs, dst)
}

// fromField writes kind k's columns of the seat's units from the distance
// field dist (padded).
func (tf *targetFields) fromField(s *State, me, k int, dist []int16, dst []byte) {
	g := &tf.grid
	var off [None]int
	for d := Bottom; d < None; d++ {
		off[d] = g.padOff(d)
	}
	for _, id := range s.PlayerUnits[me] {
		u := &s.Units[id]
		if !s.OnBoard(u.Pos) {
			continue
		}
		here := g.pad(u.Pos)
		cur := dist[here]
		if cur < 0 {
			continue
		}
		row := dst[id*TargetFeatures+k*TargetColumns : id*TargetFeatures+(k+1)*TargetColumns]
		bands(row, int(cur))
		for d := Bottom; d < None; d++ {
			// Off the board is the border: never reached.
			if f := dist[here+off[d]]; f >= 0 && f < cur {
				row[d] = 1
			}
		}
	}
}

// bands writes the distance bands of a kind's columns.
func bands(g []byte, dist int) {
	g[TargetNear2] = b2u(dist <= 2)
	g[TargetNear6] = b2u(dist <= 6)
	g[TargetNear15] = b2u(dist <= 15)
}

// enemies writes the enemy columns of the seat's units: a breadth-first
// search from the enemy units over bitboards (grid.words words a row),
// stopped when it has reached every unit of me or no cell is left.
//
// A unit's distance to the enemies grows in a round by at most one for
// its own step and one for its nearest enemy's: the search first reads,
// for a unit at distance d in the last call (same seat and map, the unit
// at most one step from where it was), a bound b = d+1, d+2 if the unit
// moved, and leaves out at layer l the rows farther than b-l from the
// unit's row. A shortest way from the enemies to a unit at distance at
// most b keeps to those rows, so a unit reached within its bound is
// reached at its distance, and its neighbours one step nearer are in the
// layer before; a wrong bound only costs time: the units not reached
// within theirs (an enemy died, or came from farther) get a search
// without bounds.
func (tf *targetFields) enemies(s *State, me int, dst []byte) {
	prev := &tf.prev[me]
	if len(prev.pos) != len(s.Units) || !prev.ok {
		prev.pos = append(prev.pos[:0], make([]Pos, len(s.Units))...)
		prev.dist = append(prev.dist[:0], make([]int32, len(s.Units))...)
		for id := range prev.pos {
			prev.pos[id], prev.dist[id] = NoPos, -1
		}
		prev.ok = true
	}
	units := tf.units[:0]
	for _, id := range s.PlayerUnits[me] {
		u := &s.Units[id]
		if !s.OnBoard(u.Pos) {
			prev.pos[id], prev.dist[id] = NoPos, -1
			continue
		}
		bound := math.MaxInt16
		if d := prev.dist[id]; d >= 0 && s.OnBoard(prev.pos[id]) && Manhattan(prev.pos[id], u.Pos) <= 1 {
			bound = min(int(d)+1+int(b2u(prev.pos[id] != u.Pos)), math.MaxInt16)
		}
		units = append(units, targetUnit{id: id, pos: u.Pos, bound: bound})
		prev.pos[id], prev.dist[id] = u.Pos, -1
	}
	tf.units = units[:0]
	if failed := tf.search(s, me, dst, units, true); len(failed) > 0 {
		for i := range failed {
			failed[i].bound = math.MaxInt16
		}
		tf.search(s, me, dst, failed, false)
	}
}

// search runs the enemy search for units and writes their enemy columns
// (and their distance for the next call); it returns the units it could
// not tell: those not reached within their bound when bounded.
func (tf *targetFields) search(s *State, me int, dst []byte, units []targetUnit, bounded bool) []targetUnit {
	if len(units) == 0 {
		return nil
	}
	g := &tf.grid
	w := g.words
	nw := (s.Rows + 2) * w
	for b := range tf.bits {
		if len(tf.bits[b]) < nw {
			tf.bits[b] = make([]uint64, nw)
		}
		tf.bits[b] = tf.bits[b][:nw]
		clear(tf.bits[b])
	}
	prev := &tf.prev[me]
	// cur and next: two layers; seen: the cells reached; want: the cells of
	// the units not reached yet.
	cur, next, seen, want := tf.bits[0], tf.bits[1], tf.bits[2], tf.bits[3]
	lo, hi := s.Rows+1, 0 // the padded rows of cur's cells
	for _, p := range tf.srcs[TargetEnemy] {
		i := p.I + 1
		cur[i*w+p.J>>6] |= 1 << (p.J & 63)
		lo, hi = min(lo, i), max(hi, i)
	}
	copy(seen, cur)
	has := func(b []uint64, p Pos) bool { return b[(p.I+1)*w+p.J>>6]>>(p.J&63)&1 != 0 }
	left := units[:0]
	for _, t := range units {
		if has(cur, t.pos) { // on an enemy's cell: distance 0, no step nearer
			bands(dst[t.id*TargetFeatures+TargetEnemy*TargetColumns:], 0)
			prev.dist[t.id] = 0
			continue
		}
		want[(t.pos.I+1)*w+t.pos.J>>6] |= 1 << (t.pos.J & 63)
		left = append(left, t)
	}
	units = left
	var failed []targetUnit
	if bounded {
		// The rows a unit keeps are its row ± (bound - layer): in the
		// order of bound - row, the first row of each, for merging.
		for a := 1; a < len(units); a++ {
			for b := a; b > 0 && units[b].pos.I-units[b].bound < units[b-1].pos.I-units[b-1].bound; b-- {
				units[b], units[b-1] = units[b-1], units[b]
			}
		}
		failed = tf.failed[:0]
	}
	nlo, nhi := 1, 0 // the rows next may hold bits in, cleared before use
	for layer := 1; layer <= math.MaxInt16 && len(units) > 0; layer++ {
		if nlo <= nhi {
			clear(next[nlo*w : (nhi+1)*w])
		}
		from, to := max(lo-1, 1), min(hi+1, s.Rows)
		var hit bool
		pruned := bounded && units[0].bound < math.MaxInt16 // else a unit without bound needs every row
		if pruned {
			// Merged row ranges of the units (padded rows), in order.
			nlo, nhi = 1, 0
			left := units[:0]
			a, b := 1, 0
			flush := func() {
				if a, b := max(a, from), min(b, to); a <= b {
					if n, x := tf.grow(cur, next, seen, want, a, b); n != 0 {
						if nlo > nhi {
							nlo, nhi = a, b
						}
						nlo, nhi = min(nlo, a), max(nhi, b)
						hit = hit || x != 0
					}
				}
			}
			for _, t := range units {
				r := t.bound - layer
				if r < 0 {
					failed = append(failed, t) // not reached within its bound
					continue
				}
				left = append(left, t)
				if t.bound == math.MaxInt16 {
					r = s.Rows
				}
				ta, tb := t.pos.I+1-r, t.pos.I+1+r
				if ta > b+1 {
					flush()
					a, b = ta, tb
				} else {
					b = max(b, tb)
				}
			}
			flush()
			units = left
			if len(units) == 0 {
				break
			}
		} else {
			nlo, nhi = 1, 0
			if n, x := tf.grow(cur, next, seen, want, from, to); n != 0 {
				nlo, nhi, hit = from, to, x != 0
			}
		}
		if nlo > nhi {
			if pruned {
				failed = append(failed, units...) // rows were left out
				units = units[:0]
			}
			break // every cell reachable is reached
		}
		if hit {
			// The units reached by this layer: the layer is their
			// distance, the previous layer (cur) the neighbours one step
			// nearer.
			left := units[:0]
			for _, t := range units {
				if !has(next, t.pos) {
					left = append(left, t)
					continue
				}
				row := dst[t.id*TargetFeatures+TargetEnemy*TargetColumns:]
				bands(row, layer)
				for d := Bottom; d < None; d++ {
					if q := t.pos.Add(d); s.OnBoard(q) && has(cur, q) {
						row[d] = 1
					}
				}
				prev.dist[t.id] = int32(layer)
			}
			units = left
		}
		cur, next = next, cur
		lo, hi, nlo, nhi = nlo, nhi, lo, hi
	}
	tf.failed = failed
	return failed
}

// grow is grow1 or grow2, as the grid's rows need.
func (tf *targetFields) grow(cur, next, seen, want []uint64, from, to int) (any, hit uint64) {
	if tf.grid.words == 1 {
		return grow1(cur, next, seen, tf.grid.open, want, from, to)
	}
	return grow2(cur, next, seen, tf.grid.open, want, from, to)
}

// grow1 writes into rows from..to (padded) of next the cells that are
// walkable, not seen yet and next to a cell of cur, one word a row, and
// adds them to seen; it returns the union of the words it wrote and of
// their cells in want. The other rows of next are left as they were.
func grow1(cur, next, seen, open, want []uint64, from, to int) (any, hit uint64) {
	for i := from; i <= to; i++ {
		c := cur[i-1 : i+2 : i+2]
		n := (c[1]<<1 | c[1]>>1 | c[0] | c[2]) & open[i] &^ seen[i]
		next[i] = n
		seen[i] |= n
		any |= n
		hit |= n & want[i]
	}
	return any, hit
}

// grow2 is grow1 with two words a row (columns 0-63, then 64-127).
func grow2(cur, next, seen, open, want []uint64, from, to int) (any, hit uint64) {
	for i := from; i <= to; i++ {
		b := 2 * i
		c := cur[b-2 : b+4 : b+4]
		o, sn, wt, nx := open[b:b+2:b+2], seen[b:b+2:b+2], want[b:b+2:b+2], next[b:b+2:b+2]
		a0, a1 := c[2], c[3]
		n0 := (a0<<1 | a0>>1 | a1<<63 | c[0] | c[4]) & o[0] &^ sn[0]
		n1 := (a1<<1 | a0>>63 | a1>>1 | c[1] | c[5]) & o[1] &^ sn[1]
		nx[0], nx[1] = n0, n1
		sn[0] |= n0
		sn[1] |= n1
		any |= n0 | n1
		hit |= n0&wt[0] | n1&wt[1]
	}
	return any, hit
}

// sources lists the cities and paths seat me needs (need) and the cells of
// the masks and of the other players' units (srcs).
func (tf *targetFields) sources(s *State, me int) {
	nc := len(s.Cities)
	tf.count = unitsOn(s, tf.count)
	for k := range tf.srcs {
		tf.srcs[k] = tf.srcs[k][:0]
	}
	for id := range s.Units {
		if u := &s.Units[id]; u.Player != me && s.OnBoard(u.Pos) {
			tf.srcs[TargetEnemy] = append(tf.srcs[TargetEnemy], u.Pos)
		}
	}
	// needed reports whether target t (a city, or nc + a path) owned by
	// owner needs more of me's units: Pasteur's count.
	needed := func(t, owner int) bool {
		return int(tf.count[t][me]) < unitsNeeded(&tf.count[t], owner, me)
	}
	for k := range tf.need {
		tf.need[k] = tf.need[k][:0]
	}
	for k := range s.Cities {
		if needed(k, s.CityOwner[k]) {
			tf.need[TargetCity] = append(tf.need[TargetCity], k)
		}
	}
	for k := range s.Paths {
		pa := &s.Paths[k]
		if !needed(nc+k, s.PathOwner[k]) {
			continue
		}
		tf.need[TargetPath] = append(tf.need[TargetPath], k)
		if s.CityOwner[pa.A] == me && s.CityOwner[pa.B] == me {
			tf.need[TargetBridge] = append(tf.need[TargetBridge], k)
		}
	}
	for _, p := range s.Masks {
		if s.OnBoard(p) {
			tf.srcs[TargetMask] = append(tf.srcs[TargetMask], p)
		}
	}
}
