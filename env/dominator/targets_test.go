package dominator

import (
	"testing"
)

// targetsByRules computes the targets tensor of seat me the way
// docs/observation.md states it, on me's rotated view (where me is
// player 0 and directions are me's), with plain breadth-first searches
// from a queue of positions: the encoder's bitboards and rotations are
// not used.
func targetsByRules(s *State, me int) []byte {
	var v State
	s.View(me, &v)
	n := v.Cfg.Rows
	at := func(p Pos) *Cell { return &v.Grid[p.I*n+p.J] }
	on := func(id int) bool {
		p := v.Units[id].Pos
		return v.OnBoard(p) && int(at(p).ID) == id
	}
	unitAt := func(p Pos) *Unit {
		if id := at(p).ID; id >= 0 {
			return &v.Units[id]
		}
		return nil
	}
	near := func(p Pos, r int, ok func(u *Unit, id int) bool) bool {
		for id := range v.Units {
			if on(id) && ok(&v.Units[id], id) && Manhattan(v.Units[id].Pos, p) <= r {
				return true
			}
		}
		return false
	}
	sleeping := func(p Pos) bool {
		return near(p, 2, func(u *Unit, _ int) bool { return u.Type == Witch && !u.Active })
	}
	enemyWitch := func(p Pos) bool {
		return near(p, 3, func(u *Unit, _ int) bool { return u.Type == Witch && u.Active && u.Player != 0 })
	}
	chebyshev := func(p, q Pos) int { return max(absInt(p.I-q.I), absInt(p.J-q.J)) }
	enemyKnight := func(p Pos) bool {
		for id := range v.Units {
			u := &v.Units[id]
			if on(id) && u.Type == Knight && u.Player != 0 && chebyshev(u.Pos, p) == 1 {
				return true
			}
		}
		return false
	}
	prey := func(p Pos) bool { u := unitAt(p); return u != nil && u.Player != 0 && u.Type != Witch }
	out := make([]byte, len(v.Units)*TargetFeatures)
	for _, k := range []UnitType{Farmer, Knight} {
		var srcs []Pos
		pass := map[Pos]bool{}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				p := Pos{i, j}
				c := at(p)
				open := c.Type != Wall
				u := unitAt(p)
				mineK := u != nil && u.Player == 0 && u.Type == k
				enemy := u != nil && u.Player != 0
				pass[p] = mineK || open && !c.Haunted && !sleeping(p) && !enemy
				switch k {
				case Farmer:
					if open && u == nil && c.Owner != 0 && !c.Haunted && !sleeping(p) && !enemyWitch(p) && !enemyKnight(p) {
						srcs = append(srcs, p)
					}
				case Knight:
					if open && u == nil {
						for d := Bottom; d < None; d++ {
							if q := p.Add(d); v.OnBoard(q) && prey(q) {
								srcs = append(srcs, p)
								break
							}
						}
					}
				}
			}
		}
		dist := map[Pos]int{}
		queue := []Pos{}
		for _, p := range srcs {
			dist[p] = 0
			queue = append(queue, p)
		}
		step := Dir(2)
		if k == Knight {
			step = 1
		}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for d := Dir(0); d < None; d += step {
				q := p.Add(d)
				if _, seen := dist[q]; !v.OnBoard(q) || seen || !pass[q] {
					continue
				}
				dist[q] = dist[p] + 1
				queue = append(queue, q)
			}
		}
		for id := range v.Units {
			u := &v.Units[id]
			if u.Player != 0 || u.Type != k || !on(id) {
				continue
			}
			d, ok := dist[u.Pos]
			if !ok || d > TargetMaxDist {
				continue
			}
			row := out[id*TargetFeatures:]
			for e := Dir(0); e < None && d > 0; e += step {
				if x, ok := dist[u.Pos.Add(e)]; ok && x == d-1 {
					row[e] = 1
				}
			}
			row[TargetNear1] = b2u(d <= 1)
			row[TargetNear3] = b2u(d <= 3)
			row[TargetNear7] = b2u(d <= 7)
			row[TargetNear15] = b2u(d <= 15)
		}
	}
	// Witches: the Manhattan distance to the nearest enemy farmer or
	// knight within 8 of one of my farmers or knights (of any if none is).
	var hunted, all []Pos
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if p := (Pos{i, j}); prey(p) {
				all = append(all, p)
				if near(p, 8, func(w *Unit, _ int) bool { return w.Player == 0 && w.Type != Witch }) {
					hunted = append(hunted, p)
				}
			}
		}
	}
	if len(hunted) == 0 {
		hunted = all
	}
	nearest := func(p Pos) int {
		d := 1 << 30
		for _, q := range hunted {
			d = min(d, Manhattan(p, q))
		}
		return d
	}
	for id := range v.Units {
		u := &v.Units[id]
		if u.Player != 0 || u.Type != Witch || !on(id) || len(hunted) == 0 {
			continue
		}
		d := nearest(u.Pos)
		if d > TargetMaxDist {
			continue
		}
		row := out[id*TargetFeatures:]
		for e := Bottom; e < None && d > 0; e += 2 {
			if q := u.Pos.Add(e); v.OnBoard(q) && at(q).Type != Wall && nearest(q) == d-1 {
				row[e] = 1
			}
		}
		row[TargetNear1] = b2u(d <= 1)
		row[TargetNear3] = b2u(d <= 3)
		row[TargetNear7] = b2u(d <= 7)
		row[TargetNear15] = b2u(d <= 15)
	}
	return out
}

// The targets tensor (bitboard searches on the real state, turned to the
// seat's frame) is the one the rules give on the seat's view, for every
// seat, every few rounds of Demo and Dummy games, on default, FIXED and
// crowded boards; and the wide boards' searches (Walker) give it too.
func TestTargetsByRules(t *testing.T) {
	for _, c := range []struct {
		cfg  string
		seed int
	}{{"default", 3}, {"default", 8}, {"fixed2", 5}, {"generator3", 2}} {
		cfg, err := ShippedConfig(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		g, err := New(cfg, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		var ob, wide, enc Observer
		var rounds, units, set int
		for r := 0; r < 200 && !g.Done(); r += 9 {
			for me := 0; me < NumPlayers; me++ {
				want := targetsByRules(&g.State, me)
				got := make([]byte, len(want))
				ob.Targets(&g.State, me, got)
				for id := 0; id < len(g.Units); id++ {
					a, b := got[id*TargetFeatures:(id+1)*TargetFeatures], want[id*TargetFeatures:(id+1)*TargetFeatures]
					if string(a) != string(b) {
						t.Fatalf("%s seed %d round %d seat %d unit %d (%v): targets %v, by the rules %v",
							c.cfg, c.seed, g.Round, me, id, g.Units[id].Type, a, b)
					}
					if b[TargetNear15] != 0 {
						units++
					}
					for _, x := range b {
						set += int(x)
					}
				}
				// Encode, whose board fills the searches' cell bitboards.
				sp, err := specFor(g.Cfg)
				if err != nil {
					t.Fatal(err)
				}
				obs := make([][]byte, len(sp.Observation))
				for i, ts := range sp.Observation {
					obs[i] = make([]byte, ts.Bytes())
				}
				enc.Encode(&g.State, me, obs)
				if string(obs[5]) != string(want) {
					t.Fatalf("%s seed %d round %d seat %d: Encode's targets differ from the rules", c.cfg, c.seed, g.Round, me)
				}
				// The wide boards' searches on the same state.
				wide.targets.reset(g.Cfg.Rows, g.Cfg.Cols)
				wide.targets.cols = 65 // scan and build take the wide path
				wide.targets.scan(&g.State, me)
				wide.targets.cols = g.Cfg.Cols
				w := make([]byte, len(want))
				for k := UnitType(0); k < numUnitTypes; k++ {
					switch {
					case !wide.targets.has[k]:
					case k == Witch:
						wide.targets.huntWide(&g.State, me)
						wide.targets.hunt(&g.State, me, w, false)
					default:
						wide.targets.searchWide(&g.State, me, k, w)
					}
				}
				if string(w) != string(want) {
					t.Fatalf("%s seed %d round %d seat %d: the wide searches differ from the rules", c.cfg, c.seed, g.Round, me)
				}
			}
			rounds++
			playRounds(t, g, 9, nil)
		}
		if units == 0 || set < 10*rounds {
			t.Errorf("%s seed %d: %d units within 15 of a target, %d bits set in %d rounds: too few to test", c.cfg, c.seed, units, set, rounds)
		}
	}
}

// BenchmarkTargets measures the targets tensor alone: one seat's tensor of
// a state of a Demo game (the states of every 10th round, seats in turn).
func BenchmarkTargets(b *testing.B) {
	g := newTestGame(b, 3)
	var states []*Game
	for !g.Done() {
		states = append(states, cloneGame(g))
		playRounds(b, g, 10, nil)
	}
	var ob Observer
	dst := make([]byte, len(g.Units)*TargetFeatures)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)]
		ob.Targets(&s.State, i%NumPlayers, dst)
	}
}
