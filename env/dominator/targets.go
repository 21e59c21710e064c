package dominator

// The targets tensor of dominator-obs-2 (docs/observation.md): for each
// unit of the observing seat on the board, which of its steps walk nearer
// what Khan (package khan) sends a unit of its type to, and how far that
// is. The board tensor shows a network the cells around a unit; the cells
// to paint, the prey and the enemies to haunt lie mostly beyond what it
// reads (the local network's crop), and the way there goes round walls,
// haunted cells and sleeping witches: these are the walking-distance
// fields Khan walks its units down (khan/units.go), computed by rules
// that do not need Khan's forecast of the other players.

import (
	"encoding/binary"
	"math/bits"
)

// Columns of the targets tensor: the eight directions of the observer's
// frame (a step to a cell one step nearer the unit's targets; farmers and
// witches walk orthogonally, so only knights have diagonal ones), then
// four distance bands.
const (
	TargetNear1  = 8  // the nearest target is at most 1 step away
	TargetNear3  = 9  // at most 3
	TargetNear7  = 10 // at most 7
	TargetNear15 = 11 // at most 15
	// TargetFeatures is the number of columns of the targets tensor.
	TargetFeatures = 12
	// TargetMaxDist is the farthest a unit's targets are searched: a unit
	// farther from every target (or cut off from them) gets a row of
	// zeros.
	TargetMaxDist = 40
)

// targetKind is a unit type's field: the cells a unit walks over, and
// whether it walks diagonally.
type targetKind struct {
	pass []uint64
	diag bool
}

// targetFields is the Observer's scratch space for the targets tensor.
//
// On boards of at most 64 columns every field is a breadth-first search
// over bitboards (one word per row, real coordinates), one layer of cells
// at a time, that stops as soon as it has reached every unit of the
// seat's of its type: the layer that reaches a unit is its distance, and
// its steps nearer the targets go to its neighbours in the layer before.
// Wider boards get whole searches (Walker.Field) instead.
type targetFields struct {
	rows, cols int
	wall       []uint64 // walls
	free       []uint64 // not a wall, no unit
	haunt      []uint64 // haunted
	sleep      []uint64 // within 2 of a sleeping witch
	enemy      []uint64 // a unit of another player
	prey       []uint64 // a farmer or knight of another player
	paint      []uint64 // not a wall, not the seat's colour
	ewitch     []uint64 // within 3 of an active witch of another player
	eknight    []uint64 // next to a knight of another player
	mine       [numUnitTypes][]uint64
	near       []uint64 // within 8 of a farmer or knight of the seat's
	kinds      [numUnitTypes]targetKind
	want       []uint64 // the search's units not reached yet
	visit      []uint64
	layer      [2][]uint64
	has        [numUnitTypes]bool // me has a unit of the type on the board
	board      []byte             // the board tensor when the caller has none
	preyAt     []Pos              // the enemy farmers and knights
	hunted     []Pos              // the witches' targets
	walker     Walker             // wide boards
	wdist      []int16
	wsrc       []int32
	wpass      []bool
}

func (t *targetFields) reset(rows, cols int) {
	if t.rows == rows && t.cols == cols {
		return
	}
	t.rows, t.cols = rows, cols
	mk := func() []uint64 { return make([]uint64, rows) }
	t.wall, t.free, t.haunt, t.sleep, t.enemy, t.prey = mk(), mk(), mk(), mk(), mk(), mk()
	t.paint, t.ewitch, t.eknight, t.near = mk(), mk(), mk(), mk()
	for k := range t.mine {
		t.mine[k] = mk()
		t.kinds[k] = targetKind{pass: mk(), diag: UnitType(k) == Knight}
	}
	t.want, t.visit = mk(), mk()
	t.layer = [2][]uint64{make([]uint64, rows+2), make([]uint64, rows+2)}
}

// Targets writes the targets tensor, bool [U, TargetFeatures], of player
// me into dst. For every unit of me's on the board, by its type:
//
//   - a farmer's targets are the cells to paint: not a wall, no unit, not
//     me's colour, not haunted, not within 2 of a sleeping witch (it
//     wakes when its neighbour leaves), not within 3 of an active enemy
//     witch (one step of hers haunts it), not next to an enemy knight; it
//     walks orthogonally over cells that are not walls, haunted, within 2
//     of a sleeping witch, or held by an enemy unit;
//   - a knight's targets are the free cells (not a wall, no unit) next to
//     an enemy farmer or knight, in eight directions; it walks in eight
//     directions over the cells a farmer walks over;
//   - a witch's targets are the cells of the enemy farmers and knights
//     within 8 (Manhattan) of one of me's farmers or knights, or of all
//     of them if none is; it walks orthogonally over every cell that is
//     not a wall.
//
// The cells of me's units of the type count as walkable. Targets always
// count (a search starts from them even where a unit could not walk).
// Directions are those of me's frame (as the action's).
func (ob *Observer) Targets(s *State, me int, dst []byte) { ob.targetsOf(s, me, nil, dst) }

// targetsOf is Targets; board is the board tensor of the same seat and
// state when the caller has it (Encode), else nil: the searches read the
// walls and the colours from its planes.
func (ob *Observer) targetsOf(s *State, me int, board, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*TargetFeatures]
	clear(dst)
	t := &ob.targets
	rows, cols := s.Cfg.Rows, s.Cfg.Cols
	t.reset(rows, cols)
	if !t.scan(s, me) {
		return
	}
	if cols <= 64 {
		if board == nil {
			if len(t.board) != BoardPlanes*rows*cols {
				t.board = make([]byte, BoardPlanes*rows*cols)
			}
			ob.Board(s, me, t.board)
			board = t.board
		}
		t.cells(board)
	}
	for k := range t.kinds {
		if !t.has[k] {
			continue
		}
		t.build(s, me, UnitType(k))
		switch {
		case UnitType(k) == Witch && cols > 64:
			t.huntWide(s, me)
			t.hunt(s, me, dst, false)
		case UnitType(k) == Witch:
			t.hunt(s, me, dst, true)
		case cols <= 64:
			t.search(s, me, UnitType(k), dst)
		default:
			t.searchWide(s, me, UnitType(k), dst)
		}
	}
}

// scan fills the bitboards of the board and units; it reports whether me
// has a unit on the board.
func (t *targetFields) scan(s *State, me int) bool {
	rows, cols := t.rows, t.cols
	t.has = [numUnitTypes]bool{}
	if cols > 64 {
		// Only the units are read on wide boards (searchWide reads the
		// cells).
		for id := range s.Units {
			if u := &s.Units[id]; u.Player == me && s.onGrid(id) {
				t.has[u.Type] = true
			}
		}
		return t.has != [numUnitTypes]bool{}
	}
	t.preyAt = t.preyAt[:0]
	for _, b := range [][]uint64{t.sleep, t.enemy, t.prey, t.ewitch, t.eknight, t.haunt, t.free,
		t.mine[Farmer], t.mine[Knight], t.mine[Witch]} {
		clear(b)
	}
	for id := range s.Units {
		u := &s.Units[id]
		if !s.onGrid(id) {
			continue
		}
		p := ViewPos(u.Pos, me, rows)
		bit := uint64(1) << uint(p.J)
		t.free[p.I] |= bit // occupied, for now
		switch {
		case u.Player == me:
			t.mine[u.Type][p.I] |= bit
			t.has[u.Type] = true
		case u.Type == Witch:
			t.enemy[p.I] |= bit
		default:
			t.enemy[p.I] |= bit
			t.prey[p.I] |= bit
			t.preyAt = append(t.preyAt, p)
			if u.Type == Knight {
				row := uint64(7) << uint(p.J) >> 1
				for i := max(p.I-1, 0); i <= min(p.I+1, rows-1); i++ {
					t.eknight[i] |= row
				}
			}
		}
	}
	if t.has == [numUnitTypes]bool{} {
		return false
	}
	for q := 0; q < NumPlayers; q++ {
		for _, id := range s.Witches[q] {
			w := &s.Units[id]
			if !s.onGrid(id) {
				continue
			}
			p := ViewPos(w.Pos, me, rows)
			switch {
			case !w.Active:
				t.diamond(t.sleep, p, 2)
			case q != me:
				t.diamond(t.ewitch, p, 3)
				fallthrough
			default:
				t.diamond(t.haunt, p, 2)
			}
		}
	}
	return true
}

// cells fills wall and paint from the board tensor's terrain and owner
// planes (the view's cells, one byte each; owner code 1 is me's colour),
// eight cells at a time, and turns free (the cells of the units on the
// board) into the cells that are neither walls nor occupied. The cells'
// other flags come from the units: a cell is occupied when a unit on the
// board stands there, haunted when it is within 2 of an active witch (as
// the engine haunts them).
func (t *targetFields) cells(board []byte) {
	n, cm := t.cols, t.colMask()
	cells := n * t.rows
	terrain, owner := board[:cells], board[cells:2*cells]
	for i := 0; i < t.rows; i++ {
		var open, other uint64
		for c := 0; c < n; c += 8 {
			k := i*n + c
			tw, ow := load8(terrain, k), load8(owner, k)
			open |= pack8(tw) << uint(c)
			// Bytes of ow other than 1: x = ow ^ 1 per byte is not zero.
			x := ow ^ 0x0101010101010101
			nz := (((x & 0x7f7f7f7f7f7f7f7f) + 0x7f7f7f7f7f7f7f7f) | x) >> 7 & 0x0101010101010101
			other |= pack8(nz) << uint(c)
		}
		wall := ^open & cm
		t.wall[i], t.paint[i] = wall, other&^wall&cm
		t.free[i] = cm &^ (wall | t.free[i])
	}
}

// load8 returns the 8 bytes of b from k, little-endian (zeros past the
// end).
func load8(b []byte, k int) uint64 {
	if k+8 <= len(b) {
		return binary.LittleEndian.Uint64(b[k:])
	}
	var buf [8]byte
	copy(buf[:], b[k:])
	return binary.LittleEndian.Uint64(buf[:])
}

// pack8 gathers the lowest bit of each byte of w (bytes 0 or 1) into
// bits 0..7, byte i into bit i.
func pack8(w uint64) uint64 { return (w * 0x0102040810204080) >> 56 }

func b2u64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// diamond sets in b the cells within Manhattan distance r of p.
func (t *targetFields) diamond(b []uint64, p Pos, r int) {
	for x := -r; x <= r; x++ {
		i := p.I + x
		if i < 0 || i >= t.rows {
			continue
		}
		w := r - absInt(x)
		// columns p.J-w .. p.J+w
		lo := max(p.J-w, 0)
		b[i] |= (uint64(1)<<uint(p.J+w-lo+1) - 1) << uint(lo)
	}
}

// colMask is the mask of the board's columns.
func (t *targetFields) colMask() uint64 {
	if t.cols >= 64 {
		return ^uint64(0)
	}
	return uint64(1)<<uint(t.cols) - 1
}

// build computes the witches' targets (t.hunted): the enemy farmers and
// knights within 8 of my farmers and knights, else all of them. (The
// farmers' and knights' sources and walkable cells are computed by
// search.)
func (t *targetFields) build(s *State, me int, k UnitType) {
	if t.cols > 64 {
		return
	}
	rows, cm := t.rows, t.colMask()
	switch k {
	case Witch:
		// The cells within 8 (Manhattan) of my farmers and knights: each
		// row holding some spreads them by 8 - |x| columns to row i + x.
		near := t.near
		clear(near)
		for i := 0; i < rows; i++ {
			m := t.mine[Farmer][i] | t.mine[Knight][i]
			if m == 0 {
				continue
			}
			var spread [9]uint64
			spread[0] = m
			for w := 1; w <= 8; w++ {
				spread[w] = spread[w-1] | spread[w-1]<<1 | spread[w-1]>>1
			}
			for x := max(-8, -i); x <= min(8, rows-1-i); x++ {
				near[i+x] |= spread[8-absInt(x)] & cm
			}
		}
		t.hunted = t.hunted[:0]
		for _, p := range t.preyAt {
			if near[p.I]>>uint(p.J)&1 != 0 {
				t.hunted = append(t.hunted, p)
			}
		}
		if len(t.hunted) == 0 {
			t.hunted = append(t.hunted, t.preyAt...)
		}
	}
}

// search runs type k's field layer by layer until every unit of me's of
// the type is reached (or TargetMaxDist), and writes their rows. The
// layers are padded with an empty row above and below (row i at i+1),
// and each layer is computed over the rows next to the last one's only.
func (t *targetFields) search(s *State, me int, k UnitType, dst []byte) {
	f := &t.kinds[k]
	rows := t.rows
	want, visit, pass := t.want[:rows], t.visit[:rows], f.pass[:rows]
	prev, next := t.layer[0][:rows+2], t.layer[1][:rows+2]
	clear(next)
	prev[0], prev[rows+1] = 0, 0
	left, lo, hi := 0, rows, -1
	cm := t.colMask()
	for i := 0; i < rows; i++ {
		// The sources and the walkable cells (see Targets).
		w := t.mine[k][i]
		var src uint64
		bad := t.haunt[i] | t.sleep[i]
		if k == Farmer {
			src = t.free[i] & t.paint[i] &^ (bad | t.ewitch[i] | t.eknight[i])
		} else {
			y := t.prey[i]
			if i > 0 {
				y |= t.prey[i-1]
			}
			if i+1 < rows {
				y |= t.prey[i+1]
			}
			src = (y | y<<1 | y>>1) & t.free[i] & cm
		}
		pass[i] = (^t.wall[i]&cm)&^(bad|t.enemy[i]) | w
		prev[i+1], visit[i] = src, src
		if src != 0 {
			lo, hi = min(lo, i), i
		}
		if hit := w & src; hit != 0 { // units on a target: distance 0
			w &^= hit
			for ; hit != 0; hit &= hit - 1 {
				t.write(s, me, i, bits.TrailingZeros64(hit), 0, nil, dst)
			}
		}
		want[i] = w
		left += bits.OnesCount64(w)
	}
	diag := f.diag
	// The rows a layer may hold grow by one on each side per layer (rows
	// outside stay empty in both layers).
	a, b := max(lo-1, 0), min(hi+1, rows-1)
	for d := 1; d <= TargetMaxDist && left > 0 && lo <= hi; d++ {
		// Row i of the layers is at i+1: rows a-1 .. b+1 of prev.
		pv, nx := prev[a:b+3], next[a+1:b+2]
		ps, vs, ws := pass[a:b+1], visit[a:b+1], want[a:b+1]
		var any uint64
		for r := range nx {
			up, mid, dn := pv[r], pv[r+1], pv[r+2]
			var x uint64
			if diag {
				y := up | mid | dn
				x = y | y<<1 | y>>1
			} else {
				x = up | dn | mid | mid<<1 | mid>>1
			}
			x &= ps[r] &^ vs[r]
			nx[r] = x
			vs[r] |= x
			any |= x
			if hit := ws[r] & x; hit != 0 {
				ws[r] &^= hit
				left -= bits.OnesCount64(hit)
				for ; hit != 0; hit &= hit - 1 {
					t.write(s, me, a+r, bits.TrailingZeros64(hit), d, prev, dst)
				}
			}
		}
		if any == 0 {
			break
		}
		prev, next = next, prev
		a, b = max(a-1, 0), min(b+1, rows-1)
	}
}

// write fills the row of the unit of me's at cell (i, j) of the view, at
// distance d of its targets; prev holds the cells at distance d-1 (row r
// at r+1).
func (t *targetFields) write(s *State, me, i, j, d int, prev []uint64, dst []byte) {
	r := RealPos(Pos{i, j}, me, t.rows)
	id := int(s.Grid[r.I*t.cols+r.J].ID)
	row := dst[id*TargetFeatures : (id+1)*TargetFeatures]
	if d > 0 {
		step := 2
		if t.kinds[s.Units[id].Type].diag {
			step = 1
		}
		for v := Dir(0); v < None; v += Dir(step) {
			qi, qj := i+dirDI[v], j+dirDJ[v]
			if qi >= 0 && qi < t.rows && qj >= 0 && qj < t.cols && prev[qi+1]>>uint(qj)&1 != 0 {
				row[v] = 1
			}
		}
	}
	row[TargetNear1] = b2u(d <= 1)
	row[TargetNear3] = b2u(d <= 3)
	row[TargetNear7] = b2u(d <= 7)
	row[TargetNear15] = b2u(d <= 15)
}

// huntWide is build's list of the witches' targets on boards wider than
// 64 columns: the enemy farmers and knights within 8 of one of me's
// farmers or knights, else all of them.
func (t *targetFields) huntWide(s *State, me int) {
	t.preyAt, t.hunted = t.preyAt[:0], t.hunted[:0]
	for id := range s.Units {
		u := &s.Units[id]
		if u.Player == me || u.Type == Witch || !s.onGrid(id) {
			continue
		}
		t.preyAt = append(t.preyAt, u.Pos)
		near := false
		for _, l := range [][]int{s.Farmers[me], s.Knights[me]} {
			for _, m := range l {
				near = near || s.onGrid(m) && Manhattan(s.Units[m].Pos, u.Pos) <= 8
			}
		}
		if near {
			t.hunted = append(t.hunted, u.Pos)
		}
	}
	if len(t.hunted) == 0 {
		t.hunted = append(t.hunted, t.preyAt...)
	}
}

// hunt writes the rows of me's witches: the Manhattan distance to the
// nearest of t.hunted, and the orthogonal steps to a cell that is not a
// wall and one nearer. With view, t.hunted and the walls are in me's
// view (scan, cells), else in the real state (huntWide).
func (t *targetFields) hunt(s *State, me int, dst []byte, view bool) {
	for _, id := range s.Witches[me] {
		u := &s.Units[id]
		if u.Player != me || !s.onGrid(id) {
			continue
		}
		p := u.Pos
		if view {
			p = ViewPos(p, me, t.rows)
		}
		d := 1 << 30
		for _, q := range t.hunted {
			d = min(d, absInt(p.I-q.I)+absInt(p.J-q.J))
		}
		if d > TargetMaxDist {
			continue
		}
		// A step is one nearer the nearest when it goes towards one of
		// the targets at distance d.
		var toward [None]bool
		for _, q := range t.hunted {
			if absInt(p.I-q.I)+absInt(p.J-q.J) != d {
				continue
			}
			toward[Bottom] = toward[Bottom] || q.I > p.I
			toward[Top] = toward[Top] || q.I < p.I
			toward[Right] = toward[Right] || q.J > p.J
			toward[Left] = toward[Left] || q.J < p.J
		}
		row := dst[id*TargetFeatures : (id+1)*TargetFeatures]
		for v := Dir(0); v < None; v += 2 {
			if view && !toward[v] || !view && !toward[v.Rotate(me)] {
				continue
			}
			var q Pos
			var wall bool
			if view {
				q = p.Add(v)
				wall = s.OnBoard(q) && t.wall[q.I]>>uint(q.J)&1 != 0
			} else {
				q = p.Add(v.Rotate(me))
				wall = s.OnBoard(q) && s.Grid[q.I*t.cols+q.J].Type == Wall
			}
			if s.OnBoard(q) && !wall {
				row[v] = 1
			}
		}
		row[TargetNear1] = b2u(d <= 1)
		row[TargetNear3] = b2u(d <= 3)
		row[TargetNear7] = b2u(d <= 7)
		row[TargetNear15] = b2u(d <= 15)
	}
}

// numUnitTypes is the number of unit types.
const numUnitTypes = 3

// searchWide is search on boards wider than 64 columns: the whole field
// of type k (Walker.Field over the cells the bitboards would hold), then
// every unit's row from the distances of its cell and its neighbours.
func (t *targetFields) searchWide(s *State, me int, k UnitType, dst []byte) {
	rows, cols := t.rows, t.cols
	cells := rows * cols
	w := &t.walker
	w.Reset(rows, cols)
	if len(t.wpass) != cells {
		t.wpass = make([]bool, cells)
		t.wdist = make([]int16, cells)
	}
	// The cells' flags, as scan and build compute them in bits.
	sleep, ewitch, eknight, haunted := make([]bool, cells), make([]bool, cells), make([]bool, cells), make([]bool, cells)
	stamp := func(b []bool, p Pos, r int) {
		for x := -r; x <= r; x++ {
			for y := -r + absInt(x); y <= r-absInt(x); y++ {
				if q := (Pos{p.I + x, p.J + y}); s.OnBoard(q) {
					b[q.I*cols+q.J] = true
				}
			}
		}
	}
	for p := 0; p < NumPlayers; p++ {
		for _, id := range s.Witches[p] {
			if u := &s.Units[id]; s.onGrid(id) {
				if !u.Active {
					stamp(sleep, u.Pos, 2)
					continue
				}
				stamp(haunted, u.Pos, 2)
				if p != me {
					stamp(ewitch, u.Pos, 3)
				}
			}
		}
	}
	enemyAt := func(c int) *Unit {
		if id := s.Grid[c].ID; id >= 0 && s.Units[id].Player != me {
			return &s.Units[id]
		}
		return nil
	}
	prey := func(c int) bool { u := enemyAt(c); return u != nil && u.Type != Witch }
	for c := 0; c < cells; c++ {
		if u := enemyAt(c); u != nil && u.Type == Knight {
			p := s.Units[s.Grid[c].ID].Pos
			for d := Bottom; d < None; d++ {
				if q := p.Add(d); s.OnBoard(q) {
					eknight[q.I*cols+q.J] = true
				}
			}
		}
	}
	srcs := t.wsrc[:0]
	for c := 0; c < cells; c++ {
		g := &s.Grid[c]
		open := g.Type != Wall
		mine := g.ID >= 0 && s.Units[g.ID].Player == me && s.Units[g.ID].Type == k
		t.wpass[c] = open && !haunted[c] && !sleep[c] && enemyAt(c) == nil || mine
		src := false
		switch k {
		case Farmer:
			src = open && g.ID < 0 && int(g.Owner) != me && !haunted[c] && !sleep[c] && !ewitch[c] && !eknight[c]
		case Knight:
			if open && g.ID < 0 {
				p := Pos{c / cols, c % cols}
				for d := Bottom; d < None && !src; d++ {
					if q := p.Add(d); s.OnBoard(q) && prey(q.I*cols+q.J) {
						src = true
					}
				}
			}
		}
		if src {
			srcs = append(srcs, int32(c))
		}
	}
	t.wsrc = srcs
	w.Field(t.wdist, srcs, k == Knight, t.wpass)
	step := Dir(2)
	if k == Knight {
		step = 1
	}
	for id := range s.Units {
		u := &s.Units[id]
		if u.Player != me || u.Type != k || !s.onGrid(id) {
			continue
		}
		d := int(t.wdist[u.Pos.I*cols+u.Pos.J])
		if d > TargetMaxDist {
			continue
		}
		row := dst[id*TargetFeatures : (id+1)*TargetFeatures]
		for v := Dir(0); v < None && d > 0; v += step {
			if q := u.Pos.Add(v.Rotate(me)); s.OnBoard(q) && int(t.wdist[q.I*cols+q.J]) == d-1 {
				row[v] = 1
			}
		}
		row[TargetNear1] = b2u(d <= 1)
		row[TargetNear3] = b2u(d <= 3)
		row[TargetNear7] = b2u(d <= 7)
		row[TargetNear15] = b2u(d <= 15)
	}
}
