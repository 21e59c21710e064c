package moria

import (
	"context"
	"testing"
)

// targetsSpy is a Balin seat that, before each of its rounds, encodes the
// targets tensor of its clan and hands it with the state to check.
type targetsSpy struct {
	Bot
	me    int
	ob    Observer
	check func(s *State, me int, tg []byte, o *Orders)
}

func (sp *targetsSpy) Play(s *State, o *Orders) {
	tg := make([]byte, NumSlots(s.Cfg)*TargetFeatures)
	sp.ob.Targets(s, sp.me, tg)
	sp.Bot.Play(s, o)
	sp.check(s, sp.me, tg, o)
}

// playSpied plays a game of two Balins and two Demos, the Balins spied.
func playSpied(t *testing.T, seed int, check func(s *State, me int, tg []byte, o *Orders)) {
	t.Helper()
	names := [NumPlayers]string{"Balin", "Demo", "Balin", "Demo"}
	var bots [NumPlayers]Bot
	for p, n := range names {
		f, err := Def.Bots.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = f(p, seed)
		if n == "Balin" {
			bots[p] = &targetsSpy{Bot: bots[p], me: p, check: check}
		}
	}
	m, err := Def.NewMatch(DefaultConfig(), seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
}

// relaxed returns the cost of walking from every cell to the nearest
// target under Balin's costs, by relaxing every cell until nothing
// changes (Bellman-Ford, not the bucket queue of the encoder): a walker
// on cell m pays enter[n] to step onto neighbour n (8 directions).
func relaxed(enter *[NumCells]int8, value *[NumCells]float32) []int32 {
	dist := make([]int32, NumCells)
	for idx := range dist {
		dist[idx] = unreached
		if value[idx] > 0 && enter[idx] > 0 {
			dist[idx] = 0
		}
	}
	for changed := true; changed; {
		changed = false
		for m := range dist {
			p := PosOf(m)
			for d := Bottom; d < None; d++ {
				q := p.Add(d)
				if !q.OnBoard() {
					continue
				}
				n := q.Index()
				if w := int32(enter[n]); w > 0 && dist[n] < unreached && dist[n]+w < dist[m] {
					dist[m], changed = dist[n]+w, true
				}
			}
		}
	}
	return dist
}

// TargetAny's steps and bands are those of the cheapest ways to a target
// computed by plain relaxation over Balin's costs (for the dwarves whose
// cost is within Balin's search limit); TargetAssigned's step is the
// dwarf's order whenever Balin orders a dwarf that has one and is not
// fleeing or attacking (it may also hold back, or wait for a cell another
// unit takes); TargetHeal's steps include the wizards' orders.
func TestTargetsFollowBalin(t *testing.T) {
	var ref Balin
	var rounds, anyUnits, assigned, followed, wizOrders, wizIn int
	check := func(s *State, me int, tg []byte, o *Orders) {
		rounds++
		if rounds%7 != 0 { // the relaxation is slow: every 7th round
			return
		}
		ref.me = me
		ref.prepare(s)
		dist := relaxed(&ref.enter, &ref.value)
		for _, id := range s.Dwarves[me] {
			p := s.Units[id].Pos
			g := tg[id*TargetFeatures+TargetAny*TargetColumns : id*TargetFeatures+(TargetAny+1)*TargetColumns]
			cur := dist[p.Index()]
			if cur > balinSearchLimit || cur == 0 {
				continue
			}
			anyUnits++
			var want [TargetColumns]byte
			want[TargetNear2], want[TargetNear6], want[TargetNear15] = b2u(cur <= 2), b2u(cur <= 6), b2u(cur <= 15)
			for d := Bottom; d < None; d++ {
				if q := p.Add(d); q.OnBoard() {
					n := q.Index()
					want[d] = b2u(ref.enter[n] > 0 && dist[n] < unreached && dist[n]+int32(ref.enter[n]) == cur)
				}
			}
			if string(g) != string(want[:]) {
				t.Fatalf("round %d clan %d dwarf %d at %v: TargetAny %v, want %v", s.Round, me, id, p, g, want)
			}
		}
		for _, c := range o.List() {
			u := &s.Units[c.ID]
			g := tg[c.ID*TargetFeatures : (c.ID+1)*TargetFeatures]
			if u.Type == Wizard {
				if ref.busy[c.ID] {
					continue // fleeing
				}
				wizOrders++
				if g[TargetHeal*TargetColumns+int(c.Dir)] == 1 {
					wizIn++
				}
				continue
			}
			a := g[TargetAssigned*TargetColumns : TargetAssigned*TargetColumns+8]
			if ref.busy[c.ID] || string(a) == string(make([]byte, 8)) {
				continue
			}
			assigned++
			if a[c.Dir] == 1 {
				followed++
			}
		}
	}
	for _, seed := range []int{3, 4} {
		playSpied(t, seed, check)
	}
	t.Logf("every 7th of %d Balin rounds: %d dwarves' TargetAny checked; %d of %d assigned dwarves' orders along TargetAssigned; %d of %d wizard orders in TargetHeal",
		rounds, anyUnits, followed, assigned, wizIn, wizOrders)
	if anyUnits < 500 || assigned < 500 || wizOrders < 100 {
		t.Fatal("too few units checked")
	}
	if followed != assigned || wizIn != wizOrders {
		t.Errorf("Balin's orders off the tensor's steps")
	}
}

// The searches from the targets stop once they reach every unit of the
// clan: the tensor is the one of the searches run to their limits.
func TestTargetsStopEarly(t *testing.T) {
	defer func() { targetsStopEarly = true }()
	var full Observer
	rounds, set := 0, 0
	check := func(s *State, me int, tg []byte, o *Orders) {
		rounds++
		targetsStopEarly = false
		want := make([]byte, len(tg))
		full.Targets(s, me, want)
		targetsStopEarly = true
		if string(tg) != string(want) {
			t.Fatalf("round %d clan %d: the tensor differs from the full searches'", s.Round, me)
		}
		for _, x := range tg {
			set += int(x)
		}
	}
	playSpied(t, 5, check)
	t.Logf("%d rounds, %d bits set: equal", rounds, set)
	if set < rounds*50 {
		t.Errorf("%d bits set in %d rounds: the test proves little", set, rounds)
	}
}
