package moria

import (
	"fmt"
	"math/bits"
)

// The end of a round: orc births, rebirths and healing (SPEC §8.10-§8.12).

// ringCells is the outside ring in the order of SPEC §8.11 step 3: for
// each row, columns 0, 1, 58, 59; then for each column 2..57, rows 0, 1,
// 58, 59.
var ringCells = func() []int {
	var r []int
	for i := 0; i < Rows; i++ {
		r = append(r, i*Cols, i*Cols+1, i*Cols+Cols-2, i*Cols+Cols-1)
	}
	for j := 2; j < Cols-2; j++ {
		r = append(r, j, Cols+j, (Rows-2)*Cols+j, (Rows-1)*Cols+j)
	}
	return r
}()

const (
	rowMask  = uint64(1)<<Cols - 1
	ringCols = uint64(1) | 1<<1 | 1<<(Cols-2) | 1<<(Cols-1)
)

// orcBirths may bring dead orcs in through free abysses (SPEC §8.10).
func (g *Game) orcBirths() {
	sc := &g.round
	dead := sc.deadOrcs[:0]
	for id := g.cfg.FirstOrc(); id < g.cfg.FirstTroll(); id++ {
		if g.Units[id].Health <= 0 {
			dead = append(dead, id)
		}
	}
	sc.deadOrcs = dead
	b := g.Units[g.BalrogID].Pos
	l := sc.abysses[:0]
	for _, idx := range g.abyssCells {
		if g.Cells[idx].ID < 0 && Manh(PosOf(idx), b) > birthSafeManh {
			l = append(l, idx)
		}
	}
	sc.abysses = l
	if len(l) < 2 {
		// P(0) and P(1) make no draws.
		sc.perm = append(sc.perm[:0], 0)[:len(l)]
	} else {
		if cap(sc.perm) < len(l) {
			sc.perm = make([]int, len(l))
		}
		sc.perm = g.rng.PermInto(sc.perm[:len(l)])
	}
	for _, k := range sc.perm {
		if len(dead) == 0 {
			break
		}
		if g.rng.Int(1, InvProbOrc) != 1 {
			continue
		}
		u := &g.Units[dead[len(dead)-1]]
		dead = dead[:len(dead)-1]
		u.Health, u.Pos = OrcHealth, PosOf(l[k])
		g.setID(l[k], u.ID)
		g.setOwner(l[k], -1)
	}
}

// banned returns the rebirth ban set X of SPEC §8.11 step 2 as rows of
// bits: the radius-1 square around every cell holding a unit id, radius 3
// around the Balrog.
func (g *Game) banned() [Rows]uint64 {
	var h, x [Rows]uint64
	for i, o := range g.round.occ {
		h[i] = (o | o<<1 | o>>1) & rowMask
	}
	for i := range x {
		x[i] = h[i]
		if i > 0 {
			x[i] |= h[i-1]
		}
		if i < Rows-1 {
			x[i] |= h[i+1]
		}
	}
	banSquare(&x, g.Units[g.BalrogID].Pos, balrogBanRadius)
	return x
}

// banSquare adds the square of radius r around p to x.
func banSquare(x *[Rows]uint64, p Pos, r int) {
	lo, hi := max(p.J-r, 0), min(p.J+r, Cols-1)
	m := (uint64(1)<<(hi-lo+1) - 1) << lo
	for i := max(p.I-r, 0); i <= min(p.I+r, Rows-1); i++ {
		x[i] |= m
	}
}

func isBanned(x *[Rows]uint64, idx int) bool { return x[idx/Cols]>>(idx%Cols)&1 != 0 }

// rebirth places the dwarves, wizards and trolls killed this round on the
// outside ring, or inside Moria when the ring is full (SPEC §8.11).
func (g *Game) rebirth() error {
	sc := &g.round
	reborn := sc.reborn[:0]
	for id := 0; id < g.cfg.FirstOrc(); id++ {
		if g.killed[id] {
			reborn = append(reborn, id)
		}
	}
	for id := g.cfg.FirstTroll(); id < g.cfg.BalrogID(); id++ {
		if g.killed[id] {
			reborn = append(reborn, id)
		}
	}
	sc.reborn = reborn
	x := g.banned()
	n := len(reborn)
	if n == 0 {
		// α = P(|V|) is drawn every round (SPEC §8.11 step 4).
		m := 0
		for i := range x {
			free := ^x[i] & rowMask
			if i > 1 && i < Rows-2 {
				free &= ringCols
			}
			m += bits.OnesCount64(free)
		}
		g.rng.SkipPerm(m)
		return nil
	}
	v := sc.ring[:0]
	for _, idx := range ringCells {
		if !isBanned(&x, idx) {
			v = append(v, idx)
		}
	}
	sc.ring = v
	cells := g.pickCells(sc.cells[:0], v, &x, n)
	if cap(sc.perm) < n {
		sc.perm = make([]int, n)
	}
	beta := g.rng.PermInto(sc.perm[:n])
	if len(cells) < n {
		// The ring is full: treasure-free caves inside Moria (step 6).
		v2 := sc.ring[:0]
		for i := 2; i < Rows-2; i++ {
			for j := 2; j < Cols-2; j++ {
				idx := i*Cols + j
				if c := &g.Cells[idx]; c.Type == Cave && !c.Treasure && c.ID < 0 && !isBanned(&x, idx) {
					v2 = append(v2, idx)
				}
			}
		}
		sc.ring = v2
		if cells = g.pickCells(cells, v2, &x, n); len(cells) < n {
			return fmt.Errorf("%w: %d units to reborn, %d cells found", ErrNoRebirthCell, n, len(cells))
		}
	}
	sc.cells = cells
	for k, idx := range cells {
		u := &g.Units[reborn[beta[k]]]
		u.Pos = PosOf(idx)
		g.setID(idx, u.ID)
		switch {
		case u.Type == Troll:
			g.setOwner(idx, -1)
		case u.Type == Dwarf && g.Cells[idx].Type == Cave:
			g.setOwner(idx, u.Player)
		}
	}
	return nil
}

// pickCells draws P(|v|) and appends to cells, in the permutation's order,
// the cells of v not banned by x until n cells are chosen, banning the
// square of radius 1 around each (SPEC §8.11 step 5). The cells chosen do
// not depend on which unit takes them, so they are picked before β.
func (g *Game) pickCells(cells, v []int, x *[Rows]uint64, n int) []int {
	a := &g.round.alpha
	a.Start(&g.rng, len(v))
	for len(cells) < n {
		k, ok := a.Next()
		if !ok {
			break
		}
		if idx := v[k]; !isBanned(x, idx) {
			cells = append(cells, idx)
			banSquare(x, PosOf(idx), 1)
		}
	}
	a.Finish()
	return cells
}

// heal gives full health to the dwarves and wizards next to a wizard of
// their clan (SPEC §8.12).
func (g *Game) heal() {
	for id := 0; id < g.cfg.FirstOrc(); id++ {
		w := &g.Units[id]
		if w.Type != Wizard || w.Health <= 0 || !w.Pos.OnBoard() {
			continue
		}
		for d := Bottom; d < None; d += 2 {
			n := w.Pos.Add(d)
			if !n.OnBoard() {
				continue
			}
			if vid := g.Cells[n.Index()].ID; vid >= 0 {
				if v := &g.Units[vid]; (v.Type == Dwarf || v.Type == Wizard) && v.Player == w.Player {
					v.Health = v.Type.MaxHealth()
				}
			}
		}
	}
}
