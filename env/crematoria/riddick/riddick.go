package riddick

import "jgym/env/crematoria"

// Bot is Riddick, the strong scripted baseline of jgym, the bot a learner
// has to beat (docs/bots.md). Every round it:
//
//  1. builds threat maps: the cells a hellhound may devour this round (the
//     3x3 squares around every cell a hellhound can step to), walking
//     distances from the hellhounds, cells near enemy Furyans and
//     necromongers, the landing cells of necromongers;
//  2. lets its Furyans attack adjacent enemy Furyans and Pioneers, likely
//     kills first: command k of every player runs before command k+1 of any
//     player (SPEC §8.3), and a unit killed early loses its own orders;
//  3. moves its units outside (gem hunters) before the sun burns them;
//  4. sends Pioneers to gems when the round trip (walk to an elevator, up,
//     to the gem, to an elevator that is still dark, down) pays off;
//  5. moves the other Pioneers towards the nearest cave cell it does not
//     own (open areas first), each in its own region of a multi-source
//     breadth-first search so that they spread out; endangered ones move
//     first, keep away from enemy Furyans and never stop where a hellhound
//     could corner them within three rounds;
//  6. moves its Furyans towards the nearest enemy Pioneer the same way.
//
// It draws no random numbers: its orders depend only on the state, so a
// game is deterministic given its seed and seats.
type Bot struct {
	p        params
	me       int
	m        *riddickMap
	s        *crematoria.State
	o        *crematoria.Orders
	R, last  int
	final    bool
	gemValue float64

	occ  [crematoria.NumCells]int16 // planned occupancy after the orders given so far
	done []bool                     // per unit id: decided this round

	// threats on level-0 nodes
	deadEnd  []bool  // a hellhound may devour a unit standing here at the end of the round
	deadStep []bool  // stepping here kills at once (next to a hellhound)
	hhDist   []int16 // walking distance from the nearest hellhound
	near     []bool  // hhDist <= 3: not a target, not on any path
	hh       []int16 // nodes of the hellhounds
	srcs     []int16
	queue    []int16
	// threats per cell of both levels
	efAdj   [crematoria.NumCells]uint8 // enemy Furyans within Chebyshev distance 1
	efNear  [crematoria.NumCells]uint8 // enemy Furyans at Chebyshev distance 2
	necAdj  [crematoria.LevelCells]uint8
	necNear [crematoria.LevelCells]uint8
	landing [crematoria.LevelCells]bool // a necromonger lands here this round

	tval    []int8 // pioneer targets per node: 0 none, 2 unowned cave, 3 enemy cave
	dense   []int8 // per node: targetValue's open-area bonus, -1 not computed yet
	ftval   []int8 // furyan targets per node
	vo      *voronoi
	distT   []int16 // distance to the nearest pioneer target (computed on demand)
	distOK  bool
	distF   []int16 // distance to the nearest furyan target (computed on demand)
	distFK  bool
	hpLeft  []int   // per unit id: expected health after this round's attacks
	firstOf []int16 // per unit id: first step towards its target, or -1
	busy    []bool  // per unit id: deciding, waiting for a unit to make room
	depth   int     // nesting of those requests

	gems      []rGem
	exitClaim []int      // per elevator: our units outside planning to go down there
	reserved  []bool     // per node: elevator cell to keep free for our units coming down
	missions  []rMission // per unit id
	mval      []float64  // planMissions: value of each (gem, Pioneer) pair
	melev     []int16    // and its elevator
	attacks   []rAttack
	pios      []int // scratch lists of unit ids
	later     []int
}

// params are the weights of the Riddick bot.
type params struct {
	OutsideMove float64 // value of one Pioneer move (what a move outside costs)
	WalkMove    float64 // cost of a move walking to an elevator (it still conquers)
	DeathRound  float64 // loss per remaining round when a Pioneer dies
	MissionNew  float64 // minimum value to start a gem mission
	MissionKeep float64 // minimum value to keep one
	MaxWalk     int     // longest walk to an elevator for a gem mission
	ExitMargin  int     // spare night columns when reaching the exit elevator
	FirstStep   float64 // bonus of the first step towards the unit's target
	// Ef[d-1] is the risk of a Pioneer ending the round at Chebyshev
	// distance d of an enemy Furyan; HH[d-3] of ending at walking distance
	// d of a hellhound.
	Ef [2]float64
	HH [3]float64
	// ExitRisk[s] is the risk of reaching the exit elevator with s rounds
	// of night to spare (3 or more: ExitRisk[3]).
	ExitRisk [4]float64
	// Reserved is the cost for a unit underground of ending the round on
	// an elevator one of our units outside wants to come down.
	Reserved float64
	// AttackFuryans is the attack priority of an enemy Furyan relative to
	// an enemy Pioneer (1: same).
	AttackFuryans float64
	// KillFirst is added to the kill chance of attacks on Furyans when
	// ordering the attacks (0: by kill chance only; negative: disables
	// the ordering, attacks go in Furyan id order).
	KillFirst float64
	// Dense: a cave target with at least this many neighbours we do not
	// own is worth one more (0: off).
	Dense int
}

// defaults are the weights of the registered Riddick.
var defaults = params{
	OutsideMove: 1, WalkMove: 0.5, DeathRound: 1.5, MissionNew: 4, MissionKeep: 0,
	MaxWalk: 30, ExitMargin: 2, FirstStep: 10,
	Ef: [2]float64{40, 16}, HH: [3]float64{6, 2.5, 1},
	ExitRisk: [4]float64{6, 2, 0.5, 0}, Reserved: 5, AttackFuryans: 1.5, KillFirst: 0.5, Dense: 5,
}

// rkHorizon is the number of rounds of look-ahead of the gem plans.
const rkHorizon = 48

// init registers the bot in crematoria.Def's bots: importing the package
// is what makes "Riddick" a seat name (package doc).
func init() { crematoria.RegisterBot("Riddick", New) }

// New returns the Riddick bot for seat me. It is deterministic and
// does not use the seed.
func New(me, seed int) crematoria.Bot { return &Bot{me: me, p: defaults} }

// Play gives Riddick's orders for one round, most urgent first.
func (b *Bot) Play(s *crematoria.State, o *crematoria.Orders) {
	if b.m == nil {
		b.init(s)
	}
	b.s, b.o = s, o
	b.R, b.last = s.Round, s.Cfg.NbRounds-1
	b.final = b.R >= b.last
	b.gemValue = float64(s.Cfg.GemValue)
	b.prepare()
	b.furyanAttacks()
	b.outside()
	b.planMissions()
	b.ground()
	b.furyanMoves()
}

func (b *Bot) init(s *crematoria.State) {
	b.m = newRiddickMap(s)
	n := b.m.n
	b.deadEnd = make([]bool, n)
	b.deadStep = make([]bool, n)
	b.hhDist = make([]int16, n)
	b.near = make([]bool, n)
	b.queue = make([]int16, 0, n)
	b.tval = make([]int8, n)
	b.dense = make([]int8, n)
	b.ftval = make([]int8, n)
	b.distT = make([]int16, n)
	b.distF = make([]int16, n)
	b.vo = newVoronoi(n)
	b.done = make([]bool, len(s.Units))
	b.hpLeft = make([]int, len(s.Units))
	b.firstOf = make([]int16, len(s.Units))
	b.busy = make([]bool, len(s.Units))
	b.missions = make([]rMission, len(s.Units))
	b.exitClaim = make([]int, len(b.m.elev))
	b.reserved = make([]bool, n)
	for i := range b.missions {
		b.missions[i] = rMission{gem: -1}
	}
}

// prepare copies the occupancy and builds the threat maps and targets.
func (b *Bot) prepare() {
	s, m := b.s, b.m
	for idx := range s.Cells {
		b.occ[idx] = s.Cells[idx].ID
	}
	for id := range b.done {
		b.done[id] = false
		b.hpLeft[id] = s.Units[id].Health
		b.firstOf[id] = -1
	}
	for v := 0; v < m.n; v++ {
		b.deadEnd[v], b.deadStep[v], b.reserved[v] = false, false, false
	}
	for e := range b.exitClaim {
		b.exitClaim[e] = 0
	}
	b.efAdj, b.efNear = [crematoria.NumCells]uint8{}, [crematoria.NumCells]uint8{}
	b.necAdj, b.necNear, b.landing = [crematoria.LevelCells]uint8{}, [crematoria.LevelCells]uint8{}, [crematoria.LevelCells]bool{}
	b.distOK, b.distFK = false, false

	// Hellhounds: a unit next to a hellhound's cell dies when it steps
	// there; a unit next to any cell the hellhound can step to may be
	// devoured at the end of the round.
	b.srcs = b.srcs[:0]
	for _, h := range s.Hellhounds {
		p := s.Units[h].Pos
		if p.K != 0 || !p.OnBoard() {
			continue
		}
		v := m.node[p.I*crematoria.Cols+p.J]
		if v < 0 {
			continue
		}
		b.srcs = append(b.srcs, v)
		b.markNodes(b.deadStep, p.I, p.J)
		for _, t := range m.nbr[v] {
			if t >= 0 {
				b.markNodes(b.deadEnd, int(m.row[t]), int(m.col[t]))
			}
		}
	}
	m.distances(b.hhDist, b.queue, b.srcs, nil, 7)
	b.hh = append(b.hh[:0], b.srcs...)
	for v := 0; v < m.n; v++ {
		b.near[v] = b.hhDist[v] <= 3 || b.deadEnd[v]
	}

	for g := 0; g < crematoria.NumPlayers; g++ {
		if g == b.me {
			continue
		}
		for _, id := range s.Furyans[g] {
			p := s.Units[id].Pos
			if !p.OnBoard() {
				continue
			}
			for a := -2; a <= 2; a++ {
				i := p.I + a
				if i < 0 || i >= crematoria.Rows {
					continue
				}
				for c := -2; c <= 2; c++ {
					idx := p.K*crematoria.LevelCells + i*crematoria.Cols + (p.J+c+crematoria.Cols)%crematoria.Cols
					if max(a, -a, c, -c) <= 1 {
						b.efAdj[idx]++
					} else {
						b.efNear[idx]++
					}
				}
			}
		}
	}
	for _, id := range s.Necromongers {
		u := &s.Units[id]
		if u.Health <= 0 || !u.Pos.OnBoard() {
			continue
		}
		switch u.Turns {
		case 0:
			for a := -2; a <= 2; a++ {
				i := u.Pos.I + a
				if i < 0 || i >= crematoria.Rows {
					continue
				}
				for c := -2; c <= 2; c++ {
					idx := i*crematoria.Cols + (u.Pos.J+c+crematoria.Cols)%crematoria.Cols
					if a >= -1 && a <= 1 && c >= -1 && c <= 1 {
						b.necAdj[idx]++
					} else {
						b.necNear[idx]++
					}
				}
			}
		case 1:
			b.landing[u.Pos.I*crematoria.Cols+u.Pos.J] = true
		}
	}

	for v := 0; v < m.n; v++ {
		c := &s.Cells[m.cell[v]]
		b.tval[v], b.ftval[v], b.dense[v] = 0, 0, -1
		if b.near[v] {
			continue
		}
		if c.Type == crematoria.Cave && int(c.Owner) != b.me {
			b.tval[v] = 2
			if c.Owner >= 0 {
				b.tval[v] = 3
			}
		}
		if c.ID >= 0 {
			u := &s.Units[c.ID]
			if u.Player >= 0 && u.Player != b.me && u.Type == crematoria.Pioneer {
				b.ftval[v] = 3
			}
		}
	}
	b.scanGems()
}

// markNodes marks the level-0 nodes of the 3x3 square around (i, j).
func (b *Bot) markNodes(mark []bool, i, j int) {
	for a := -1; a <= 1; a++ {
		ni := i + a
		if ni < 0 || ni >= crematoria.Rows {
			continue
		}
		for c := -1; c <= 1; c++ {
			if v := b.m.node[ni*crematoria.Cols+(j+c+crematoria.Cols)%crematoria.Cols]; v >= 0 {
				mark[v] = true
			}
		}
	}
}

// order gives unit u the order to go in direction d (None: stay) and
// updates the planned occupancy.
func (b *Bot) order(u *crematoria.Unit, d crematoria.Dir) {
	b.done[u.ID] = true
	if d == crematoria.None {
		return
	}
	b.o.Command(u.ID, d)
	to := u.Pos.Add(d)
	if !to.OnBoard() {
		return
	}
	ti := to.Index()
	if b.occ[ti] < 0 {
		b.occ[u.Pos.Index()] = -1
		b.occ[ti] = int16(u.ID)
	}
}

// free reports whether the cell idx is free in the planned occupancy.
func (b *Bot) free(idx int) bool { return b.occ[idx] < 0 }

// ownUndecided reports whether the cell idx holds one of our units that has
// no order yet.
func (b *Bot) ownUndecided(idx int) bool {
	id := b.occ[idx]
	return id >= 0 && b.s.Units[id].Player == b.me && !b.done[id]
}

// targetValue is the value of node v as a Pioneer target: tval, plus one
// in open areas (at least Dense neighbours we do not own). The bonus is
// computed when first needed in a round.
func (b *Bot) targetValue(v int16) int8 {
	t := b.tval[v]
	if t == 0 || b.p.Dense <= 0 {
		return t
	}
	if b.dense[v] < 0 {
		b.dense[v] = 0
		if b.openAround(v) >= b.p.Dense {
			b.dense[v] = 1
		}
	}
	return t + b.dense[v]
}

// openAround counts the cave cells around node v that we do not own.
func (b *Bot) openAround(v int16) int {
	n := 0
	for _, w := range b.m.nbr[v] {
		if w >= 0 {
			if c := &b.s.Cells[b.m.cell[w]]; c.Type == crematoria.Cave && int(c.Owner) != b.me {
				n++
			}
		}
	}
	return n
}
