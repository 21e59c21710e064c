package pandemic

import "testing"

// slowDist is the walking distance from every cell to the nearest source,
// by relaxation until nothing changes (no queue): the test's own twin of
// the breadth-first search the encoder uses. -1 where unreachable.
func slowDist(s *State, srcs []Pos) []int {
	n := s.Rows * s.Cols
	d := make([]int, n)
	for i := range d {
		d[i] = -1
	}
	for _, p := range srcs {
		d[s.Idx(p)] = 0
	}
	for changed := true; changed; {
		changed = false
		for idx := 0; idx < n; idx++ {
			if s.Types[idx] == Wall && d[idx] != 0 {
				continue
			}
			p := s.PosOf(idx)
			for dir := Bottom; dir < None; dir++ {
				q := p.Add(dir)
				if !s.OnBoard(q) || d[s.Idx(q)] < 0 {
					continue
				}
				if v := d[s.Idx(q)] + 1; d[idx] < 0 || v < d[idx] {
					d[idx], changed = v, true
				}
			}
		}
	}
	return d
}

// targetSources lists each target kind's cells from the rules of the
// targets tensor, counting the units cell by cell through State.Cell.
func targetSources(s *State, me int) [NumTargetKinds][]Pos {
	var out [NumTargetKinds][]Pos
	count := func(cells []Pos) (mine, strongest int) {
		var per [NumPlayers]int
		for _, p := range cells {
			if id := s.Cell(p).UnitID; id >= 0 {
				per[s.Units[id].Player]++
			}
		}
		for pl, c := range per {
			if pl != me && c > strongest {
				strongest = c
			}
		}
		return per[me], strongest
	}
	need := func(cells []Pos, owner int) bool {
		mine, strongest := count(cells)
		if owner != me {
			strongest++
		}
		return mine < strongest
	}
	for k, cells := range s.Cities {
		if need(cells, s.CityOwner[k]) {
			out[TargetCity] = append(out[TargetCity], cells...)
		}
	}
	for k, pa := range s.Paths {
		if need(pa.Cells, s.PathOwner[k]) {
			out[TargetPath] = append(out[TargetPath], pa.Cells...)
			if s.CityOwner[pa.A] == me && s.CityOwner[pa.B] == me {
				out[TargetBridge] = append(out[TargetBridge], pa.Cells...)
			}
		}
	}
	out[TargetMask] = append(out[TargetMask], s.Masks...)
	for _, u := range s.Units {
		if u.Player != me {
			out[TargetEnemy] = append(out[TargetEnemy], u.Pos)
		}
	}
	return out
}

// TestTargetsMatchDistances checks the targets tensor against distances
// computed by the test over some rounds of a game of Pasteurs, every seat:
// each bit of each slot, and that every kind is seen somewhere.
func TestTargetsMatchDistances(t *testing.T) {
	var ob Observer // one Observer for both games: the second is on another map
	var seen [TargetFeatures]int
	for _, seed := range []int{3, 4} {
		checkTargets(t, &ob, newTestGame(t, seed), &seen)
	}
	for c, n := range seen {
		if n == 0 && c%TargetColumns != TargetNear2 {
			t.Errorf("column %d never set", c)
		}
	}
}

// checkTargets plays some rounds of g with Pasteurs and checks ob's
// targets tensor every eighth round, every seat, counting the bits set.
func checkTargets(t *testing.T, ob *Observer, g *Game, seen *[TargetFeatures]int) {
	t.Helper()
	var bots [NumPlayers]Bot
	for p := range bots {
		bots[p] = NewPasteur(p, g.Seed())
	}
	dst := make([]byte, len(g.Units)*TargetFeatures)
	var o [NumPlayers]Orders
	var cmds [NumPlayers][]Command
	for r := 0; r < 40 && !g.Done(); r++ {
		if r%8 == 0 {
			s := &g.State
			for me := 0; me < NumPlayers; me++ {
				ob.Targets(s, me, dst)
				srcs := targetSources(s, me)
				var dist [NumTargetKinds][]int
				for k := range dist {
					dist[k] = slowDist(s, srcs[k])
				}
				for id := range s.Units {
					u := &s.Units[id]
					row := dst[id*TargetFeatures : (id+1)*TargetFeatures]
					for k := 0; k < NumTargetKinds; k++ {
						for c := 0; c < TargetColumns; c++ {
							want := false
							cur := dist[k][s.Idx(u.Pos)]
							if u.Player == me && cur >= 0 {
								switch c {
								case TargetNear2:
									want = cur <= 2
								case TargetNear6:
									want = cur <= 6
								case TargetNear15:
									want = cur <= 15
								default:
									q := u.Pos.Add(Dir(c))
									want = s.OnBoard(q) && dist[k][s.Idx(q)] >= 0 && dist[k][s.Idx(q)] < cur
								}
							}
							got := row[k*TargetColumns+c] == 1
							if got != want {
								t.Fatalf("round %d me %d unit %d kind %d column %d: %v, want %v", s.Round, me, id, k, c, got, want)
							}
							if got {
								seen[k*TargetColumns+c]++
							}
						}
					}
				}
			}
		}
		for p := range bots {
			o[p].Reset(len(g.Units))
			bots[p].Play(&g.State, &o[p])
			cmds[p] = o[p].List()
		}
		if err := g.Step(&cmds); err != nil {
			t.Fatal(err)
		}
	}
}
