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
	grid  targetGrid
	count [][NumPlayers]int16 // units of each player per city then path
	need  [TargetMask][]int   // the cities (TargetCity) or paths needed, per kind
	srcs  [NumTargetKinds][]Pos
	cache [TargetEnemy]targetCache
	cells []Pos        // the cells of the cities or paths of a kind
	queue []int32      // the breadth-first search's
	units []targetUnit // the units the windowed enemy search could not tell
	bits  [4][]uint64  // the whole enemy search's bitboards
	wide  []int16      // the enemy field when a row does not fit the bitboards
	kept  [NumPlayers]keptEnemies
	win   enemyWindow
	// update's and remove's scratch space.
	stamp          []uint32
	stampN         uint32
	added, removed []Pos
	marked         []int32
	seeds, fifo    []seed
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
	// open3: each row's walkable cells in three words, column j at bit
	// j+32 (the columns -32..-1 and past the last are empty), so that any
	// 64 columns around a cell are one shifted read (when words > 0); row
	// i at words 3(i+winPad), the winPad rows before and after empty.
	open3 []uint64
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
	id  int
	pos Pos
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
	rows, cols := s.Rows, s.Cols
	stride := cols + 2
	g.stride = stride
	blank := append(g.blank[:0], make([]int16, (rows+2)*stride)...)
	words := 0
	if cols <= 128 {
		words = 1 + (cols-1)/64
	}
	g.words = words
	// Rows -1 and Rows stay empty: the search reads a row's neighbours
	// without bounds checks.
	open := append(g.open[:0], make([]uint64, (rows+2)*words)...)
	open3 := g.open3[:0]
	if words > 0 {
		open3 = append(open3, make([]uint64, (rows+2*winPad)*3)...)
	}
	for j := range blank[:stride] {
		blank[j] = gridWall
		blank[(rows+1)*stride+j] = gridWall
	}
	for i := 0; i < rows; i++ {
		row := blank[(i+1)*stride : (i+2)*stride]
		row[0], row[stride-1] = gridWall, gridWall
		// The walkable cells of the row: columns 0-63 in lo, 64-127 in hi
		// (when the row fits).
		var lo, hi uint64
		for j, t := range s.Types[i*cols : (i+1)*cols] {
			w := b2u(t != Wall)
			row[j+1] = int16(w)*(-1-gridWall) + gridWall // -1 walkable, gridWall a wall
			bit := uint64(w) << (uint(j) & 63)
			if j < 64 {
				lo |= bit
			} else {
				hi |= bit
			}
		}
		if words > 0 {
			open[(i+1)*words] = lo
			if words == 2 {
				open[(i+1)*words+1] = hi
			}
			r := open3[(i+winPad)*3 : (i+winPad)*3+3]
			r[0], r[1], r[2] = lo<<32, lo>>32|hi<<32, hi>>32
		}
	}
	g.blank, g.open, g.open3 = blank, open, open3
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
	// Each cell enters the queue once: q never overflows.
	q := tf.queue[:len(dst)]
	t := 0
	for _, p := range srcs {
		if idx := int32(g.pad(p)); dst[idx] != 0 {
			dst[idx] = 0
			q[t] = idx
			t++
		}
	}
	stride := int32(g.stride)
	for h := 0; h < t; h++ {
		idx := q[h]
		d := dst[idx]
		if d == math.MaxInt16 {
			break // farther cells stay unreachable
		}
		d++
		if n := idx + stride; dst[n] == -1 {
			dst[n] = d
			q[t] = n
			t++
		}
		if n := idx - stride; dst[n] == -1 {
			dst[n] = d
			q[t] = n
			t++
		}
		if n := idx + 1; dst[n] == -1 {
			dst[n] = d
			q[t] = n
			t++
		}
		if n := idx - 1; dst[n] == -1 {
			dst[n] = d
			q[t] = n
			t++
		}
	}
	return dst
}

// nearer adds sources to the distance field dist (padded) of field: a
// breadth-first search from them through the cells they are nearer to.
// A cell is set once, at its distance from the new sources, and keeps its
// old distance when that is not larger: the field of all the sources, as
// field would make it.
func (tf *targetFields) nearer(srcs []Pos, dist []int16) {
	g := &tf.grid
	if cap(tf.queue) < len(dist) {
		tf.queue = make([]int32, 0, len(dist))
	}
	// A cell is set at most once (the queue's distances never fall): q
	// never overflows.
	q := tf.queue[:len(dist)]
	t := 0
	for _, p := range srcs {
		if idx := int32(g.pad(p)); dist[idx] != 0 {
			dist[idx] = 0
			q[t] = idx
			t++
		}
	}
	stride := int32(g.stride)
	for h := 0; h < t; h++ {
		idx := q[h]
		d := dist[idx]
		if d == math.MaxInt16 {
			break
		}
		d++
		if n := idx + stride; dist[n] == -1 || dist[n] > d {
			dist[n] = d
			q[t] = n
			t++
		}
		if n := idx - stride; dist[n] == -1 || dist[n] > d {
			dist[n] = d
			q[t] = n
			t++
		}
		if n := idx + 1; dist[n] == -1 || dist[n] > d {
			dist[n] = d
			q[t] = n
			t++
		}
		if n := idx - 1; dist[n] == -1 || dist[n] > d {
			dist[n] = d
			q[t] = n
			t++
		}
	}
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
		for k := range tf.kept {
			tf.kept[k].ok = false
		}
	}
	tf.sources(s, me)
	for k := 0; k < TargetEnemy; k++ {
		c := &tf.cache[k]
		if k == TargetMask {
			if m := tf.srcs[k]; !c.ok || !slices.Equal(c.cells, m) {
				tf.update(c, m)
			}
		} else if !c.ok || !slices.Equal(c.need, tf.need[k]) {
			c.need = append(c.need[:0], tf.need[k]...)
			tf.update(c, tf.kindCells(s, k))
		}
		c.ok = true
	}
	var dists [TargetEnemy][]int16 // the cached kinds' fields
	for k := range dists {
		dists[k] = tf.cache[k].dist
	}
	tf.fromFields(s, me, 0, dists[:], dst)
	switch {
	case len(tf.srcs[TargetEnemy]) == 0:
	case tf.grid.words == 0:
		tf.wide = tf.field(tf.srcs[TargetEnemy], tf.wide)
		tf.fromFields(s, me, TargetEnemy, [][]int16{tf.wide}, dst)
	default:
		tf.enemies(s, me, dst)
	}
}

// kindCells returns the cells of the cities (TargetCity) or paths of
// need[k].
func (tf *targetFields) kindCells(s *State, k int) []Pos {
	srcs := tf.cells[:0]
	for _, t := range tf.need[k] {
		if k == TargetCity {
			srcs = append(srcs, s.Cities[t]...)
		} else {
			srcs = append(srcs, s.Paths[t].Cells...)
		}
	}
	tf.cells = srcs
	return srcs
}

// update makes c's field the field of the target cells cells (c.ok: it
// holds the field of c.cells; else a whole search). A field that was not
// empty and stays so changes where the cells did: the cells no longer
// targets are taken out (remove), then the new ones added (nearer).
func (tf *targetFields) update(c *targetCache, cells []Pos) {
	if !c.ok || len(c.cells) == 0 || len(cells) == 0 {
		c.cells = append(c.cells[:0], cells...)
		if len(cells) == 0 {
			c.dist = c.dist[:0]
		} else {
			c.dist = tf.field(cells, c.dist)
		}
		return
	}
	// The cells of the old set are stamped n, those of both sets n+1.
	g := &tf.grid
	if len(tf.stamp) != len(g.blank) || tf.stampN > math.MaxUint32-4 {
		tf.stamp = append(tf.stamp[:0], make([]uint32, len(g.blank))...)
		tf.stampN = 0
	}
	tf.stampN += 2
	n := tf.stampN
	for _, p := range c.cells {
		tf.stamp[g.pad(p)] = n
	}
	added := tf.added[:0]
	for _, p := range cells {
		if i := g.pad(p); tf.stamp[i] >= n {
			tf.stamp[i] = n + 1
		} else {
			added = append(added, p)
		}
	}
	removed := tf.removed[:0]
	for _, p := range c.cells {
		if i := g.pad(p); tf.stamp[i] == n {
			removed = append(removed, p)
			tf.stamp[i] = n + 1 // once
		}
	}
	tf.added, tf.removed = added, removed
	c.cells = append(c.cells[:0], cells...)
	if len(removed) > 0 {
		tf.remove(removed, c.dist)
	}
	if len(added) > 0 {
		tf.nearer(added, c.dist)
	}
}

// gridMark marks the cells remove searches again.
const gridMark = -3

// remove takes the sources srcs out of the distance field dist (padded)
// of field: the cells whose distance may come from them (those reached
// from them along steps that add one to the distance) are searched again
// from the cells around them, nearest first. The field is then the one
// field makes of the sources left.
func (tf *targetFields) remove(srcs []Pos, dist []int16) {
	g := &tf.grid
	stride := int32(g.stride)
	nb := [4]int32{stride, -stride, 1, -1}
	// The cells to search again, marked: a breadth-first walk from the
	// sources, level by level (level lvl: the cells at distance lvl).
	m := tf.marked[:0]
	for _, p := range srcs {
		if i := int32(g.pad(p)); dist[i] == 0 {
			dist[i] = gridMark
			m = append(m, i)
		}
	}
	for h, lvl, end := 0, int16(0), len(m); h < len(m); h++ {
		if h == end {
			lvl, end = lvl+1, len(m)
		}
		for _, o := range nb {
			if n := m[h] + o; dist[n] == lvl+1 {
				dist[n] = gridMark
				m = append(m, n)
			}
		}
	}
	tf.marked = m
	// Seeds: the marked walkable cells next to a reached cell, at one more
	// than the nearest such; sorted by distance.
	seeds := tf.seeds[:0]
	for _, i := range m {
		if g.blank[i] == gridWall {
			continue
		}
		best := int16(math.MaxInt16)
		for _, o := range nb {
			if f := dist[i+o]; f >= 0 && f < best {
				best = f
			}
		}
		if best < math.MaxInt16 {
			seeds = append(seeds, seed{i, best + 1})
		}
	}
	slices.SortFunc(seeds, func(a, b seed) int { return int(a.d) - int(b.d) })
	tf.seeds = seeds
	// Nearest first: the seeds merged with a queue of the cells they
	// reach, whose distances do not fall either.
	q := tf.fifo[:0]
	for h, s := 0, 0; h < len(q) || s < len(seeds); {
		var x seed
		if s < len(seeds) && (h == len(q) || seeds[s].d <= q[h].d) {
			x = seeds[s]
			s++
		} else {
			x = q[h]
			h++
		}
		if dist[x.i] != gridMark {
			continue
		}
		dist[x.i] = x.d
		if x.d == math.MaxInt16 {
			continue
		}
		for _, o := range nb {
			if n := x.i + o; dist[n] == gridMark && g.blank[n] != gridWall {
				q = append(q, seed{n, x.d + 1})
			}
		}
	}
	tf.fifo = q[:0]
	// The marked cells left are not reached: walls or unreachable.
	for _, i := range m {
		if dist[i] == gridMark {
			dist[i] = g.blank[i]
		}
	}
}

// seed is a cell (padded index) and a distance.
type seed struct {
	i int32
	d int16
}

// fromFields writes the columns of kinds k0, k0+1, ... of the seat's units
// from their distance fields dists (padded; an empty one is skipped), one
// pass over the units.
func (tf *targetFields) fromFields(s *State, me, k0 int, dists [][]int16, dst []byte) {
	stride := tf.grid.stride
	for _, id := range s.PlayerUnits[me] {
		p := s.Units[id].Pos
		if !s.OnBoard(p) {
			continue
		}
		here := (p.I+1)*stride + p.J + 1
		for k, dist := range dists {
			if len(dist) == 0 {
				continue
			}
			cur := dist[here]
			if cur < 0 {
				continue
			}
			at := id*TargetFeatures + (k0+k)*TargetColumns
			row := dst[at : at+TargetColumns : at+TargetColumns]
			bands(row, int(cur))
			// Off the board is the border: never reached. A neighbour is
			// nearer when 0 <= f < cur: as unsigned, f < cur.
			nb := dist[here-stride : here+stride+1]
			c := uint16(cur)
			row[Bottom] = b2u(uint16(nb[2*stride]) < c)
			row[Right] = b2u(uint16(nb[stride+1]) < c)
			row[Top] = b2u(uint16(nb[0]) < c)
			row[Left] = b2u(uint16(nb[stride-1]) < c)
		}
	}
}

// bands writes the distance bands of a kind's columns.
func bands(g []byte, dist int) {
	g[TargetNear2] = b2u(dist <= 2)
	g[TargetNear6] = b2u(dist <= 6)
	g[TargetNear15] = b2u(dist <= 15)
}

// enemies writes the enemy columns of the seat's units: for each, a
// breadth-first search from the unit (windowed, below) until a layer
// holds an enemy; the units farther than its window get a search from
// all the enemy units at once.
//
// A unit's distance d and steps depend only on the enemy cells at most d
// steps away, so within d rows and d columns of it: a unit on the cell
// it had in the seat's last call (same map), with the same enemy cells
// in that square, keeps what that call found. Most units stay where they
// are in a round, and their square often does not change.
func (tf *targetFields) enemies(s *State, me int, dst []byte) {
	g := &tf.grid
	ec := &tf.kept[me]
	srcs := tf.srcs[TargetEnemy]
	if nw := (s.Rows + 2*winPad) * 3; !ec.ok || len(ec.en[0]) != nw || len(ec.units) != len(s.Units) {
		ec.units = append(ec.units[:0], make([]keptEnemy, len(s.Units))...)
		for b := range ec.en {
			ec.en[b] = bits3(ec.en[b], s.Rows, nil)
			ec.srcs[b] = ec.srcs[b][:0]
		}
		ec.ok = true
	}
	// A unit's result is kept when it was found or kept in the seat's
	// last call (seq), whose enemy cells were old.
	last := ec.seq
	ec.seq++
	// en: the enemy cells, in the buffer of the call before the last one,
	// by clearing that call's cells.
	old, en := ec.en[ec.cur], ec.en[1-ec.cur]
	for _, p := range ec.srcs[1-ec.cur] {
		en[(p.I+winPad)*3+(p.J+32)>>6] = 0
	}
	for _, p := range srcs {
		en[(p.I+winPad)*3+(p.J+32)>>6] |= 1 << ((p.J + 32) & 63)
	}
	ec.srcs[1-ec.cur] = append(ec.srcs[1-ec.cur][:0], srcs...)
	ec.cur = 1 - ec.cur
	far := tf.units[:0]
	for _, id := range s.PlayerUnits[me] {
		u := &s.Units[id]
		k := &ec.units[id]
		if !s.OnBoard(u.Pos) {
			k.ok = false
			continue
		}
		d, steps := int(k.d), uint(k.steps)
		if !k.ok || k.seq != last || k.pos != u.Pos || changed(old, en, u.Pos, d) {
			d, steps = tf.win.search(g.open3, en, u.Pos)
			*k = keptEnemy{ok: d >= 0 && d <= winR, pos: u.Pos, d: int8(d), steps: uint8(steps)}
		}
		k.seq = ec.seq
		switch {
		case d == winFar:
			far = append(far, targetUnit{id: id, pos: u.Pos})
			continue
		case d < 0:
			continue
		}
		row := dst[id*TargetFeatures+TargetEnemy*TargetColumns:]
		bands(row, d)
		for k := Bottom; k < None; k++ {
			row[k] = uint8(steps >> k & 1)
		}
	}
	tf.units = far[:0]
	tf.search(s, dst, far)
}

// keptEnemies is what the enemy search keeps of a seat's last two
// calls: their enemy cells (as open3, and as lists: the last call's in
// en[cur], the one before in en[1-cur]) and each unit's result.
type keptEnemies struct {
	ok    bool
	seq   uint32 // the calls so far
	cur   int
	srcs  [2][]Pos
	en    [2][]uint64
	units []keptEnemy // per unit id
}

// keptEnemy is a unit's cell, distance (0 to winR) and steps found or
// kept in the seat's call seq; ok false when there is none to keep.
type keptEnemy struct {
	ok    bool
	d     int8
	steps uint8
	seq   uint32
	pos   Pos
}

// changed reports whether the enemy cells of x and y (laid out as
// open3) differ within d rows and d columns of u (d at most winR).
func changed(x, y []uint64, u Pos, d int) bool {
	sh := uint(u.J & 63)
	at := (u.I-d+winPad)*3 + u.J>>6
	mask := (uint64(1)<<(2*d+1) - 1) << (32 - d)
	// Rows u.I-d .. u.I+d: words at+3i and at+3i+1.
	x = x[at : at+6*d+2]
	y = y[at : at+len(x)]
	for k := 0; k+1 < len(x); k += 3 {
		if ((x[k]^y[k])>>sh|(x[k+1]^y[k+1])<<(64-sh))&mask != 0 {
			return true
		}
	}
	return false
}

// bits3 returns the cells ps (on a board of the given rows) as rows of
// three words, laid out as targetGrid.open3, in buf's memory.
func bits3(buf []uint64, rows int, ps []Pos) []uint64 {
	buf = append(buf[:0], make([]uint64, (rows+2*winPad)*3)...)
	for _, p := range ps {
		buf[(p.I+winPad)*3+(p.J+32)>>6] |= 1 << ((p.J + 32) & 63)
	}
	return buf
}

// winR is the enemy window's radius: a search from a unit sees the
// columns 32 to the left and 31 to the right of it, so its layers up to
// winR are those of the whole board.
const winR = 31

// winPad is the empty rows before and after the board in open3: a
// search reads the rows up to winR from its unit's.
const winPad = winR

// winFar is what enemyWindow.search returns for a unit whose nearest
// enemy lies beyond winR, or that it cannot tell.
const winFar = math.MaxInt32

// winRows is the rows of a window layer: the 2 winR + 1 rows around the
// unit's and two more on either side, left empty.
const winRows = 2*winR + 5

// enemyWindow is the scratch space of the search from one unit: 64
// columns around it (column u.J+b-32 at bit b), the rows around it.
type enemyWindow struct {
	pass, enemy [winRows]uint64           // rows u.I-winR-2 ...: walkable or enemy cells; enemy cells
	layer       [winR + 1][winRows]uint64 // layer l: the cells at distance l from the unit
	back        [2][winRows]uint64        // the backward pass's layers
}

// search returns the walking distance from the unit at u to the nearest
// enemy cell (bits of en, laid out as open3) and the steps (bit d for
// direction d) to a neighbour one step nearer: -1 when no enemy is
// reachable, winFar when the nearest is farther than winR.
//
// The layers of a breadth-first search from u, over the window's
// bitboards: the grid is bipartite, so the cells next to layer l-1 are in
// layer l-2 or l, and layer l is the walkable cells next to layer l-1 but
// not in layer l-2 (walkable: not a wall, or an enemy's cell, which the
// whole search would start from). The first layer d that holds an enemy
// is the distance. A neighbour q of u is one step nearer when an enemy of
// layer d is d-1 steps from q: the backward pass keeps, from layer d's
// enemies down to layer 1, the cells of each layer next to those kept in
// the layer above, and q is kept in layer 1.
func (w *enemyWindow) search(open3, en []uint64, u Pos) (int, uint) {
	const c = winR + 2 // the unit's row in the window
	sh := uint(u.J & 63)
	at0 := (u.I+winPad)*3 + u.J>>6 // the unit's row's first word read
	// row fills window row c+i.
	row := func(i int) {
		k := at0 + 3*i
		o, e := open3[k:k+2:k+2], en[k:k+2:k+2]
		x := e[0]>>sh | e[1]<<(64-sh)
		w.enemy[c+i], w.pass[c+i] = x, o[0]>>sh|o[1]<<(64-sh)|x
	}
	const at = uint64(1) << 32
	row(0)
	if w.enemy[c]&at != 0 {
		return 0, 0
	}
	if w.pass[c]&at == 0 {
		return -1, 0 // a wall: unreachable
	}
	// Layer l's cells are within l rows of the unit's: its other rows are
	// never written and stay empty from one search to the next.
	w.layer[0][c] = at
	d := 0
	for l := 1; l <= winR; l++ {
		row(-l)
		row(l)
		cur, prev := &w.layer[l], &w.layer[l-1]
		var back *[winRows]uint64
		if l >= 2 {
			back = &w.layer[l-2]
		} else {
			back = &w.back[0]
			back[c-1], back[c], back[c+1] = 0, 0, 0
		}
		var any, hit uint64
		for i := c - l; i <= c+l; i++ {
			p := prev[i]
			n := (p<<1 | p>>1 | prev[i-1] | prev[i+1]) & w.pass[i] &^ back[i]
			cur[i] = n
			any |= n
			hit |= n & w.enemy[i]
		}
		if hit != 0 {
			d = l
			break
		}
		if any == 0 {
			return -1, 0
		}
	}
	if d == 0 {
		return winFar, 0
	}
	// Backward from layer d's enemies: b holds rows c-l..c+l of layer l's
	// kept cells, read only there.
	b, nb := &w.back[0], &w.back[1]
	lay := &w.layer[d]
	for i := c - d; i <= c+d; i++ {
		b[i] = lay[i] & w.enemy[i]
	}
	for l := d - 1; l >= 1; l-- {
		lay := &w.layer[l]
		for i := c - l; i <= c+l; i++ {
			x := b[i]
			nb[i] = lay[i] & (x<<1 | x>>1 | b[i-1] | b[i+1])
		}
		b, nb = nb, b
	}
	steps := uint(b[c+1]>>32&1) << Bottom
	steps |= uint(b[c]>>33&1) << Right
	steps |= uint(b[c-1]>>32&1) << Top
	steps |= uint(b[c]>>31&1) << Left
	return d, steps
}

// search runs a breadth-first search from all the enemy units over the
// whole board's bitboards (grid.words words a row) for units, the seat's
// units whose nearest enemy the windowed search could not tell, and
// writes their enemy columns; it stops when it has reached every one of
// them or no cell is left. The layer that reaches a unit is its distance,
// the layer before holds its neighbours one step nearer.
func (tf *targetFields) search(s *State, dst []byte, units []targetUnit) {
	if len(units) == 0 {
		return
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
	for _, t := range units {
		want[(t.pos.I+1)*w+t.pos.J>>6] |= 1 << (t.pos.J & 63)
	}
	for layer := 1; layer <= math.MaxInt16 && len(units) > 0; layer++ {
		from, to := max(lo-1, 1), min(hi+1, s.Rows)
		n, x := tf.grow(cur, next, seen, want, from, to)
		if n == 0 {
			break // every cell reachable is reached
		}
		if x != 0 {
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
			}
			units = left
		}
		// next's rows from..to are written; cur's rows lo..hi are cleared
		// for the layer after.
		clear(cur[lo*w : (hi+1)*w])
		cur, next = next, cur
		lo, hi = from, to
	}
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
	for k := range tf.srcs {
		tf.srcs[k] = tf.srcs[k][:0]
	}
	// The units of each player on every city, then on every path (index
	// nc + path), as unitsOn; the enemy units' cells.
	if n := nc + len(s.Paths); cap(tf.count) < n {
		tf.count = make([][NumPlayers]int16, n)
	} else {
		tf.count = tf.count[:n]
		clear(tf.count)
	}
	enemy := tf.srcs[TargetEnemy]
	for id := range s.Units {
		u := &s.Units[id]
		if !s.OnBoard(u.Pos) {
			continue
		}
		if u.Player != me {
			enemy = append(enemy, u.Pos)
		}
		idx := s.Idx(u.Pos)
		if c := s.CityOf[idx]; c >= 0 {
			tf.count[c][u.Player&(NumPlayers-1)]++
		} else if p := s.PathOf[idx]; p >= 0 {
			tf.count[nc+int(p)][u.Player&(NumPlayers-1)]++
		}
	}
	tf.srcs[TargetEnemy] = enemy
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
