package crematoria

import (
	"encoding/binary"
	"math/bits"
)

// The paths tensor of crematoria-obs-2 (docs/observation.md): for each
// unit of the observing seat, which of its moves bring it closer to the
// nearest cell of some kind, and how far that cell is, counted in moves
// along the board.
// The network's own view is a few cells around each unit; these features
// carry what lies beyond it.

// Path fields, the kinds of cells whose distance the paths tensor gives,
// in the order of its columns.
const (
	PathCave         = iota // a Cave not owned by the observer (unowned or another group's)
	PathGem                 // a level-1 cell with a gem
	PathFreeCave            // an unowned Cave
	PathEnemyPioneer        // a cell with a Pioneer of another group
	PathEnemyFuryan         // a cell with a Furyan of another group
	PathElevator            // an Elevator (either level)
	NumPathFields
)

// PathThresholds are the distances of the thermometer columns: column
// (NumPathFields+f)*11+k is set when the unit's distance to field f is at
// least PathThresholds[k]. A cell farther than PathMaxDistance moves (or never
// reached) counts as unreachable, past every threshold.
var PathThresholds = [NumDirs]uint8{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48}

// PathMaxDistance is the largest distance the search measures.
const PathMaxDistance = 63

// PathColumns is the number of columns of the paths tensor: 11 descent
// flags per field (column f*11+d for direction d), then 11 thermometer
// flags per field.
const PathColumns = 2 * NumPathFields * NumDirs

// unreachable is the distance of a cell beyond PathMaxDistance.
const unreachable = 255

// A bitboard holds one bit per cell of both levels, as column bitboards
// (d0.go): column j of level k is the word [k][j], bit i for row i (bits
// 40-63 are 0).
type bitboard [2][Cols]uint64

func (b *bitboard) set(k, i, j int) {
	b[k][j] |= 1 << i
}

func (b *bitboard) has(p Pos) bool {
	return b[p.K][p.J]>>p.I&1 == 1
}

// and sets b to the cells of both x and y.
func (b *bitboard) and(x, y *bitboard) {
	for k := range b {
		for j := range b[k] {
			b[k][j] = x[k][j] & y[k][j]
		}
	}
}

// andTwice sets b and c to the cells of both x and y.
func (b *bitboard) andTwice(c, x, y *bitboard) {
	if haveAVX512 {
		andTwiceAVX512(b, c, x, y)
		return
	}
	for k := range b {
		for j := range b[k] {
			v := x[k][j] & y[k][j]
			b[k][j], c[k][j] = v, v
		}
	}
}

// pathSearch is the scratch space of Paths.
type pathSearch struct {
	pass, elev *bitboard                // not Rock; Elevator
	src        [NumPathFields]*bitboard // the sources of each field
	// Versions of pass and elev, and of the Gem field's sources: equal
	// versions are equal bitboards (0: unknown, compare them).
	terrainVer, gemVer uint64
	// The bitboards of scan (own.src's enemy fields also serve Encode),
	// and the enemies' cells set in them.
	own struct {
		pass, elev bitboard
		src        [NumPathFields]bitboard
	}
	enemyAt []Pos
	reached bitboard   // cells at distance <= t
	front   bitboard   // cells at distance exactly t
	mine    []int      // the observer's slots on the board
	wait    []unitCell // search's units without a distance

	// The Elevator field depends on the map alone, which never changes
	// during a game: its distances are kept for the pass and elev they
	// were measured on.
	elevDist [2 * LevelCells]uint8 // by cell index, unreachable beyond PathMaxDistance
	// The Elevator field's descents by cell index, made when a unit first
	// stands there: bit d for direction d, bit elevDescOK once made.
	elevDesc           [2 * LevelCells]uint16
	elevPass, elevElev bitboard
	elevOK             bool
	elevVer            uint64 // terrainVer of elevPass and elevElev

	// The Gem field's search, kept while the gems stay (about half the
	// rounds of a game).
	gem layerCache
}

// layerCache is a field's search kept between calls while its sources,
// pass and elev stay the same: the cells reached at each distance, grown
// only as far as a unit asks.
type layerCache struct {
	src, pass, elev bitboard // what the search was made of
	ok              bool     // the search is of src, pass and elev
	terrainVer      uint64   // the versions of pass, elev and src
	srcVer          uint64
	layers          []bitboard // layers[t]: the cells at distance <= t
	front           bitboard   // the cells at distance len(layers)-1
	done            bool       // no farther cell: nothing new, or PathMaxDistance
}

// distance returns the distance of p (unreachable beyond the search's
// end), growing the search as far as needed.
func (c *layerCache) distance(p Pos) uint8 {
	for !c.layers[len(c.layers)-1].has(p) {
		if c.done {
			return unreachable
		}
		n := len(c.layers)
		if n < cap(c.layers) {
			c.layers = c.layers[:n+1]
		} else {
			c.layers = append(c.layers, bitboard{})
		}
		if !expandInto(&c.front, &c.pass, &c.elev, &c.layers[n-1], &c.layers[n]) {
			c.layers = c.layers[:n]
			c.done = true
			return unreachable
		}
		c.done = n == PathMaxDistance
	}
	// The layers are nested: the first that holds p.
	lo, hi := 0, len(c.layers)-1
	for lo < hi {
		if m := (lo + hi) / 2; c.layers[m].has(p) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return uint8(lo)
}

// searchCached is search for field f on the kept search c, begun again
// when the field's sources, pass or elev changed.
func (ps *pathSearch) searchCached(s *State, f int, c *layerCache, dst []byte) {
	same := c.ok && ps.terrainVer != 0 && c.terrainVer == ps.terrainVer && c.srcVer == ps.gemVer
	if !same && (!c.ok || c.src != *ps.src[f] || c.pass != *ps.pass || c.elev != *ps.elev) {
		c.src, c.pass, c.elev, c.ok, c.done = *ps.src[f], *ps.pass, *ps.elev, true, false
		c.front.and(&c.src, &c.pass)
		c.layers = append(c.layers[:0], c.front)
	}
	c.terrainVer, c.srcVer = ps.terrainVer, ps.gemVer
	var none bitboard
	for _, id := range ps.mine {
		d := c.distance(s.Units[id].Pos)
		nearer := &none
		switch {
		case d == unreachable:
			nearer = &c.layers[len(c.layers)-1]
		case d > 0:
			nearer = &c.layers[d-1]
		}
		u := &s.Units[id]
		row := dst[id*PathColumns : (id+1)*PathColumns]
		descents(u.Pos, ps.elev.has(u.Pos), nearer, row[f*NumDirs:(f+1)*NumDirs])
		thermometer(d, row[(NumPathFields+f)*NumDirs:])
	}
}

// Paths writes the paths tensor, bool [U, PathColumns], of seat me into
// dst (len U*PathColumns). For each of me's units (the other slots are
// zeros) and field f, column f*11+d is 1 when direction d (0..9) takes the
// unit to a cell strictly nearer a cell of the field than its own, and
// column (NumPathFields+f)*11+k is 1 when its own distance is at least
// PathThresholds[k]. Distances count the moves of a Pioneer or Furyan:
// the eight planar directions (columns wrapping, rows not) onto cells
// that are not Rock, and Up or Down at an Elevator; units do not block;
// beyond PathMaxDistance a cell is unreachable (farther than every
// threshold). None (10) is never a descent.
//
// The search is breadth first on bitboards, from every source at once,
// and stops once every unit of me has its distance. The Elevator field's
// distances, which depend on the map alone, are measured once per map.
func (ob *Observer) Paths(s *State, me int, dst []byte) {
	ob.scan(s, me)
	ob.writePaths(s, me, dst)
}

// scan reads the cells of s for Paths and SunPaths: the sources of seat
// me's fields, the cells one may enter and the Elevators.
func (ob *Observer) scan(s *State, me int) {
	if ob.paths == nil {
		ob.paths = new(pathSearch)
	}
	ob.paths.sources(s, me)
}

// writePaths is Paths once scan has read s for seat me.
func (ob *Observer) writePaths(s *State, me int, dst []byte) {
	n := NumSlots(s.Cfg)
	dst = dst[:n*PathColumns]
	clear(dst)
	ps := ob.paths // ps.mine: set by enemies
	if len(ps.mine) == 0 {
		return
	}
	for f := range ps.src {
		switch f {
		case PathElevator:
			ps.searchElevator(s, dst)
			continue
		case PathGem:
			ps.searchCached(s, f, &ps.gem, dst)
			continue
		}
		ps.search(s, f, dst)
	}
}

// searchElevator writes the Elevator field's columns for ps.mine from its
// distances, measured again when the map changed.
func (ps *pathSearch) searchElevator(s *State, dst []byte) {
	same := ps.elevOK && ps.terrainVer != 0 && ps.elevVer == ps.terrainVer
	if !same && (!ps.elevOK || ps.elevPass != *ps.pass || ps.elevElev != *ps.elev) {
		ps.elevPass, ps.elevElev, ps.elevOK = *ps.pass, *ps.elev, true
		ps.measure(PathElevator, &ps.elevDist)
		clear(ps.elevDesc[:])
	}
	ps.elevVer = ps.terrainVer
	for _, id := range ps.mine {
		u := &s.Units[id]
		idx := u.Pos.Index()
		d := ps.elevDist[idx]
		row := dst[id*PathColumns : (id+1)*PathColumns]
		desc := ps.elevDesc[idx]
		if desc == 0 {
			desc = elevDescOK | distDescents(u.Pos, ps.elev.has(u.Pos), &ps.elevDist, d)
			ps.elevDesc[idx] = desc
		}
		flags := row[PathElevator*NumDirs : (PathElevator+1)*NumDirs]
		binary.LittleEndian.PutUint64(flags[Bottom:], flagBytes[desc&0xff])
		flags[Up], flags[Down] = uint8(desc>>Up&1), uint8(desc>>Down&1)
		thermometer(d, row[(NumPathFields+PathElevator)*NumDirs:])
	}
}

// measure writes into dist every cell's distance to field f, as search
// measures it (unreachable beyond PathMaxDistance).
func (ps *pathSearch) measure(f int, dist *[2 * LevelCells]uint8) {
	for i := range dist {
		dist[i] = unreachable
	}
	ps.front.and(ps.src[f], ps.pass)
	ps.reached = ps.front
	for t := 0; ; t++ {
		for k := range ps.front {
			for j, x := range ps.front[k] {
				for ; x != 0; x &= x - 1 {
					dist[k*LevelCells+bits.TrailingZeros64(x)*Cols+j] = uint8(t)
				}
			}
		}
		if t == PathMaxDistance || !ps.expand() {
			return
		}
	}
}

// elevDescOK marks a cell's Elevator descents as made (pathSearch.elevDesc).
const elevDescOK = 1 << 15

// distDescents returns the directions (bit d for direction d, 0..9) that
// take a unit at p (on an Elevator: elevator) to a cell whose distance in
// dist is below d.
func distDescents(p Pos, elevator bool, dist *[2 * LevelCells]uint8, d uint8) uint16 {
	var m uint16
	base := p.K * LevelCells
	for dir := Bottom; dir <= LB; dir++ {
		i, j := p.I+dirDI[dir], p.J+dirDJ[dir]
		if i < 0 || i >= Rows {
			continue
		}
		if j < 0 {
			j += Cols
		} else if j >= Cols {
			j -= Cols
		}
		if dist[base+i*Cols+j] < d {
			m |= 1 << dir
		}
	}
	if elevator {
		dir, other := Up, LevelCells
		if p.K == 1 {
			dir, other = Down, -LevelCells
		}
		if dist[base+other+p.I*Cols+p.J] < d {
			m |= 1 << dir
		}
	}
	return m
}

// liveUnits appends to dst the slots of seat me's live units on the board.
func liveUnits(s *State, me int, dst []int) []int {
	for id := 0; id < NumSlots(s.Cfg); id++ {
		if u := &s.Units[id]; u.Player == me && u.Health > 0 && u.Pos.OnBoard() {
			dst = append(dst, id)
		}
	}
	return dst
}

// sources sets pass, elev and the sources of every field for seat me.
func (ps *pathSearch) sources(s *State, me int) {
	o := &ps.own
	scanCells(s, me, &o.pass, &o.elev, &o.src[PathCave], &o.src[PathFreeCave], &o.src[PathGem])
	ps.use(&o.pass, &o.elev, &o.src[PathCave], &o.src[PathFreeCave], &o.src[PathGem], 0, 0)
	ps.enemies(s, me)
}

// use sets the bitboards the searches read (the enemy fields' are ps's
// own) and their versions.
func (ps *pathSearch) use(pass, elev, cave, free, gem *bitboard, terrainVer, gemVer uint64) {
	ps.pass, ps.elev = pass, elev
	ps.src[PathCave], ps.src[PathFreeCave], ps.src[PathGem] = cave, free, gem
	ps.src[PathEnemyPioneer] = &ps.own.src[PathEnemyPioneer]
	ps.src[PathEnemyFuryan] = &ps.own.src[PathEnemyFuryan]
	ps.src[PathElevator] = elev
	ps.terrainVer, ps.gemVer = terrainVer, gemVer
}

// scanCells sets pass and elev (the cells one may enter and the Elevators)
// and seat me's sources of the Cave, FreeCave and Gem fields from the
// cells of s (the other levels of cave, free and gem are left alone).
func scanCells(s *State, me int, pass, elev, cave, free, gem *bitboard) {
	// Each level's cells are read in row order, a band of 8 rows at a
	// time: a row's cells go to the bits of its column words, kept in a
	// band's bytes first (a bit per row), the words ored once per band.
	var band0 [4][Cols]uint8 // pass, elev, cave, free of level 0
	var band1 [3][Cols]uint8 // pass, elev, gem of level 1
	for i0 := 0; i0 < Rows; i0 += 8 {
		band0, band1 = [4][Cols]uint8{}, [3][Cols]uint8{}
		for r := 0; r < 8; r++ {
			row0 := (*[Cols]Cell)(s.Cells[(i0+r)*Cols:])
			row1 := (*[Cols]Cell)(s.Cells[LevelCells+(i0+r)*Cols:])
			bit := uint8(1) << r
			for j := range row0 {
				c := &row0[j]
				switch c.Type {
				case Rock:
				case Cave:
					band0[0][j] |= bit
					if int(c.Owner) != me {
						band0[2][j] |= bit
					}
					if c.Owner < 0 {
						band0[3][j] |= bit
					}
				case Elevator:
					band0[0][j] |= bit
					band0[1][j] |= bit
				default:
					band0[0][j] |= bit
				}
				c = &row1[j]
				if c.Type != Rock {
					band1[0][j] |= bit
				}
				if c.Type == Elevator {
					band1[1][j] |= bit
				}
				if c.Gem {
					band1[2][j] |= bit
				}
			}
		}
		for j := 0; j < Cols; j++ {
			if i0 == 0 {
				pass[0][j], pass[1][j], elev[0][j], elev[1][j] = 0, 0, 0, 0
				cave[0][j], free[0][j], gem[1][j] = 0, 0, 0
			}
			pass[0][j] |= uint64(band0[0][j]) << i0
			elev[0][j] |= uint64(band0[1][j]) << i0
			cave[0][j] |= uint64(band0[2][j]) << i0
			free[0][j] |= uint64(band0[3][j]) << i0
			pass[1][j] |= uint64(band1[0][j]) << i0
			elev[1][j] |= uint64(band1[1][j]) << i0
			gem[1][j] |= uint64(band1[2][j]) << i0
		}
	}
}

// enemies sets the sources of seat me's enemy fields (the cells set by
// the last call are cleared first) and ps.mine, me's live units on the
// board (liveUnits).
func (ps *pathSearch) enemies(s *State, me int) {
	ep, ef := &ps.own.src[PathEnemyPioneer], &ps.own.src[PathEnemyFuryan]
	for _, p := range ps.enemyAt {
		ep[p.K][p.J], ef[p.K][p.J] = 0, 0
	}
	ps.enemyAt = ps.enemyAt[:0]
	ps.mine = ps.mine[:0]
	for id := 0; id < NumSlots(s.Cfg); id++ {
		u := &s.Units[id]
		if u.Health <= 0 || !u.Pos.OnBoard() {
			continue
		}
		if u.Player == me {
			ps.mine = append(ps.mine, id)
			continue
		}
		f := PathEnemyPioneer
		if u.Type == Furyan {
			f = PathEnemyFuryan
		}
		ps.src[f].set(u.Pos.K, u.Pos.I, u.Pos.J)
		ps.enemyAt = append(ps.enemyAt, u.Pos)
	}
}

// unitCell is a unit's slot and its cell's word and bit in a bitboard.
type unitCell struct {
	id   int
	k, j int
	bit  uint64
}

// search runs field f's search and writes its columns for ps.mine.
func (ps *pathSearch) search(s *State, f int, dst []byte) {
	// The units still without a distance.
	wait := ps.wait[:0]
	for _, id := range ps.mine {
		p := s.Units[id].Pos
		wait = append(wait, unitCell{id: id, k: p.K, j: p.J, bit: 1 << p.I})
	}
	ps.wait = wait
	// Distance 0: the sources that are not Rock.
	ps.front.andTwice(&ps.reached, ps.src[f], ps.pass)
	for t := 0; ; t++ {
		// The units whose cell is at distance t: their neighbours reached
		// before (in reached but not in front) are nearer.
		for e := 0; e < len(wait); {
			c := &wait[e]
			if ps.front[c.k][c.j]&c.bit == 0 {
				e++
				continue
			}
			ps.write(s, f, c.id, uint8(t), &ps.reached, &ps.front, dst)
			wait[e] = wait[len(wait)-1]
			wait = wait[:len(wait)-1]
		}
		if len(wait) == 0 || t == PathMaxDistance || !ps.expand() {
			break
		}
	}
	// The units beyond: every reached neighbour is nearer.
	for _, c := range wait {
		ps.write(s, f, c.id, unreachable, &ps.reached, nil, dst)
	}
}

// expand replaces front with the cells one move from it that are not
// reached yet, adds them to reached, and reports whether there are any.
func (ps *pathSearch) expand() bool {
	return expandFront(&ps.front, ps.pass, ps.elev, &ps.reached, 0)
}

// expandFront replaces fr with the cells of pass one move from it that are
// not in reached, adds them to reached, and reports whether there are any:
// the eight planar moves (columns wrapping, rows not) and, from a cell of
// elev, the move to the other level. With from = 1 only level 1 is
// searched, without jumps (fr's level 0 must be empty). The cells of fr
// must be in reached.
//
// On column bitboards a column's cells and the cells above and below them
// are two shifts (rows pushed off the board are cleared by pass); the
// spread of columns j-1, j and j+1 rides along in variables, and column j
// of fr is overwritten only once the spreads of its neighbours were read
// (column 0's spread is kept for column 79, the wrap).
//
// On amd64 with AVX-512 the expansion runs eight columns at a time, with
// AVX2 four (expand_amd64.s); expandBoth and expandSurface are the same in
// Go.
func expandFront(fr, pass, elev, reached *bitboard, from int) bool {
	if from == 1 {
		return expandLevel(&fr[1], &pass[1], &reached[1])
	}
	switch {
	case haveAVX512:
		return expandBothAVX512(fr, pass, elev, reached)
	case haveAVX2:
		return expandBothAVX2(fr, pass, elev, reached)
	}
	return expandBoth(fr, pass, elev, reached)
}

// expandInto is expandFront on both levels that leaves reached as it is
// and writes reached with the new front into into.
func expandInto(fr, pass, elev, reached, into *bitboard) bool {
	if haveAVX512 {
		return expandBothIntoAVX512(fr, pass, elev, reached, into)
	}
	*into = *reached
	return expandFront(fr, pass, elev, into, 0)
}

// expandLevel is expandFront on one level, without jumps: fr, pass and
// reached are that level's columns.
func expandLevel(fr, pass, reached *[Cols]uint64) bool {
	switch {
	case haveAVX512:
		return expandSurfaceAVX512(fr, pass, reached)
	case haveAVX2:
		return expandSurfaceAVX2(fr, pass, reached)
	}
	return expandSurface(fr, pass, reached)
}

// expandBoth is expandFront on both levels, in Go.
func expandBoth(fr, pass, elev, reached *bitboard) bool {
	f0, f1 := &fr[0], &fr[1]
	p0, p1 := &pass[0], &pass[1]
	e0, e1 := &elev[0], &elev[1]
	r0, r1 := &reached[0], &reached[1]
	prev0, prev1 := vspread(f0[Cols-1]), vspread(f1[Cols-1])
	cur0, cur1 := vspread(f0[0]), vspread(f1[0])
	first0, first1 := cur0, cur1
	var any uint64
	for j := 0; j < Cols; j++ {
		next0, next1 := first0, first1
		if j+1 < Cols {
			next0, next1 = vspread(f0[j+1]), vspread(f1[j+1])
		}
		n0 := (prev0 | cur0 | next0 | f1[j]&e1[j]) & p0[j] &^ r0[j]
		n1 := (prev1 | cur1 | next1 | f0[j]&e0[j]) & p1[j] &^ r1[j]
		f0[j], f1[j] = n0, n1
		r0[j] |= n0
		r1[j] |= n1
		any |= n0 | n1
		prev0, prev1, cur0, cur1 = cur0, cur1, next0, next1
	}
	return any != 0
}

// expandSurface is expandFront on one level, without jumps: fr, pass and
// reached are that level's columns.
func expandSurface(fr, pass, reached *[Cols]uint64) bool {
	prev, cur := vspread(fr[Cols-1]), vspread(fr[0])
	first := cur
	var any uint64
	for j := 0; j < Cols; j++ {
		next := first
		if j+1 < Cols {
			next = vspread(fr[j+1])
		}
		n := (prev | cur | next) & pass[j] &^ reached[j]
		fr[j] = n
		reached[j] |= n
		any |= n
		prev, cur = cur, next
	}
	return any != 0
}

// vspread returns a column's cells with the cells above and below them
// (bit 40, below the last row, is for the caller to clear).
func vspread(col uint64) uint64 { return col | col<<1 | col>>1 }

// descents sets flags[d] for the directions d (0..9) that take a unit at p
// onto a cell of nearer: the planar moves, and Up or Down when p is an
// Elevator (elevator). flags are 0 before.
func descents(p Pos, elevator bool, nearer *bitboard, flags []byte) {
	descentsBefore(p, elevator, nearer, nil, flags)
}

// descentsBefore is descents with nearer the cells of reached that are not
// in front (all of reached when front is nil). The neighbours are read
// from the column words j-1, j and j+1 of p's level: bit i-1 of a word w
// is bit i of w<<1 (0 for row 0), and bit i+1 is 0 for the last row (no
// cell has bit 40).
func descentsBefore(p Pos, elevator bool, reached, front *bitboard, flags []byte) {
	flags = flags[:None]
	k, i, j := p.K, uint(p.I), p.J
	jl, jr := j-1, j+1
	if jl < 0 {
		jl = Cols - 1
	}
	if jr == Cols {
		jr = 0
	}
	wl, wc, wr := reached[k][jl], reached[k][j], reached[k][jr]
	var other uint64 // p's column on the other level
	if elevator {
		other = reached[1-k][j]
	}
	if front != nil {
		wl &^= front[k][jl]
		wc &^= front[k][j]
		wr &^= front[k][jr]
		if elevator {
			other &^= front[1-k][j]
		}
	}
	// The eight planar flags as the bytes of a word, written at once
	// (flags[Bottom:LB+1] are 0 before).
	m := wc>>(i+1)&1 | wr>>(i+1)&1<<BR | wr>>i&1<<Right | wr<<1>>i&1<<RT |
		wc<<1>>i&1<<Top | wl<<1>>i&1<<TL | wl>>i&1<<Left | wl>>(i+1)&1<<LB
	binary.LittleEndian.PutUint64(flags[Bottom:], flagBytes[m])
	if elevator {
		d := Up
		if k == 1 {
			d = Down
		}
		flags[d] |= uint8(other >> i & 1)
	}
}

// flagBytes[m] holds bit b of m as byte b (0 or 1).
var flagBytes = func() (t [256]uint64) {
	for m := range t {
		for b := 0; b < 8; b++ {
			t[m] |= uint64(m>>b&1) << (8 * b)
		}
	}
	return t
}()

// write sets unit id's columns of field f: its distance d, and as
// descents the moves onto the cells reached before front (the cells at a
// distance below d; every reached cell when front is nil).
func (ps *pathSearch) write(s *State, f, id int, d uint8, reached, front *bitboard, dst []byte) {
	u := &s.Units[id]
	row := dst[id*PathColumns : (id+1)*PathColumns]
	descentsBefore(u.Pos, ps.elev.has(u.Pos), reached, front, row[f*NumDirs:(f+1)*NumDirs])
	thermometer(d, row[(NumPathFields+f)*NumDirs:])
}

// thermometer sets the thermometer columns of a distance d.
func thermometer(d uint8, therm []byte) {
	copy(therm[:NumDirs], pathTherm[d][:])
}

// pathTherm[d] is the thermometer of distance d.
var pathTherm = func() (t [256][NumDirs]byte) {
	for d := range t {
		for k, th := range PathThresholds {
			t[d][k] = b2u(d >= int(th))
		}
	}
	return t
}()
