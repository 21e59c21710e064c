package pandemic

import (
	"math"
	"slices"
)

// Pasteur is jgym's strong scripted Pandemic bot, the baseline a learner
// has to beat (docs/rules/pandemic.md, "Bots"). It plays for the
// connected-component bonus, which doubles with every city a component
// gains. Every round it:
//
//  1. counts the units of each player on every city and path, and works
//     out how many of its own units each one needs: one more than the
//     strongest enemy to conquer it, as many as the strongest enemy to keep
//     it (a tie keeps the owner, and an owner keeps an empty city);
//  2. keeps the units that already stand where they are needed;
//  3. gives the other units targets greedily, nearest pair first (paths
//     that would join two of its cities count as pasteurBridgeBonus steps
//     nearer): the cities and paths that need units, and the masks lying
//     near unmasked units;
//  4. makes every unit beside an enemy unit attack it (the weakest one):
//     a killed unit joins its army, and an enemy left alone beside a
//     garrison wins the fight, as the course's Dummy attacks its neighbours
//     nine times in ten;
//  5. walks every other unit one step down the distance field of its
//     target, preferring cells with less virus, or towards an enemy unit
//     within pasteurChase steps, and sends the units left without a target
//     to hunt the nearest enemy units.
//
// It draws no random numbers: its orders depend only on the state, so a
// game is deterministic given its seed and seats.
type Pasteur struct {
	me int
	m  *pasteurMap

	cityNeed, pathNeed []int
	cityHeld, pathHeld []int
	enemy              [][NumPlayers]int16 // per city then path: units of each player
	target             []int               // per unit id: -1, else a target index
	claimed            []uint32            // per cell: stamp of the round it is claimed
	stamp              uint32
	huntDist, maskDist pasteurDist
	huntAll            bool // huntDist is the whole field this round (huntFieldAll)
	free               []int
	maskTaken          []bool
	pairs              []pasteurPair
	srcs               []Pos
	masks              []Pos // the masks on the ground in row-major order
}

// pasteurPair is a candidate assignment of a unit to a target.
type pasteurPair struct {
	cost, unit, target int
}

// pasteurBridgeBonus is how many steps further Pasteur walks to a path
// that joins two of its cities than to another target.
const pasteurBridgeBonus = 8

// pasteurChase is the distance within which a unit leaves its way to
// close on an enemy unit (2: the enemy is one step from being beside it).
const pasteurChase = 2

// pasteurMaskRange is the distance within which an unmasked unit may be
// sent to pick up a mask.
const pasteurMaskRange = 6

func init() { RegisterBot("Pasteur", NewPasteur) }

// NewPasteur returns the Pasteur bot for seat me. It is deterministic and
// ignores the seed.
func NewPasteur(me, seed int) Bot { return &Pasteur{me: me} }

// Target kinds: indices 0..nc-1 are cities, nc..nc+np-1 paths, then masks.
func (b *Pasteur) kind(s *State, t int) (city, path, mask int) {
	nc, np := len(s.Cities), len(s.Paths)
	switch {
	case t < nc:
		return t, -1, -1
	case t < nc+np:
		return -1, t - nc, -1
	}
	return -1, -1, t - nc - np
}

// Play gives Pasteur's orders for one round.
func (b *Pasteur) Play(s *State, o *Orders) {
	if b.m == nil {
		b.m = newPasteurMap(s)
		b.claimed = make([]uint32, s.Rows*s.Cols)
	}
	b.stamp++
	nc, np := len(s.Cities), len(s.Paths)
	b.count(s)
	mine := s.PlayerUnits[b.me]
	if cap(b.target) < len(s.Units) {
		b.target = make([]int, len(s.Units))
	}
	b.target = b.target[:len(s.Units)]
	for i := range b.target {
		b.target[i] = -1
	}
	// 2. Units where they are needed stay.
	b.cityHeld = resize(b.cityHeld, nc)
	b.pathHeld = resize(b.pathHeld, np)
	b.free = b.free[:0]
	for _, id := range mine {
		idx := s.Idx(s.Units[id].Pos)
		b.claimed[idx] = b.stamp // own units block our own moves
		if c := s.CityOf[idx]; c >= 0 && b.cityHeld[c] < b.cityNeed[c] {
			b.cityHeld[c]++
			b.target[id] = int(c)
			continue
		}
		if p := s.PathOf[idx]; p >= 0 && b.pathHeld[p] < b.pathNeed[p] {
			b.pathHeld[p]++
			b.target[id] = nc + int(p)
			continue
		}
		b.free = append(b.free, id)
	}
	// 3. Targets for the others, nearest pair first. The masks are taken
	// in row-major order, not in the engine's order of s.Masks, which the
	// kit's player API does not show: so a course player (the exported
	// player's twin of the expert tensor) makes the same choices.
	b.masks = append(b.masks[:0], s.Masks...)
	slices.SortFunc(b.masks, func(x, y Pos) int {
		if x.I != y.I {
			return x.I - y.I
		}
		return x.J - y.J
	})
	// maskDist is read at a unit's cell for a mask within
	// pasteurMaskRange steps, then for its steps towards it (cells
	// nearer): a search to that range gives every value read.
	b.m.fieldWithin(s, b.masks, &b.maskDist, pasteurMaskRange)
	b.pairs = b.pairs[:0]
	for _, id := range b.free {
		u := &s.Units[id]
		idx := s.Idx(u.Pos)
		for k := 0; k < nc; k++ {
			if b.cityNeed[k] > b.cityHeld[k] {
				if d := b.m.cityDist[k][idx]; d >= 0 {
					b.pairs = append(b.pairs, pasteurPair{int(d), id, k})
				}
			}
		}
		for k := 0; k < np; k++ {
			if b.pathNeed[k] > b.pathHeld[k] {
				if d := b.m.pathDist[k][idx]; d >= 0 {
					cost := int(d)
					if pa := &s.Paths[k]; s.CityOwner[pa.A] == b.me && s.CityOwner[pa.B] == b.me {
						cost -= pasteurBridgeBonus // it joins two components
					}
					b.pairs = append(b.pairs, pasteurPair{cost, id, nc + k})
				}
			}
		}
		if !u.Mask {
			if d := b.maskDist.d[idx]; d >= 0 && int(d) <= pasteurMaskRange {
				for k, p := range b.masks {
					if Manhattan(p, u.Pos) <= pasteurMaskRange {
						b.pairs = append(b.pairs, pasteurPair{int(d) + 3, id, nc + np + k})
					}
				}
			}
		}
	}
	slices.SortFunc(b.pairs, func(x, y pasteurPair) int {
		if x.cost != y.cost {
			return x.cost - y.cost
		}
		if x.unit != y.unit {
			return x.unit - y.unit
		}
		return x.target - y.target
	})
	b.maskTaken = resizeBool(b.maskTaken, len(b.masks))
	for _, pr := range b.pairs {
		if b.target[pr.unit] >= 0 {
			continue
		}
		c, p, m := b.kind(s, pr.target)
		switch {
		case c >= 0 && b.cityHeld[c] < b.cityNeed[c]:
			b.cityHeld[c]++
		case p >= 0 && b.pathHeld[p] < b.pathNeed[p]:
			b.pathHeld[p]++
		case m >= 0 && !b.maskTaken[m]:
			b.maskTaken[m] = true
		default:
			continue
		}
		b.target[pr.unit] = pr.target
	}
	// 4. Moves.
	b.huntField(s)
	for _, id := range mine {
		b.order(s, o, id)
	}
}

func resizeBool(v []bool, n int) []bool {
	if cap(v) < n {
		return make([]bool, n)
	}
	v = v[:n]
	clear(v)
	return v
}

func resize(v []int, n int) []int {
	if cap(v) < n {
		return make([]int, n)
	}
	v = v[:n]
	clear(v)
	return v
}

// count counts the units on every city and path and sets what each needs.
func (b *Pasteur) count(s *State) {
	nc, np := len(s.Cities), len(s.Paths)
	b.enemy = unitsOn(s, b.enemy)
	b.cityNeed = resize(b.cityNeed, nc)
	b.pathNeed = resize(b.pathNeed, np)
	for k := 0; k < nc; k++ {
		b.cityNeed[k] = unitsNeeded(&b.enemy[k], s.CityOwner[k], b.me)
	}
	for k := 0; k < np; k++ {
		b.pathNeed[k] = unitsNeeded(&b.enemy[nc+k], s.PathOwner[k], b.me)
	}
}

// unitsOn counts the units of each player on every city, then on every
// path (index len(s.Cities) + path), into buf when it is large enough.
func unitsOn(s *State, buf [][NumPlayers]int16) [][NumPlayers]int16 {
	nc, np := len(s.Cities), len(s.Paths)
	if cap(buf) < nc+np {
		buf = make([][NumPlayers]int16, nc+np)
	}
	buf = buf[:nc+np]
	clear(buf)
	for id := range s.Units {
		u := &s.Units[id]
		if !s.OnBoard(u.Pos) {
			continue
		}
		idx := s.Idx(u.Pos)
		if c := s.CityOf[idx]; c >= 0 {
			buf[c][u.Player]++
		} else if p := s.PathOf[idx]; p >= 0 {
			buf[nc+int(p)][u.Player]++
		}
	}
	return buf
}

// unitsNeeded is how many units seat me wants on a city or path that has
// count units of each player and is owner's: as many as the strongest
// other player has there, one more when it is not me's (Pasteur's rule;
// the targets tensor's too).
func unitsNeeded(count *[NumPlayers]int16, owner, me int) int {
	strongest := 0
	for pl, n := range count {
		if pl != me {
			strongest = max(strongest, int(n))
		}
	}
	if owner != me {
		return strongest + 1
	}
	return strongest
}

// huntField computes the distance to the nearest enemy unit, within
// pasteurChase steps: what a unit with a target reads (whether to chase,
// then its steps to cells nearer). A unit without one hunts from any
// distance: order asks huntFieldAll for the whole field first.
func (b *Pasteur) huntField(s *State) {
	b.srcs = b.srcs[:0]
	for id := range s.Units {
		if u := &s.Units[id]; u.Player != b.me {
			b.srcs = append(b.srcs, u.Pos)
		}
	}
	b.m.fieldWithin(s, b.srcs, &b.huntDist, pasteurChase)
	b.huntAll = false
}

// huntFieldAll makes huntDist the whole field (the same values within
// pasteurChase steps), once a round.
func (b *Pasteur) huntFieldAll(s *State) {
	if !b.huntAll {
		b.m.fieldWithin(s, b.srcs, &b.huntDist, math.MaxInt16)
		b.huntAll = true
	}
}

// order gives the command of one unit.
func (b *Pasteur) order(s *State, o *Orders, id int) {
	u := &s.Units[id]
	here := s.Idx(u.Pos)
	nc, np := len(s.Cities), len(s.Paths)
	t := b.target[id]
	// Attack an enemy next to the unit, garrisons included: left alone,
	// the enemy would attack it (Dummy does nine times in ten) and could
	// win it over.
	stay := t >= 0 && t < nc+np && b.onTarget(s, t, here)
	if d, ok := b.attack(s, u); ok {
		o.Move(id, d)
		return
	}
	if stay {
		return
	}
	chase := b.huntDist.d[here] >= 0 && b.huntDist.d[here] <= pasteurChase
	if t < 0 && !chase {
		b.huntFieldAll(s)
	}
	field := b.huntDist.d
	if t >= 0 && !chase {
		switch c, p, _ := b.kind(s, t); {
		case c >= 0:
			field = b.m.cityDist[c]
		case p >= 0:
			field = b.m.pathDist[p]
		default:
			field = b.maskDist.d
		}
	}
	if d, ok := b.step(s, here, field); ok {
		o.Move(id, d)
	}
}

// onTarget reports whether cell idx belongs to target t (a city or path).
func (b *Pasteur) onTarget(s *State, t, idx int) bool {
	nc := len(s.Cities)
	if t < nc {
		return int(s.CityOf[idx]) == t
	}
	return int(s.PathOf[idx]) == t-nc
}

// attack returns the direction of the weakest enemy unit next to u, the
// likeliest to die of the blow and join Pasteur's army.
func (b *Pasteur) attack(s *State, u *Unit) (Dir, bool) {
	best, bestH := None, 1<<30
	for d := Bottom; d < None; d++ {
		q := u.Pos.Add(d)
		if !s.OnBoard(q) {
			continue
		}
		qi := s.Idx(q)
		v := s.UnitAt[qi]
		if v < 0 || s.Units[v].Player == b.me {
			continue
		}
		if h := s.Units[v].Health; h < bestH {
			best, bestH = d, h
		}
	}
	return best, best != None
}

// step returns the direction of one step down field from cell here, to a
// cell no unit of ours holds or claims (an enemy's cell is an attack),
// preferring less virus; false when no step gets closer.
func (b *Pasteur) step(s *State, here int, field []int16) (Dir, bool) {
	cur := field[here]
	if cur <= 0 {
		return None, false
	}
	p := s.PosOf(here)
	best, bestScore := None, 1<<30
	for d := Bottom; d < None; d++ {
		q := p.Add(d)
		if !s.OnBoard(q) {
			continue
		}
		qi := s.Idx(q)
		if f := field[qi]; f < 0 || f >= cur || b.claimed[qi] == b.stamp {
			continue
		}
		score := int(s.Virus[qi])
		if v := s.UnitAt[qi]; v >= 0 {
			score += 20 // an enemy in the way: attack it if nothing better
		}
		if score < bestScore {
			best, bestScore = d, score
		}
	}
	if best == None {
		return None, false
	}
	b.claimed[s.Idx(p.Add(best))] = b.stamp
	return best, true
}
