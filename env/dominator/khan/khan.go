package khan

import "jgym/env/dominator"

// Bot is Khan, jgym's strong scripted Dominator bot, the baseline a
// learner has to beat (docs/rules/dominator.md, "Bots"). It plays in its
// view, where it is player 0, and expects the other players to move as the
// course's Dummy does (khanForecast, over dominator.DummyPolicy): every
// unit of theirs to one of the cells the Dummy could choose, uniformly.
// From that forecast it knows, for every cell, how likely an enemy witch's
// step is to haunt it this round and how many enemy knight attacks a unit
// standing there should expect. Then, in this order:
//
//  1. its witches step where they are expected to catch the most enemy
//     farmers and knights (those that stand in the new area, or step into
//     it, die and join Khan), never over one of its own units and never
//     next to its other witch (both would fall asleep), else towards the
//     nearest enemy that comes near Khan's units (they stay home rather
//     than chase enemies across the board);
//  2. its knights attack where a capture is likeliest (the planned damage
//     of the others counted, a prey about to walk away discounted), or
//     walk to the nearest prey;
//  3. its farmers paint: each, nearest first, claims the nearest cell to
//     paint that no other farmer claimed, then takes the step that paints
//     the most (a cell of an enemy's colour counts more) or brings it
//     nearer its cell, against the risk of being haunted or captured this
//     round, and of ending within reach of an enemy witch or knight.
//
// Every choice weighs what it gains against the expected loss of the unit.
// Its units never step into a haunted cell or into the area one of its
// witches is about to haunt, and two of its units never try to enter the
// same cell. It draws no random numbers: a game is deterministic given its
// seed and seats.
//
// Its orders are a function of its view alone: it keeps nothing from one
// round to the next but scratch space, and it ignores its seat and seed.
// Dominator's opt-in expert tensor relies on that (one Bot computes it for
// every seat, env/dominator/expert.go), and so does the exported player's
// C++ port of Khan (env/dominator/expertcpp.go), which must change with
// any change to Khan's decisions (TestCppExportExpertPlaysAsPolicyBot).
type Bot struct {
	w     khanWeights
	m     khanMap
	fc    khanForecast
	risk  []float32 // per cell: probability that a unit there dies of a spell
	dmg   []float32 // per unit id: damage our knights plan to deal this round
	edist []int16   // per cell: walking distance to the nearest enemy
	tdist []int16   // per cell: distance to the nearest cell to paint
	kdist []int16   // per cell: distance to the nearest cell next to prey
	srcs  []int32
	open  []bool          // per cell: not a wall
	pass  []bool          // per cell: a farmer or knight may walk here
	goal  []bool          // per cell: a target of the current searches
	claim []bool          // per cell: a farmer goes to paint it this round
	mine  []int           // our farmers and knights on the grid
	order []int           // our farmers, nearest to a cell to paint first
	wpos  []dominator.Pos // planned positions of our witches
}

// New returns the Khan bot for seat me; it needs no seed.
func New(me, seed int) dominator.Bot { return &Bot{w: khanDefault} }

// init registers the bot in dominator.Def's bots: importing the package
// is what makes "Khan" a seat name (package doc).
func init() { dominator.RegisterBot("Khan", New) }

// khanWeights are what Khan's choices weigh, in cells painted for one
// round.
type khanWeights struct {
	farmer     float32 // a farmer, lost or won
	knight     float32 // a knight, lost or won
	attack     float32 // a knight attack that does not capture
	enemyCell  float32 // painting over an enemy's colour, on top of 1
	nearKnight float32 // ending next to where an enemy knight may stand
	nearWitch  float32 // share of a unit lost by ending within 3 of an enemy witch
	step       float32 // each step of distance to what a unit walks to
	sleep      float32 // risk of a cell near a sleeping witch
	passRisk   float32 // farmers walk over cells less risky than this
	goalRisk   float32 // farmers walk to paint cells less risky than this
	home       float32 // witches hunt enemies within this distance of our units (0: any)
}

// khanDefault are Khan's weights, tuned on seeds 1-400 against three
// DummyClones (benchmarks/notebook/dominator-dummy.md).
var khanDefault = khanWeights{
	farmer:     14,
	knight:     10,
	attack:     1.5,
	enemyCell:  1.2,
	nearKnight: 3,
	nearWitch:  0.8,
	step:       0.3,
	sleep:      0.5,
	passRisk:   0.3,
	goalRisk:   0.2,
	home:       8,
}

// Play gives Khan's orders for one round.
func (k *Bot) Play(v *dominator.State, o *dominator.Orders) {
	k.setup(v)
	k.fc.build(v, &k.m)
	k.riskMap(v)
	k.planWitches(v, o)
	k.planKnights(v, o)
	k.planFarmers(v, o)
}

func (k *Bot) setup(v *dominator.State) {
	n, cells := len(v.Units), len(v.Grid)
	if len(k.dmg) != n {
		k.dmg = make([]float32, n)
	}
	if len(k.risk) != cells {
		k.risk = make([]float32, cells)
		k.open = make([]bool, cells)
		k.pass = make([]bool, cells)
		k.goal = make([]bool, cells)
		k.claim = make([]bool, cells)
		k.edist = make([]int16, cells)
		k.tdist = make([]int16, cells)
		k.kdist = make([]int16, cells)
	}
	clear(k.dmg)
	clear(k.claim)
	k.m.reset(v)
	for c := range k.open {
		k.open[c] = !k.m.wall[c]
	}
	k.mine = k.mine[:0]
	for _, l := range [][]int{v.Farmers[0], v.Knights[0]} {
		for _, id := range l {
			if k.onGrid(v, id) {
				k.mine = append(k.mine, id)
			}
		}
	}
}

// onGrid reports whether unit id stands on the board (lost units do not;
// their position is not even in the view's frame).
func (k *Bot) onGrid(v *dominator.State, id int) bool {
	p := v.Units[id].Pos
	return k.m.in(p) && int(k.m.unit[k.m.idx(p)]) == id
}

// riskMap computes k.risk: the forecast's witch threat, raised near
// sleeping witches (they wake when their neighbour walks away) and to 1 on
// haunted cells (stepping there kills).
func (k *Bot) riskMap(v *dominator.State) {
	m := &k.m
	copy(k.risk, k.fc.witch)
	for p := 0; p < dominator.NumPlayers; p++ {
		for _, id := range v.Witches[p] {
			w := &v.Units[id]
			if !m.in(w.Pos) || w.Active {
				continue
			}
			k.raise(w.Pos, 2, k.w.sleep)
		}
	}
	for c := range k.risk {
		if m.haunt[c] {
			k.risk[c] = 1
		}
	}
}

// raise sets the risk of every cell within distance r of p to at least x.
func (k *Bot) raise(p dominator.Pos, r int, x float32) {
	m := &k.m
	for i := -r; i <= r; i++ {
		for j := -r + absInt(i); j <= r-absInt(i); j++ {
			q := dominator.Pos{I: p.I + i, J: p.J + j}
			if m.in(q) {
				c := m.idx(q)
				k.risk[c] = max(k.risk[c], x)
			}
		}
	}
}

// prey reports whether unit x is an enemy farmer or knight.
func (k *Bot) prey(v *dominator.State, x int) bool {
	u := &v.Units[x]
	return u.Player != 0 && u.Type != dominator.Witch
}

// value is what a unit of the given type is worth to Khan.
func (k *Bot) value(t dominator.UnitType) float32 {
	if t == dominator.Farmer {
		return k.w.farmer
	}
	return k.w.knight
}

// killChance returns the probability that one knight attack (60 to 90 of
// damage by default) brings health h to 0 or below.
func killChance(cfg *dominator.Config, h float32) float32 {
	lo, hi := float32(cfg.DamageMin), float32(cfg.DamageMax)
	switch {
	case h <= lo:
		return 1
	case h > hi:
		return 0
	}
	return (hi - h + 1) / (hi - lo + 1)
}

// attacked returns the probability that a unit of ours of health h at
// cell c is captured by enemy knights this round if it stays (moving
// away, half of it).
func (k *Bot) attacked(v *dominator.State, c int, h int) float32 {
	hits := k.fc.hit[c]
	if hits == 0 {
		return 0
	}
	mean := float32(v.Cfg.DamageMin+v.Cfg.DamageMax) / 2
	p := killChance(v.Cfg, float32(h))
	if hits > 1 {
		p = max(p, killChance(v.Cfg, float32(h)-mean*(hits-1)))
	}
	return min(hits, 1) * p
}
