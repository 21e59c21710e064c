package crematoria

import "math/bits"

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

// A bitboard holds one bit per cell of both levels: row i of level k is
// the 80 bits of words [k][i][0] (columns 0-63) and [k][i][1] (columns
// 64-79 in its low 16 bits).
type bitboard [2][Rows][2]uint64

const hiMask = 1<<(Cols-64) - 1

func (b *bitboard) set(k, i, j int) {
	b[k][i][j>>6] |= 1 << (j & 63)
}

func (b *bitboard) has(p Pos) bool {
	return b[p.K][p.I][p.J>>6]>>(p.J&63)&1 == 1
}

// pathSearch is the scratch space of Paths.
type pathSearch struct {
	pass, elev bitboard                // not Rock; Elevator
	src        [NumPathFields]bitboard // the sources of each field
	reached    bitboard                // cells at distance <= t
	front      bitboard                // cells at distance exactly t
	mine       []int                   // the observer's slots on the board
	dist       []uint8                 // by entry of mine

	// The Elevator field depends on the map alone, which never changes
	// during a game: its distances are kept for the pass and elev they
	// were measured on.
	elevDist           [2 * LevelCells]uint8 // by cell index, unreachable beyond PathMaxDistance
	elevPass, elevElev bitboard
	elevOK             bool

	// The Gem field's search, kept while the gems stay (about half the
	// rounds of a game).
	gem layerCache
}

// layerCache is a field's search kept between calls while its sources,
// pass and elev stay the same: the cells reached at each distance, grown
// only as far as a unit asks.
type layerCache struct {
	src, pass, elev bitboard   // what the search was made of
	ok              bool       // the search is of src, pass and elev
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
		reached := c.layers[len(c.layers)-1]
		if !expandFront(&c.front, &c.pass, &c.elev, &reached, 0) {
			c.done = true
			return unreachable
		}
		c.layers = append(c.layers, reached)
		c.done = len(c.layers)-1 == PathMaxDistance
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
	if !c.ok || c.src != ps.src[f] || c.pass != ps.pass || c.elev != ps.elev {
		c.src, c.pass, c.elev, c.ok, c.done = ps.src[f], ps.pass, ps.elev, true, false
		for k := range c.front {
			for i := range c.front[k] {
				for w := 0; w < 2; w++ {
					c.front[k][i][w] = c.src[k][i][w] & c.pass[k][i][w]
				}
			}
		}
		c.layers = append(c.layers[:0], c.front)
	}
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
		ps.write(s, f, id, d, nearer, dst)
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
	ps := ob.paths
	ps.mine = liveUnits(s, me, ps.mine[:0])
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
	if !ps.elevOK || ps.elevPass != ps.pass || ps.elevElev != ps.elev {
		ps.elevPass, ps.elevElev, ps.elevOK = ps.pass, ps.elev, true
		ps.measure(PathElevator, &ps.elevDist)
	}
	for _, id := range ps.mine {
		u := &s.Units[id]
		d := ps.elevDist[u.Pos.Index()]
		row := dst[id*PathColumns : (id+1)*PathColumns]
		descentsDist(u.Pos, ps.elev.has(u.Pos), &ps.elevDist, d, row[PathElevator*NumDirs:(PathElevator+1)*NumDirs])
		therm := row[(NumPathFields+PathElevator)*NumDirs:]
		for k, th := range PathThresholds {
			therm[k] = b2u(d >= th)
		}
	}
}

// measure writes into dist every cell's distance to field f, as search
// measures it (unreachable beyond PathMaxDistance).
func (ps *pathSearch) measure(f int, dist *[2 * LevelCells]uint8) {
	for i := range dist {
		dist[i] = unreachable
	}
	for k := range ps.front {
		for i := range ps.front[k] {
			for w := 0; w < 2; w++ {
				ps.front[k][i][w] = ps.src[f][k][i][w] & ps.pass[k][i][w]
			}
		}
	}
	ps.reached = ps.front
	for t := 0; ; t++ {
		for k := range ps.front {
			for i := range ps.front[k] {
				for w := 0; w < 2; w++ {
					for x := ps.front[k][i][w]; x != 0; x &= x - 1 {
						dist[k*LevelCells+i*Cols+64*w+bits.TrailingZeros64(x)] = uint8(t)
					}
				}
			}
		}
		if t == PathMaxDistance || !ps.expand() {
			return
		}
	}
}

// descentsDist is descents with the cells nearer than d given by their
// distances.
func descentsDist(p Pos, elevator bool, dist *[2 * LevelCells]uint8, d uint8, flags []byte) {
	for dir := Bottom; dir < None; dir++ {
		if dir >= Up && (!elevator || (dir == Up) != (p.K == 0)) {
			continue
		}
		if t := p.Add(dir); t.OnBoard() && dist[t.Index()] < d {
			flags[dir] = 1
		}
	}
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
	ps.src = [NumPathFields]bitboard{}
	cave, free, gem := &ps.src[PathCave], &ps.src[PathFreeCave], &ps.src[PathGem]
	// Each word is built in variables, a bit per cell, then stored.
	for i := 0; i < Rows; i++ {
		for w := 0; w < 2; w++ {
			j0 := w * 64
			row0 := s.Cells[i*Cols+j0 : i*Cols+min(j0+64, Cols)]
			row1 := s.Cells[LevelCells+i*Cols+j0 : LevelCells+i*Cols+min(j0+64, Cols)]
			var pass0, pass1, elev0, elev1, caves, frees, gems uint64
			for j := range row0 {
				bit := uint64(1) << j
				c := &row0[j]
				switch c.Type {
				case Rock:
				case Cave:
					pass0 |= bit
					if int(c.Owner) != me {
						caves |= bit
					}
					if c.Owner < 0 {
						frees |= bit
					}
				case Elevator:
					pass0 |= bit
					elev0 |= bit
				default:
					pass0 |= bit
				}
				c = &row1[j]
				if c.Type != Rock {
					pass1 |= bit
				}
				if c.Type == Elevator {
					elev1 |= bit
				}
				if c.Gem {
					gems |= bit
				}
			}
			ps.pass[0][i][w], ps.pass[1][i][w] = pass0, pass1
			ps.elev[0][i][w], ps.elev[1][i][w] = elev0, elev1
			cave[0][i][w], free[0][i][w], gem[1][i][w] = caves, frees, gems
		}
	}
	ps.src[PathElevator] = ps.elev
	for id := 0; id < NumSlots(s.Cfg); id++ {
		u := &s.Units[id]
		if u.Player == me || u.Health <= 0 || !u.Pos.OnBoard() {
			continue
		}
		f := PathEnemyPioneer
		if u.Type == Furyan {
			f = PathEnemyFuryan
		}
		ps.src[f].set(u.Pos.K, u.Pos.I, u.Pos.J)
	}
}

// search runs field f's search and writes its columns for ps.mine.
func (ps *pathSearch) search(s *State, f int, dst []byte) {
	const far = unreachable
	dist := ps.dist[:0]
	for range ps.mine {
		dist = append(dist, far)
	}
	ps.dist = dist
	left := len(ps.mine)
	// Distance 0: the sources that are not Rock.
	for k := range ps.front {
		for i := range ps.front[k] {
			for w := 0; w < 2; w++ {
				ps.front[k][i][w] = ps.src[f][k][i][w] & ps.pass[k][i][w]
			}
		}
	}
	ps.reached = ps.front
	prev := bitboard{} // cells at distance < t
	for t := 0; ; t++ {
		// The units whose cell is at distance t: their neighbours in prev
		// are nearer.
		for e, id := range ps.mine {
			if dist[e] == far && ps.front.has(s.Units[id].Pos) {
				dist[e] = uint8(t)
				ps.write(s, f, id, uint8(t), &prev, dst)
				left--
			}
		}
		if left == 0 || t == PathMaxDistance {
			break
		}
		prev = ps.reached
		if !ps.expand() {
			break
		}
	}
	// The units beyond: every reached neighbour is nearer.
	for e, id := range ps.mine {
		if dist[e] == far {
			ps.write(s, f, id, far, &ps.reached, dst)
		}
	}
}

// expand replaces front with the cells one move from it that are not
// reached yet, adds them to reached, and reports whether there are any.
func (ps *pathSearch) expand() bool {
	return expandFront(&ps.front, &ps.pass, &ps.elev, &ps.reached, 0)
}

// expandFront replaces fr with the cells of pass one move from it that are
// not in reached, adds them to reached, and reports whether there are any:
// the eight planar
// moves (columns wrapping, rows not) and, from a cell of elev, the move to
// the other level. With from = 1 only level 1 is searched, without jumps
// (fr's level 0 must be empty). The cells of fr must be in reached.
//
// It visits only the rows next to the front's, and each row once: the
// sideways spread of rows i-1, i and i+1 rides along in variables (x, y,
// z), and a row of fr is overwritten only after the spread of the row
// below has been read from it.
func expandFront(fr, pass, elev, reached *bitboard, from int) bool {
	lo, hi := -1, -1
	for i := 0; i < Rows; i++ {
		if fr[0][i][0]|fr[0][i][1]|fr[1][i][0]|fr[1][i][1] != 0 {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if lo < 0 {
		return false
	}
	a, b := max(lo-1, 0), min(hi+1, Rows-1)
	// Rows a-1 and b+1 of fr are empty (or off the board): their spread is 0.
	var x00, x01, x10, x11 uint64 // row i-1, level k, word w: xkw
	var y00, y01 uint64
	if from == 0 {
		y00, y01 = spread(fr[0][a][0], fr[0][a][1])
	}
	y10, y11 := spread(fr[1][a][0], fr[1][a][1])
	any := uint64(0)
	for i := a; i <= b; i++ {
		var z00, z01, z10, z11 uint64
		if i+1 <= b {
			if from == 0 {
				z00, z01 = spread(fr[0][i+1][0], fr[0][i+1][1])
			}
			z10, z11 = spread(fr[1][i+1][0], fr[1][i+1][1])
		}
		v10 := (x10 | y10 | z10)
		v11 := (x11 | y11 | z11)
		if from == 0 {
			v00 := (x00 | y00 | z00) | fr[1][i][0]&elev[1][i][0]
			v01 := (x01 | y01 | z01) | fr[1][i][1]&elev[1][i][1]
			v10 |= fr[0][i][0] & elev[0][i][0]
			v11 |= fr[0][i][1] & elev[0][i][1]
			v00 &= pass[0][i][0] &^ reached[0][i][0]
			v01 &= pass[0][i][1] &^ reached[0][i][1]
			fr[0][i][0], fr[0][i][1] = v00, v01
			reached[0][i][0] |= v00
			reached[0][i][1] |= v01
			any |= v00 | v01
		}
		v10 &= pass[1][i][0] &^ reached[1][i][0]
		v11 &= pass[1][i][1] &^ reached[1][i][1]
		fr[1][i][0], fr[1][i][1] = v10, v11
		reached[1][i][0] |= v10
		reached[1][i][1] |= v11
		any |= v10 | v11
		x00, x01, x10, x11 = y00, y01, y10, y11
		y00, y01, y10, y11 = z00, z01, z10, z11
	}
	return any != 0
}

// spread returns a row's cells with the cells beside them (columns j-1, j
// and j+1, wrapping), the row given as its two words.
func spread(lo, hi uint64) (uint64, uint64) {
	llo, lhi := lo<<1|hi>>(Cols-65)&1, (hi<<1|lo>>63)&hiMask
	rlo, rhi := lo>>1|(hi&1)<<63, hi>>1|(lo&1)<<(Cols-65)
	return lo | llo | rlo, hi | lhi | rhi
}

// descents sets flags[d] for the directions d (0..9) that take a unit at p
// onto a cell of nearer: the planar moves, and Up or Down when p is an
// Elevator (elevator).
func descents(p Pos, elevator bool, nearer *bitboard, flags []byte) {
	for dir := Bottom; dir < None; dir++ {
		if dir >= Up && (!elevator || (dir == Up) != (p.K == 0)) {
			continue
		}
		if t := p.Add(dir); t.OnBoard() && nearer.has(t) {
			flags[dir] = 1
		}
	}
}

// write sets unit id's columns of field f: its distance d, and as
// descents the moves onto cells of nearer (cells at a distance below d).
func (ps *pathSearch) write(s *State, f, id int, d uint8, nearer *bitboard, dst []byte) {
	u := &s.Units[id]
	row := dst[id*PathColumns : (id+1)*PathColumns]
	descents(u.Pos, ps.elev.has(u.Pos), nearer, row[f*NumDirs:(f+1)*NumDirs])
	therm := row[(NumPathFields+f)*NumDirs:]
	for k, th := range PathThresholds {
		therm[k] = b2u(d >= th)
	}
}
