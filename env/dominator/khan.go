package dominator

// Khan is jgym's strong scripted Dominator bot, the baseline a learner has
// to beat (docs/rules/dominator.md, "Bots"). It plays in its view, where
// it is player 0. Every round it:
//
//  1. marks the dangerous cells: haunted ones, those within 2 of any witch
//     (an inactive witch may wake up when another one walks away), those
//     within 3 of an enemy witch that has been walking lately, and those
//     next to enemy knights;
//  2. walks its witches towards the enemy farmers and knights, taking the
//     step that puts the most of them in the witch's area (they die and
//     join Khan), never over one of its own units and never next to its
//     other witch (both would fall asleep);
//  3. lets its knights attack the weakest adjacent enemy farmer or knight,
//     spreading the kills, or walk to the nearest one, two knights per
//     prey at most;
//  4. sends every farmer to the nearest cell not yet of its colour that no
//     other farmer claimed, by a safe path, painting a cell every round.
//
// Its units never step into a cell a witch may haunt, and two of its units
// never try to enter the same cell. It draws no random numbers: a game is
// deterministic given its seed and seats.
type Khan struct {
	m        khanMap
	round    int
	lastPos  []Pos // per unit id: position in the last round seen
	lastMove []int // per unit id: last round a witch moved
	dmg      []int // per unit id: damage our knights plan to deal this round
	hunters  []int8
	edist    []int16 // per cell: walking distance to the nearest enemy
	tdist    []int16 // per cell: distance to the nearest farmer target
	kdist    []int16 // per cell: distance to the nearest cell next to prey
	preyNear []bool  // per cell: next to an enemy farmer or knight
	srcs     []int32
	open     []bool // per cell: not a wall
	pass     []bool // per cell: a farmer or knight may walk here
	goal     []bool // per cell: a target of the current searches
	mine     []int  // our farmers and knights
}

// NewKhan returns the Khan bot for seat me; it needs no seed.
func NewKhan(me, seed int) Bot { return &Khan{} }

func init() { RegisterBot("Khan", NewKhan) }

// Play gives Khan's orders for one round.
func (k *Khan) Play(v *State, o *Orders) {
	n := len(v.Units)
	if len(k.lastPos) != n {
		k.lastPos = make([]Pos, n)
		k.lastMove = make([]int, n)
		k.dmg = make([]int, n)
		k.hunters = make([]int8, n)
		for id := range k.lastMove {
			k.lastMove[id] = -1000
			k.lastPos[id] = v.Units[id].Pos
		}
	}
	if len(k.edist) != len(v.Grid) {
		k.open = make([]bool, len(v.Grid))
		k.pass = make([]bool, len(v.Grid))
		k.goal = make([]bool, len(v.Grid))
		k.edist = make([]int16, len(v.Grid))
		k.tdist = make([]int16, len(v.Grid))
		k.kdist = make([]int16, len(v.Grid))
		k.preyNear = make([]bool, len(v.Grid))
	}
	k.round = v.Round
	for id := range v.Units {
		k.dmg[id], k.hunters[id] = 0, 0
	}
	k.m.reset(v)
	for c := range k.open {
		k.open[c] = !k.m.wall[c]
	}
	k.trackWitches(v)
	k.markDanger(v)
	k.enemyDistances(v)
	k.mine = k.mine[:0]
	for _, id := range v.Farmers[0] {
		if k.onGrid(v, id) {
			k.mine = append(k.mine, id)
		}
	}
	for _, id := range v.Knights[0] {
		if k.onGrid(v, id) {
			k.mine = append(k.mine, id)
		}
	}
	k.planWitches(v, o)
	k.planKnights(v, o)
	k.planFarmers(v, o)
}

// onGrid reports whether unit id stands on the board (lost units do not;
// their position is not even in the view's frame).
func (k *Khan) onGrid(v *State, id int) bool {
	p := v.Units[id].Pos
	return k.m.in(p) && int(k.m.unit[k.m.idx(p)]) == id
}

// trackWitches notes the round each witch last moved.
func (k *Khan) trackWitches(v *State) {
	for p := 0; p < NumPlayers; p++ {
		for _, id := range v.Witches[p] {
			if pos := v.Units[id].Pos; pos != k.lastPos[id] {
				k.lastMove[id] = v.Round - 1
				k.lastPos[id] = pos
			}
		}
	}
}

func (k *Khan) markDanger(v *State) {
	m := &k.m
	for p := 0; p < NumPlayers; p++ {
		for _, id := range v.Witches[p] {
			w := v.Units[id].Pos
			if !m.in(w) {
				continue
			}
			m.stampDiamond(w, 2, dangerWitch)
			if p != 0 && (v.Round < 4 || v.Round-k.lastMove[id] <= 3) {
				m.stampDiamond(w, 3, dangerReach)
			}
		}
	}
	for id := range v.Units {
		u := &v.Units[id]
		if u.Player == 0 || u.Type != Knight || !k.onGrid(v, id) {
			continue
		}
		for _, d := range allDirs {
			if q := u.Pos.Add(d); m.in(q) {
				m.danger[m.idx(q)] |= dangerKnight
			}
		}
	}
}

// deadly are the flags of cells where a farmer or knight must not go.
const deadly = dangerHaunted | dangerWitch | dangerReach | dangerOwnWitch

// enemyDistances computes k.edist: the orthogonal walking distance from
// every cell to the nearest enemy farmer or knight, walls excepted.
func (k *Khan) enemyDistances(v *State) {
	k.srcs = k.srcs[:0]
	for id := range v.Units {
		if k.prey(v, id) && k.onGrid(v, id) {
			k.srcs = append(k.srcs, int32(k.m.idx(v.Units[id].Pos)))
		}
	}
	k.m.field(k.edist, k.srcs, false, k.open)
}

// planWitches walks each witch towards the enemy (see Khan).
func (k *Khan) planWitches(v *State, o *Orders) {
	m := &k.m
	ws := v.Witches[0]
	planned := make([]Pos, len(ws))
	for i, id := range ws {
		planned[i] = v.Units[id].Pos
	}
	for i, id := range ws {
		p := v.Units[id].Pos
		if !m.in(p) {
			continue
		}
		best, bestScore := None, k.witchScore(v, p, -1)
		for _, d := range orthDirs {
			t := p.Add(d)
			if !m.in(t) || !m.free(m.idx(t)) || !k.witchSafe(v, t, planned, i) {
				continue
			}
			if s := k.witchScore(v, t, p.I*m.n+p.J); s > bestScore {
				best, bestScore = d, s
			}
		}
		t := p.Add(best)
		planned[i] = t
		m.taken[m.idx(t)] = true
		m.stampDiamond(t, 2, dangerOwnWitch)
		if best != None {
			o.Command(id, best)
		}
	}
}

// witchSafe reports whether witch i may step to t: no farmer or knight of
// ours within 2 of t, and our other witches more than 2 away.
func (k *Khan) witchSafe(v *State, t Pos, planned []Pos, i int) bool {
	for _, id := range k.mine {
		if Manhattan(v.Units[id].Pos, t) <= 2 {
			return false
		}
	}
	for j, q := range planned {
		if j != i && Manhattan(q, t) <= 2 {
			return false
		}
		if j != i && Manhattan(v.Units[v.Witches[0][j]].Pos, t) <= 2 {
			return false
		}
	}
	return true
}

// witchScore values a witch standing at t: enemies in its area, then
// closeness to the others. from is the cell it leaves (-1 for staying).
func (k *Khan) witchScore(v *State, t Pos, from int) int {
	m := &k.m
	kills := 0
	if from >= 0 {
		for x := -2; x <= 2; x++ {
			for y := -2 + absInt(x); y <= 2-absInt(x); y++ {
				q := Pos{t.I + x, t.J + y}
				if !m.in(q) {
					continue
				}
				if id := m.unit[m.idx(q)]; id >= 0 && v.Units[id].Player != 0 && v.Units[id].Type != Witch {
					kills++
				}
			}
		}
	}
	return 1000*kills - int(k.edist[m.idx(t)])
}

// planKnights attacks or hunts with every knight (see Khan).
func (k *Khan) planKnights(v *State, o *Orders) {
	m := &k.m
	clear(k.preyNear)
	nb := m.neighbours()
	nprey := 0
	for id := range v.Units {
		if !k.prey(v, id) || !k.onGrid(v, id) {
			continue
		}
		nprey++
		c := m.idx(v.Units[id].Pos)
		for d := 0; d < 8; d++ {
			if x := nb[8*c+d]; x >= 0 {
				k.preyNear[x] = true
			}
		}
	}
	k.walkable(v)
	k.srcs = k.srcs[:0]
	for c, near := range k.preyNear {
		k.goal[c] = near && m.unit[c] < 0 && !m.wall[c]
		if k.goal[c] {
			k.srcs = append(k.srcs, int32(c))
		}
	}
	m.field(k.kdist, k.srcs, true, k.pass)
	hunt := func(c int) bool {
		for d := 0; d < 8; d++ {
			q := nb[8*c+d]
			if q < 0 {
				continue
			}
			if x := m.unit[q]; x >= 0 && k.prey(v, int(x)) && k.hunters[x] < 2 {
				k.hunters[x]++
				return true
			}
		}
		return false
	}
	for _, id := range v.Knights[0] {
		if !k.onGrid(v, id) {
			continue
		}
		u := &v.Units[id]
		if d, ok := k.bestAttack(v, u); ok {
			o.Command(id, d)
			continue
		}
		from := m.idx(u.Pos)
		best := int(k.kdist[from])
		if nprey == 0 || best >= unreachable {
			continue
		}
		_, first, ok := m.search(from, true, best+3, k.pass, k.goal, hunt)
		if !ok {
			if first, ok = k.descend(k.kdist, from, true, deadly); !ok {
				continue
			}
		}
		t := m.idx(u.Pos.Add(first))
		if m.free(t) {
			m.taken[t] = true
			o.Command(id, first)
		}
	}
}

// walkable marks in k.pass the cells a farmer or knight may walk over:
// not dangerous, and free or held by one of ours (who may move away).
func (k *Khan) walkable(v *State) {
	m := &k.m
	for c := range k.pass {
		k.pass[c] = !m.wall[c] && m.danger[c]&deadly == 0 && (m.unit[c] < 0 || v.Units[m.unit[c]].Player == 0)
	}
}

// prey reports whether unit x is an enemy farmer or knight.
func (k *Khan) prey(v *State, x int) bool {
	u := &v.Units[x]
	return u.Player != 0 && u.Type != Witch
}

// bestAttack chooses the adjacent prey with the least health left after
// the attacks planned so far, farmers first on ties.
func (k *Khan) bestAttack(v *State, u *Unit) (Dir, bool) {
	m := &k.m
	best, bestLeft := None, 1<<30
	target := -1
	for _, d := range allDirs {
		q := u.Pos.Add(d)
		if !m.in(q) {
			continue
		}
		x := m.unit[m.idx(q)]
		if x < 0 || !k.prey(v, int(x)) {
			continue
		}
		left := v.Units[x].Health - k.dmg[x]
		if v.Units[x].Type == Knight {
			left++
		}
		if left > 0 && left < bestLeft {
			best, bestLeft, target = d, left, int(x)
		}
	}
	if target < 0 {
		return None, false
	}
	k.dmg[target] += 75
	return best, true
}

// planFarmers sends every farmer to paint (see Khan).
func (k *Khan) planFarmers(v *State, o *Orders) {
	m := &k.m
	k.walkable(v)
	k.srcs = k.srcs[:0]
	for c := range v.Grid {
		k.goal[c] = v.Grid[c].Owner != 0 && !m.wall[c] && m.unit[c] < 0 && m.danger[c]&(deadly|dangerKnight) == 0
		if k.goal[c] {
			k.srcs = append(k.srcs, int32(c))
		}
	}
	m.field(k.tdist, k.srcs, false, k.pass)
	for _, id := range v.Farmers[0] {
		if !k.onGrid(v, id) {
			continue
		}
		u := &v.Units[id]
		from := m.idx(u.Pos)
		best := int(k.tdist[from])
		if best >= unreachable {
			continue
		}
		cell, first, ok := m.search(from, false, best+4, k.pass, k.goal, nil)
		if ok {
			k.goal[cell] = false // claimed
		} else if first, ok = k.descend(k.tdist, from, false, deadly|dangerKnight); !ok {
			continue
		}
		t := m.idx(u.Pos.Add(first))
		if !m.free(t) || m.danger[t]&(deadly|dangerKnight) != 0 {
			continue
		}
		m.taken[t] = true
		o.Command(id, first)
	}
}

// descend returns a step from cell c to a free, safe neighbour closer to
// a target of the distance field dist.
func (k *Khan) descend(dist []int16, c int, diag bool, avoid uint8) (Dir, bool) {
	m := &k.m
	nb := m.neighbours()
	for d := Bottom; d < None; d++ {
		if d.Diagonal() && !diag {
			continue
		}
		x := nb[8*c+int(d)]
		if x >= 0 && dist[x] < dist[c] && m.free(int(x)) && m.danger[x]&avoid == 0 {
			return d, true
		}
	}
	return None, false
}
