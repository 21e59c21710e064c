package crematoria

import "math/bits"

// The sun_paths tensor of crematoria-obs-3 (docs/observation.md): the paths
// tensor (paths.go) counts moves and ignores the sun, so it cannot tell a
// unit whether a trip to a gem leaves it the time to get back underground
// before its column burns. sun_paths measures trips against the sun's
// clock, for two fields:
//
//   - escape: how much slack a unit on level 1 has to reach an Elevator and
//     go Down before its column burns;
//   - gem trip: how much slack a unit has to reach a gem and still escape
//     from the gem's cell afterwards.
//
// Both are breadth-first searches whose sources start late by their slack
// (a "delayed-source" search): the value of a cell is the fewest moves to a
// source minus that source's slack, so a value of 0 or less means the trip
// is feasible, with that many rounds to spare.

// Fields of the sun_paths tensor, in the order of its columns.
const (
	SunEscape  = iota // reach a night Elevator of level 1 and go Down in time
	SunGemTrip        // reach a gem in time to escape from its cell
	NumSunFields
)

// SunColumns is the number of columns of the sun_paths tensor: 11 descent
// flags per field (column f*11+d), then 11 thermometer flags per field
// (column (NumSunFields+f)*11+k).
const SunColumns = 2 * NumSunFields * NumDirs

// SunThresholds are the values of the thermometer columns: column
// (NumSunFields+f)*11+k is set when the unit's value for field f is at least
// SunThresholds[k]. A value of 0 or less is a feasible trip; a cell whose
// value exceeds SunMaxValue (or that no source reaches) is past every
// threshold.
var SunThresholds = [NumDirs]int8{-16, -12, -8, -6, -4, -3, -2, -1, 0, 1, 4}

// SunMaxValue is the largest value the searches measure.
const SunMaxValue = 63

// sunFar is the value of a cell beyond SunMaxValue or never reached.
const sunFar = 127

// NightLeft returns, for a level-1 column c in round r, the number of rounds
// after this one before the sun burns it (0: it burns at the end of round
// r, 19: at the end of round r+19) and whether it is in the night at all
// (rules/crematoria.md, "Distances and the sun": the night of round r covers
// the 40 columns from t1 = 2r mod 80, and burns t1 and t1+1 at its end).
func NightLeft(r, c int) (left int, night bool) {
	o := ((c-2*r)%Cols + 2*Cols) % Cols
	return o / 2, o < Cols/2
}

// sunSearch is the scratch space of SunPaths.
type sunSearch struct {
	left    [Cols]int8           // NightLeft of each column, -1 in daylight
	pass    bitboard             // level 0 not Rock, level 1 not Rock and in the night
	elev    *bitboard            // the Elevators (the path searches')
	src     [sunOffset + 1][]Pos // source cells by start value + sunOffset
	reached bitboard             // cells of value <= t
	front   bitboard             // cells of value exactly t
	mine    []int                // the observer's live units on the board (pathSearch.mine)
	gems    []Pos                // the gems of level 1 in the night
	gemVal  []int8               // their escape values
	targets []sunTarget          // search's targets
	lifts   []sunLift            // the Elevators the gem trip may jump at
}

// sunLift is an Elevator's cell of both levels, as the word and bit of a
// column bitboard.
type sunLift struct {
	j   int
	bit uint64
}

// sunTarget is a target of a sun search: a unit, or -1 - a gem's index,
// with its cell's word and bit in a bitboard.
type sunTarget struct {
	p    Pos
	id   int
	k, j int
	bit  uint64
}

// sunTherm[uint8(v)] is the thermometer of value v.
var sunTherm = func() (t [256][NumDirs]byte) {
	for x := range t {
		for k, th := range SunThresholds {
			t[x][k] = b2u(int8(x) >= th)
		}
	}
	return t
}()

// sunOffset shifts start values (-19..0, at most -(Cols/4 - 1)) to source
// buckets.
const sunOffset = Cols / 4

// SunPaths writes the sun_paths tensor, bool [U, SunColumns], of seat me
// into dst (len U*SunColumns). The rows of slots that are not me's live
// units are zeros.
//
// The searches move as the paths tensor's do (the eight planar directions,
// columns wrapping, rows not, onto cells that are not Rock, and Up or Down
// at an Elevator; units do not block), but on level 1 only onto the columns
// in the night this round. With left(c) the rounds before column c burns
// (NightLeft):
//
//   - escape(x), for a level-1 night cell x, is the least d(x, e) - left(e)
//     over the level-1 Elevators e in the night, d counting moves on level 1
//     only. A unit on x can reach e and go Down before e burns when it is 0
//     or less.
//   - latest(g) = min(left(g), -escape(g)) is how many moves from now a
//     unit may take to reach gem g and still escape from it (and find the
//     gem there: it vanishes when g's column burns).
//   - trip(x) is the least d(x, g) - latest(g) over the gems g with
//     latest(g) >= 0, d counting moves on both levels.
//
// Values over SunMaxValue count as unreachable. For slot id of a unit of me
// with value v for field f, column f*11+d is 1 when direction d (0..9)
// leads to a cell of value below v (for escape, Down from an Elevator
// always does: level 0 is safe), and column (NumSunFields+f)*11+k is 1
// when v >= SunThresholds[k]. A unit on level 0 has no escape value: its
// escape columns are all 0.
//
// Both searches run on bitboards, value by value, the sources joining at
// their start values, and stop once every unit (and, for escape, every
// gem) has its value.
func (ob *Observer) SunPaths(s *State, me int, dst []byte) {
	ob.scan(s, me)
	ob.writeSunPaths(s, me, dst)
}

// writeSunPaths is SunPaths once scan has read s.
func (ob *Observer) writeSunPaths(s *State, me int, dst []byte) {
	n := NumSlots(s.Cfg)
	dst = dst[:n*SunColumns]
	clear(dst)
	if ob.sun == nil {
		ob.sun = new(sunSearch)
	}
	ss := ob.sun
	ss.mine = ob.paths.mine // set by scan or Encode (pathSearch.enemies)
	if len(ss.mine) == 0 {
		return
	}
	ss.prepare(s, ob.paths)
	// Escape: from the night elevators of level 1, on level 1.
	for j := 0; j < Cols; j++ {
		if ss.left[j] < 0 {
			continue
		}
		b := sunOffset - int(ss.left[j])
		for x := ss.elev[1][j]; x != 0; x &= x - 1 {
			ss.src[b] = append(ss.src[b], Pos{I: bits.TrailingZeros64(x), J: j, K: 1})
		}
	}
	// (A search from level 1 alone reads pass's level 1 only, and no
	// Elevator.)
	ss.search(s, SunEscape, &ss.pass, ss.elev, dst)
	// Gem trips: from the gems one can still take and escape with.
	for e, g := range ss.gems {
		if v := ss.gemVal[e]; v <= 0 {
			b := sunOffset - int(min(ss.left[g.J], -v))
			ss.src[b] = append(ss.src[b], g)
		}
	}
	ss.search(s, SunGemTrip, &ss.pass, ss.elev, dst)
}

// prepare sets the night columns, the cells the searches may enter and the
// gems, from the cells scan read (ps).
func (ss *sunSearch) prepare(s *State, ps *pathSearch) {
	ss.gems = ss.gems[:0]
	ss.elev = ps.elev
	ss.pass[0] = ps.pass[0]
	// NightLeft of column j: o = (j - 2 Round) mod Cols, in the night when
	// o < Cols/2, with o/2 rounds left.
	o := (-2*s.Round%Cols + Cols) % Cols
	for j := range ss.left {
		if o >= Cols/2 {
			ss.left[j] = -1
			ss.pass[1][j] = 0
		} else {
			ss.left[j] = int8(o / 2)
			ss.pass[1][j] = ps.pass[1][j]
			for x := ps.src[PathGem][1][j]; x != 0; x &= x - 1 {
				ss.gems = append(ss.gems, Pos{I: bits.TrailingZeros64(x), J: j, K: 1})
			}
		}
		if o++; o == Cols {
			o = 0
		}
	}
	// The Elevators whose cells of both levels one may enter.
	ss.lifts = ss.lifts[:0]
	for j := range ss.pass[1] {
		for x := (ss.elev[0][j] | ss.elev[1][j]) & ss.pass[0][j] & ss.pass[1][j]; x != 0; x &= x - 1 {
			ss.lifts = append(ss.lifts, sunLift{j: j, bit: x & -x})
		}
	}
}

// search runs field f's delayed-source search from ss.src (which it
// clears) over the cells of pass, jumping levels at the cells of elev, and
// writes the field's columns for ss.mine (the units on level 1 only for
// escape, whose search also sets gemVal).
func (ss *sunSearch) search(s *State, f int, pass, elev *bitboard, dst []byte) {
	targets := ss.targets[:0]
	for _, id := range ss.mine {
		if p := s.Units[id].Pos; f != SunEscape || p.K == 1 {
			targets = append(targets, sunTarget{p: p, id: id, k: p.K, j: p.J, bit: 1 << p.I})
		}
	}
	if f == SunEscape {
		ss.gemVal = ss.gemVal[:0]
		for e, g := range ss.gems {
			ss.gemVal = append(ss.gemVal, sunFar)
			targets = append(targets, sunTarget{p: g, id: -1 - e, k: g.K, j: g.J, bit: 1 << g.I})
		}
	}
	ss.targets = targets
	units := 0
	for _, tg := range targets {
		if tg.id >= 0 {
			units++
		}
	}
	// The first and last start values.
	first, last := 1, -sunOffset-1
	for b, src := range ss.src {
		if len(src) > 0 {
			first, last = min(first, b-sunOffset), b-sunOffset
		}
	}
	// The targets without a value yet (with no source, every target is
	// unreachable).
	wait := targets
	if first > 0 {
		wait = nil
	}
	ss.reached, ss.front = bitboard{}, bitboard{}
	from := 0 // the escape search stays on level 1
	if f == SunEscape {
		from = 1
	}
	// The gem trip leaves level 1 (below) once every Elevator's cells are
	// reached (lifts[:lift] are) and no unit on level 1 waits (up1).
	lift, up1, level0 := 0, 0, false
	if f == SunGemTrip {
		for _, tg := range wait {
			up1 += tg.k
		}
	}
	for t := first; len(wait) > 0; t++ {
		// The sources that start at t and are not reached yet.
		if t <= last {
			for _, p := range ss.src[t+sunOffset] {
				if pass.has(p) && !ss.reached.has(p) {
					ss.front.set(p.K, p.I, p.J)
					ss.reached.set(p.K, p.I, p.J)
				}
			}
		}
		// The targets of value t: their neighbours reached before (in
		// reached but not in front) are nearer.
		for e := 0; e < len(wait); {
			tg := &wait[e]
			if ss.front[tg.k][tg.j]&tg.bit == 0 {
				e++
				continue
			}
			if tg.id < 0 {
				ss.gemVal[-1-tg.id] = int8(t)
			} else {
				units--
				up1 -= tg.k
				ss.write(f, tg.p, int8(t), &ss.reached, &ss.front, dst[tg.id*SunColumns:(tg.id+1)*SunColumns])
			}
			wait[e] = wait[len(wait)-1]
			wait = wait[:len(wait)-1]
		}
		// A gem's escape value counts only when it is 0 or less.
		if t == SunMaxValue || units == 0 && t >= 0 {
			break
		}
		// Once the cells of every Elevator are reached on both levels
		// (their values are at most t), a cell of level 0 of value above
		// t is next to one of value one less on level 0 (a jump down
		// lands on an Elevator's cell, reached), and no source starts
		// after last: with no unit waiting on level 1, the search goes
		// on level 0 alone. A unit still waiting is on no Elevator's
		// cell of lifts (all reached), so its Up flag, if any, reads a
		// cell of level 1 no search enters: front[1] may stay as it is.
		if f == SunGemTrip && !level0 && up1 == 0 && t >= last {
			for lift < len(ss.lifts) && ss.reached[0][ss.lifts[lift].j]&ss.reached[1][ss.lifts[lift].j]&ss.lifts[lift].bit != 0 {
				lift++
			}
			level0 = lift == len(ss.lifts)
		}
		if level0 {
			if !expandLevel(&ss.front[0], &pass[0], &ss.reached[0]) {
				break
			}
			continue
		}
		if !expandFront(&ss.front, pass, elev, &ss.reached, from) && t >= last {
			break
		}
	}
	for b := range ss.src {
		ss.src[b] = ss.src[b][:0]
	}
	// The units beyond: every reached neighbour is nearer.
	if first > 0 {
		wait = targets
	}
	for _, tg := range wait {
		if tg.id >= 0 {
			ss.write(f, tg.p, sunFar, &ss.reached, nil, dst[tg.id*SunColumns:(tg.id+1)*SunColumns])
		}
	}
}

// write sets field f's columns of a unit at p of value v: as descents the
// moves onto the cells reached before front (the cells of a value below v;
// every reached cell when front is nil; for escape, also Down from an
// Elevator), and the thresholds.
func (ss *sunSearch) write(f int, p Pos, v int8, reached, front *bitboard, row []byte) {
	elevator := ss.elev.has(p)
	descentsBefore(p, elevator, reached, front, row[f*NumDirs:(f+1)*NumDirs])
	if f == SunEscape && elevator && p.K == 1 {
		row[f*NumDirs+int(Down)] = 1 // level 0 is safe
	}
	copy(row[(NumSunFields+f)*NumDirs:(NumSunFields+f+1)*NumDirs], sunTherm[uint8(v)][:])
}
