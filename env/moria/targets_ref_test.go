package moria

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The targets tensor and the Balin bot against their old code
// (oldbalin_test.go): the same tensor bytes and the same games.

// cloneState returns a copy of s that shares nothing mutable with it.
func cloneState(s *State) *State {
	c := *s
	c.Units = slices.Clone(s.Units)
	for p := range NumPlayers {
		c.Dwarves[p] = slices.Clone(s.Dwarves[p])
		c.Wizards[p] = slices.Clone(s.Wizards[p])
	}
	c.Orcs = slices.Clone(s.Orcs)
	c.Trolls = slices.Clone(s.Trolls)
	return &c
}

// mutateState changes the board of s (a clone) so that the searches meet
// what games seldom show: walls of granite or abyss, few targets, units
// far from any target or cut off, winding corridors, the last rounds,
// wounded units, rocks of costs near or beyond maxEnter. Units keep their
// cells.
func mutateState(s *State, me int, rng *rand.Rand) {
	free := func(idx int) bool { return s.Cells[idx].ID < 0 }
	switch rng.IntN(8) {
	case 7: // rocks harder than the default configuration makes them
		for idx := range s.Cells {
			if c := &s.Cells[idx]; c.Type == Rock && rng.IntN(8) == 0 {
				c.Turns = int8(30 + rng.IntN(98))
			}
		}
	case 6: // granite but a winding corridor from a dwarf of ours to a far cave
		if len(s.Dwarves[me]) == 0 {
			return
		}
		p := s.Units[s.Dwarves[me][rng.IntN(len(s.Dwarves[me]))]].Pos
		for idx := range s.Cells {
			if free(idx) {
				s.Cells[idx].Type = Granite
			}
		}
		carve := func(i, j int) {
			c := &s.Cells[i*Cols+j]
			if c.ID < 0 || c.Type == Cave {
				c.Type, c.Owner, c.Treasure = Outside, -1, false
			}
		}
		rows := 2 + rng.IntN(3)
		for r := range rows {
			i := (p.I + 2*r) % (Rows - 1)
			for j := range Cols {
				carve(i, j)
			}
			end := Cols - 1
			if r%2 == 1 {
				end = 0
			}
			carve(i+1, end)
		}
		i, j := (p.I+2*(rows-1))%(Rows-1), rng.IntN(Cols)
		if c := &s.Cells[i*Cols+j]; c.ID < 0 {
			c.Type, c.Owner = Cave, -1
		}
	case 0: // random walls of granite and abyss
		for range 1 + rng.IntN(12) {
			i, j := rng.IntN(Rows), rng.IntN(Cols)
			t := Granite
			if rng.IntN(2) == 0 {
				t = Abyss
			}
			di, dj := 0, 1
			if rng.IntN(2) == 0 {
				di, dj = 1, 0
			}
			for k := range 5 + rng.IntN(40) {
				a, b := i+k*di, j+k*dj
				if a < Rows && b < Cols && free(a*Cols+b) {
					s.Cells[a*Cols+b].Type = t
				}
			}
		}
	case 1: // every cave ours, no treasures: the targets are rocks and enemies
		for idx := range s.Cells {
			if s.Cells[idx].Type == Cave {
				s.Cells[idx].Owner = int8(me)
				s.Cells[idx].Treasure = false
			}
		}
	case 2: // granite everywhere but the units' cells and a few caves
		for idx := range s.Cells {
			if free(idx) && rng.IntN(20) != 0 {
				s.Cells[idx].Type = Granite
			} else if free(idx) {
				s.Cells[idx].Type = Cave
				s.Cells[idx].Owner = int8(me)
				s.Cells[idx].Treasure = rng.IntN(4) == 0
			}
		}
	case 3: // a maze of hard rock with scattered treasures
		for idx := range s.Cells {
			if !free(idx) {
				continue
			}
			switch r := rng.IntN(10); {
			case r < 6:
				s.Cells[idx].Type, s.Cells[idx].Turns = Rock, int8(1+rng.IntN(5))
			case r < 7:
				s.Cells[idx].Type = Granite
			default:
				s.Cells[idx].Type, s.Cells[idx].Owner = Cave, int8(me)
				s.Cells[idx].Treasure = rng.IntN(30) == 0
			}
		}
	case 4: // the last rounds
		s.Round = s.Cfg.NbRounds - 1 - rng.IntN(12)
	case 5: // wounded units
		for id := range s.Units {
			if u := &s.Units[id]; u.Type == Dwarf || u.Type == Wizard {
				u.Health = 1 + rng.IntN(u.Type.MaxHealth())
			}
		}
	}
}

// targetsCheck is a seat that, before each of its rounds, encodes its
// clan's targets tensor with the new and the old code, also in mutated
// copies of the state, and fails at the first difference.
type targetsCheck struct {
	Bot
	t       *testing.T
	me      int
	shared  *Observer // one encoder for the four seats
	own     Observer  // this seat's
	old     oldObserver
	rng     *rand.Rand
	checked *int
	bits    *int
}

func (tc *targetsCheck) compare(s *State, what string) {
	// Balin's round as the tensor starts it: the same danger, orders,
	// costs and values.
	var nb Balin
	var ob oldBalin
	nb.me, ob.me = tc.me, tc.me
	nb.prepare(s)
	ob.prepare(s)
	if nb.lethal != ob.lethal || nb.trollAdj != ob.trollAdj || nb.enter != ob.enter || nb.value != ob.value ||
		!slices.Equal(nb.busy, ob.busy) || len(nb.orders) != len(ob.orders) {
		tc.t.Fatalf("round %d clan %d %s: Balin.prepare differs from the old code's", s.Round, tc.me, what)
	}
	n := NumSlots(s.Cfg) * TargetFeatures
	want, got, got2 := make([]byte, n), make([]byte, n), make([]byte, n)
	oldTargets(&tc.old, s, tc.me, want)
	tc.own.Targets(s, tc.me, got)
	tc.shared.Targets(s, tc.me, got2)
	if !bytes.Equal(got, want) || !bytes.Equal(got2, want) {
		for id := range n / TargetFeatures {
			a, b := want[id*TargetFeatures:(id+1)*TargetFeatures], got[id*TargetFeatures:(id+1)*TargetFeatures]
			if !bytes.Equal(a, b) {
				tc.t.Errorf("unit %d (%v at %v): old %v", id, s.Units[id].Type, s.Units[id].Pos, a)
				tc.t.Errorf("unit %d (%v at %v): new %v", id, s.Units[id].Type, s.Units[id].Pos, b)
			}
		}
		tc.t.Fatalf("round %d clan %d %s: the targets tensor differs from the old code's", s.Round, tc.me, what)
	}
	*tc.checked++
	for _, x := range want {
		*tc.bits += int(x)
	}
}

func (tc *targetsCheck) Play(s *State, o *Orders) {
	tc.compare(s, "")
	for k := range 2 {
		c := cloneState(s)
		mutateState(c, tc.me, tc.rng)
		tc.compare(c, fmt.Sprintf("mutated %d", k))
	}
	tc.Bot.Play(s, o)
}

// TestTargetsEqualOld: the targets tensor of every seat in every round of
// games of several seeds and bots, and of two mutated copies of each of
// those states, is byte for byte the old code's.
func TestTargetsEqualOld(t *testing.T) {
	games := []struct {
		seed  int
		names [NumPlayers]string
	}{
		{1, [NumPlayers]string{"Demo", "Demo", "Demo", "Demo"}},
		{2, [NumPlayers]string{"Balin", "Demo", "Balin", "Demo"}},
		{3, [NumPlayers]string{"Balin", "Balin", "Balin", "Balin"}},
		{4, [NumPlayers]string{"Null", "Balin", "DummyClone", "Demo"}},
		{5, [NumPlayers]string{"DummyClone", "DummyClone", "Balin", "Null"}},
	}
	if testing.Short() {
		games = games[:2]
	}
	var checked, bits int
	var shared Observer
	for _, g := range games {
		var bots [NumPlayers]Bot
		for p, n := range g.names {
			f, err := Def.Bots.Lookup(n)
			if err != nil {
				t.Fatal(err)
			}
			bots[p] = &targetsCheck{Bot: f(p, g.seed), t: t, me: p, shared: &shared,
				rng: rand.New(rand.NewPCG(uint64(g.seed), uint64(p))), checked: &checked, bits: &bits}
		}
		m, err := Def.NewMatch(DefaultConfig(), g.seed, g.names, bots)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(context.Background()); err != nil {
			t.Fatalf("seed %d: %v", g.seed, err)
		}
	}
	t.Logf("%d tensors equal, %d bits set", checked, bits)
	if checked < len(games)*3*NumPlayers*150 || bits < checked*20 {
		t.Errorf("%d tensors, %d bits: the test proves little", checked, bits)
	}
}

// TestBalinPlaysAsOld: Balin's games are the old Balin's, trace for trace.
func TestBalinPlaysAsOld(t *testing.T) {
	games := []struct {
		seed  int
		names [NumPlayers]string
	}{
		{11, [NumPlayers]string{"Balin", "Demo", "Demo", "Demo"}},
		{12, [NumPlayers]string{"Balin", "Balin", "Balin", "Balin"}},
		{13, [NumPlayers]string{"Demo", "Balin", "DummyClone", "Balin"}},
	}
	for _, g := range games {
		trace := func(old bool) []byte {
			var bots [NumPlayers]Bot
			for p, n := range g.names {
				f, err := Def.Bots.Lookup(n)
				if err != nil {
					t.Fatal(err)
				}
				bots[p] = f(p, g.seed)
				if n == "Balin" && old {
					bots[p] = &oldBalin{me: p}
				}
			}
			m, err := Def.NewMatch(DefaultConfig(), g.seed, g.names, bots)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			m.WriteTrace(&buf)
			if err := m.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}
		a, b := trace(false), trace(true)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d %v: Balin's game differs from the old Balin's", g.seed, g.names)
		}
		t.Logf("seed %d %v: %d trace bytes equal", g.seed, g.names, len(a))
	}
}

// recordStates returns the states before every round of Demo games of
// seeds 1..games (the states BenchmarkTensors encodes).
func recordStates(tb testing.TB, games int) []*State {
	var states []*State
	for seed := 1; seed <= games; seed++ {
		m, err := Def.NewBotMatch(DefaultConfig(), seed, [NumPlayers]string{"Demo", "Demo", "Demo", "Demo"})
		if err != nil {
			tb.Fatal(err)
		}
		for !m.Done() {
			states = append(states, cloneState(m.State()))
			if err := m.PlayRound(); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return states
}

// BenchmarkTargets times the targets tensor of seat 0 alone, new and old
// code, over the states of three Demo games (one op: one state).
func BenchmarkTargets(b *testing.B) {
	states := recordStates(b, 3)
	dst := make([]byte, NumSlots(states[0].Cfg)*TargetFeatures)
	b.Run("new", func(b *testing.B) {
		var ob Observer
		for i := range b.N {
			ob.Targets(states[i%len(states)], 0, dst)
		}
	})
	b.Run("old", func(b *testing.B) {
		var ob oldObserver
		for i := range b.N {
			oldTargets(&ob, states[i%len(states)], 0, dst)
		}
	})
}

// TestTargetsSearchSizes logs the cells the searches of the targets
// tensor settle for seat 0 in games of seeds 1-3, four Demos and then
// Balins in seats 0 and 2: TargetAny's searches from each dwarf against
// the cells Balin's search from all targets settles before its farthest
// dwarf (the cells at a distance no greater), and the cells of the
// assignment search. The dwarves' own searches must settle fewer.
func TestTargetsSearchSizes(t *testing.T) {
	for _, names := range [][NumPlayers]string{
		{"Demo", "Demo", "Demo", "Demo"},
		{"Balin", "Demo", "Balin", "Demo"},
	} {
		var ts targetSearches
		var ob oldBalin
		var calls, anyCells, anyMax, oldCells, assignCells int
		for seed := 1; seed <= 3; seed++ {
			m, err := Def.NewBotMatch(DefaultConfig(), seed, names)
			if err != nil {
				t.Fatal(err)
			}
			for !m.Done() {
				s := m.State()
				bn := &ts.bn
				bn.me = 0
				bn.prepare(s)
				if bn.assign() {
					limit := int32(min(balinSearchLimit, bn.left+1))
					for idx := range NumCells {
						if d := bn.fwd.dist(idx); bn.enter[idx] > 0 && d <= limit {
							assignCells++
						}
					}
				}
				ts.any.budget = 1 << 30
				for _, id := range s.Dwarves[0] {
					ts.any.steps(bn, s.Units[id].Pos.Index())
				}
				used := 1<<30 - ts.any.budget
				anyCells += used
				anyMax = max(anyMax, used)
				ob.me = 0
				ob.prepare(s)
				r := ob.targetSearch(nil, 0)
				far := int32(0)
				for _, id := range s.Dwarves[0] {
					if d := r.dist[s.Units[id].Pos.Index()]; d < unreached {
						far = max(far, d)
					}
				}
				for idx := range NumCells {
					if r.dist[idx] <= far {
						oldCells++
					}
				}
				calls++
				if err := m.PlayRound(); err != nil {
					t.Fatal(err)
				}
			}
		}
		t.Logf("%v, seat 0, %d tensors: TargetAny's searches %d cells a tensor (at most %d), Balin's search from the targets %d; the assignment search %d",
			names, calls, anyCells/calls, anyMax, oldCells/calls, assignCells/calls)
		if anyCells >= oldCells {
			t.Errorf("the dwarves' own searches settle no fewer cells than the search from the targets")
		}
	}
}
