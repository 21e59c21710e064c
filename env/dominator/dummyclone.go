package dominator

// DummyClone plays as the course's Dummy player does. The Dummy ships only
// as a compiled object; its rules were read from 100 games of four Dummies
// (the command files give every order), and DummyClone reproduces those
// games byte for byte, together with every reference trace that seats a
// Dummy (docs/rules/dominator.md, "Bots").
//
// It reasons in its view, where it is player 0, and keeps no memory
// between rounds (the kit's Dummy class has no fields of its own). Every
// unit it commands costs one draw R(0, k-1) on its generator (seeded with
// seed+me+1, as the kit's players are), which picks among the k candidate
// directions, in increasing direction order. Each round it commands its
// witches (in their fixed order), then its farmers, then its knights (in
// increasing id order):
//
//   - A witch scores each orthogonal step: 0 onto an enemy farmer or
//     knight (the step fails, but the Dummy takes it), else the walking
//     distance from the cell, over cells with no unit, to the nearest
//     enemy farmer or knight.
//   - A farmer scores each orthogonal step to a free cell that is not
//     haunted: 0 if the cell is not of its colour (the step paints it),
//     else the walking distance from there, over such cells, to the
//     nearest such cell not of its colour.
//   - A knight scores each of its eight steps: 0 onto an enemy farmer or
//     knight (an attack), else, onto a cell with no unit, the distance in
//     king moves over cells with no unit (haunted ones included) to the
//     nearest enemy farmer or knight.
//
// The candidates are the steps of least score. A search that finds no
// target scores -1, which the Dummy takes for the best score of all: a
// unit walks into a dead end rather than towards a target, or gives up an
// attack for it. A unit with no step to score draws among all its
// directions (four, or eight for a knight). When no enemy farmer or knight
// stands on the board the Dummy gives its witches and knights no order,
// and when no cell is left to paint none to its farmers (no draws either).
type DummyClone struct {
	rng    Rand
	policy DummyPolicy
	cands  [8]Dir
}

// NewDummyClone returns the DummyClone for seat me of a game with the
// given seed.
func NewDummyClone(me, seed int) Bot {
	c := &DummyClone{}
	c.rng.Seed(seed + me + 1)
	return c
}

func init() { RegisterBot("DummyClone", NewDummyClone) }

// Play gives the Dummy's orders for one round on its view.
func (c *DummyClone) Play(v *State, o *Orders) {
	prey, paint := c.policy.Prepare(v, 0)
	if prey {
		for _, id := range v.Witches[0] {
			o.Command(id, c.draw(v, id))
		}
	}
	if paint {
		for _, id := range v.Farmers[0] {
			o.Command(id, c.draw(v, id))
		}
	}
	if prey {
		for _, id := range v.Knights[0] {
			o.Command(id, c.draw(v, id))
		}
	}
}

// draw returns the direction of unit id: the candidate of the draw, or
// any direction of the unit when it has no candidate.
func (c *DummyClone) draw(v *State, id int) Dir {
	k := c.policy.Candidates(v, id, &c.cands)
	if k > 0 {
		return c.cands[c.rng.Int(0, k-1)]
	}
	if v.Units[id].Type == Knight {
		return Dir(c.rng.Int(0, 7))
	}
	return Dir(2 * c.rng.Int(0, 3))
}

// DummyPolicy is the Dummy's way of choosing, for one player of a state
// in any frame: the candidate directions of each of its units (see
// DummyClone), before the draw among them. The candidates, as cells, do
// not depend on the frame, so a bot can forecast a Dummy opponent's moves
// on its own view: Khan (package jgym/env/dominator/khan) does, for each
// other player. The zero value is ready to use; it keeps its buffers
// between rounds, so one DummyPolicy serves one goroutine.
type DummyPolicy struct {
	me    int
	n     int
	dist  [3][]int16 // per unit type and cell: see field
	queue []int32
}

// Prepare computes the fields of player me on state v, and reports
// whether the board holds an enemy farmer or knight of me (else the Dummy
// leaves its witches and knights alone) and a cell its farmers could paint
// (else it leaves its farmers alone). Call it once a round and player,
// before Candidates.
func (c *DummyPolicy) Prepare(v *State, me int) (prey, paint bool) {
	c.me, c.n = me, v.Cfg.Rows
	if len(c.queue) != len(v.Grid) {
		for k := range c.dist {
			c.dist[k] = make([]int16, len(v.Grid))
		}
		c.queue = make([]int32, len(v.Grid))
	}
	for i := range v.Grid {
		q := Pos{i / c.n, i % c.n}
		prey = prey || c.prey(v, q)
		paint = paint || c.goal(v, q, Farmer)
		if prey && paint {
			break
		}
	}
	if prey {
		c.field(v, Witch)
		c.field(v, Knight)
	}
	if paint {
		c.field(v, Farmer)
	}
	return prey, paint
}

// Candidates writes into out the candidate directions of unit id (of
// player me, in v's frame), in increasing order, and returns how many
// there are: the steps of least score (see DummyClone). It returns 0 when
// the unit has no step to score. Prepare must have been called for the
// unit's player on v and reported true for the unit's type (prey for a
// witch or knight, paint for a farmer).
func (c *DummyPolicy) Candidates(v *State, id int, out *[8]Dir) int {
	u := &v.Units[id]
	kind, p := u.Type, u.Pos
	k, best := 0, 0
	step := Dir(2)
	if kind == Knight {
		step = 1
	}
	for d := Bottom; d < None; d += step {
		t := p.Add(d)
		var s int
		switch {
		case c.goal(v, t, kind):
			s = 0
		case c.enter(v, t, kind):
			s = int(c.dist[kind][t.I*c.n+t.J])
		default:
			continue
		}
		if k == 0 || s < best {
			best, k = s, 0
		}
		if s == best {
			out[k] = d
			k++
		}
	}
	return k
}

// prey reports whether q holds a farmer or knight of another player.
func (c *DummyPolicy) prey(v *State, q Pos) bool {
	if !v.OnBoard(q) {
		return false
	}
	id := v.Grid[q.I*c.n+q.J].ID
	if id < 0 {
		return false
	}
	u := &v.Units[id]
	return u.Player != c.me && u.Type != Witch
}

// enter reports whether a unit of the given type may step on q (and walk
// over it in a search): no wall, no unit, and for a farmer not haunted.
func (c *DummyPolicy) enter(v *State, q Pos, kind UnitType) bool {
	if !v.OnBoard(q) {
		return false
	}
	cell := &v.Grid[q.I*c.n+q.J]
	return cell.Type != Wall && cell.ID < 0 && (kind != Farmer || !cell.Haunted)
}

// goal reports whether q is what a unit of the given type walks to: a
// cell to paint for a farmer, a farmer or knight of another player for the
// others.
func (c *DummyPolicy) goal(v *State, q Pos, kind UnitType) bool {
	if kind == Farmer {
		return c.enter(v, q, kind) && int(v.Grid[q.I*c.n+q.J].Owner) != c.me
	}
	return c.prey(v, q)
}

// field computes, for every cell a unit of the given type may enter, the
// distance the Dummy's search finds from there to the nearest goal of the
// unit, walking over such cells (orthogonally, or in king moves for a
// knight), or -1 when there is none; goals get 0. The unit's own cell is
// not one it may enter (it stands there), so the searches of all the units
// of a type share one field.
func (c *DummyPolicy) field(v *State, kind UnitType) {
	dist := c.dist[kind]
	q := c.queue[:0]
	for i := range dist {
		dist[i] = -1
		if c.goal(v, Pos{i / c.n, i % c.n}, kind) {
			dist[i] = 0
			q = append(q, int32(i))
		}
	}
	step := Dir(2)
	if kind == Knight {
		step = 1
	}
	for h := 0; h < len(q); h++ {
		x := int(q[h])
		p := Pos{x / c.n, x % c.n}
		for d := Bottom; d < None; d += step {
			nq := p.Add(d)
			if !c.enter(v, nq, kind) {
				continue
			}
			ni := nq.I*c.n + nq.J
			if dist[ni] >= 0 {
				continue
			}
			dist[ni] = dist[x] + 1
			q = append(q, int32(ni))
		}
	}
}
