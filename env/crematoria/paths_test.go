package crematoria

import (
	"fmt"
	"testing"
)

// isSource reports whether cell idx is a source of field f for seat me,
// as docs/observation.md defines the fields.
func isSource(s *State, me, f, idx int) bool {
	c := &s.Cells[idx]
	level0 := idx < LevelCells
	switch f {
	case PathCave:
		return level0 && c.Type == Cave && int(c.Owner) != me
	case PathGem:
		return !level0 && c.Gem
	case PathFreeCave:
		return level0 && c.Type == Cave && c.Owner < 0
	case PathEnemyPioneer, PathEnemyFuryan:
		if c.ID < 0 || int(c.ID) >= NumSlots(s.Cfg) {
			return false
		}
		v := &s.Units[c.ID]
		want := Pioneer
		if f == PathEnemyFuryan {
			want = Furyan
		}
		return v.Type == want && v.Player != me
	case PathElevator:
		return c.Type == Elevator
	}
	return false
}

// relaxedDistances computes field f's distances for seat me another way
// than Paths' breadth-first search: every cell starts at 0 (a source) or
// unreachable, then all cells are relaxed from their neighbours until
// nothing changes, and distances over PathMaxDistance become unreachable.
func relaxedDistances(s *State, me, f int) []int {
	const inf = 1 << 20
	d := make([]int, 2*LevelCells)
	for idx := range d {
		d[idx] = inf
		if s.Cells[idx].Type != Rock && isSource(s, me, f, idx) {
			d[idx] = 0
		}
	}
	for changed := true; changed; {
		changed = false
		for idx := range d {
			if s.Cells[idx].Type == Rock {
				continue
			}
			p := PosOf(idx)
			best := d[idx]
			for dir := Bottom; dir < None; dir++ {
				q := p.Add(dir)
				if !q.OnBoard() || (dir >= Up && s.Cells[idx].Type != Elevator) {
					continue
				}
				if dq := d[q.Index()]; dq+1 < best {
					best = dq + 1
				}
			}
			if best < d[idx] {
				d[idx], changed = best, true
			}
		}
	}
	for idx := range d {
		if d[idx] > PathMaxDistance {
			d[idx] = unreachable
		}
	}
	return d
}

// Every flag of the paths tensor agrees with the distances of the
// relaxation, for every seat, on boards of several seeds and rounds; the
// slots of other players are zeros.
func TestPathsAgainstRelaxation(t *testing.T) {
	for _, c := range []struct{ seed, rounds int }{{1, 0}, {7, 30}, {42, 90}} {
		g := newTestGame(t, c.seed)
		playRounds(t, g, c.rounds)
		s := &g.State
		u := NumSlots(&g.cfg)
		var ob Observer
		got := make([]byte, u*PathColumns)
		descents, far := 0, 0
		for me := 0; me < NumPlayers; me++ {
			ob.Paths(s, me, got)
			for f := 0; f < NumPathFields; f++ {
				dist := relaxedDistances(s, me, f)
				for id := 0; id < u; id++ {
					p := s.Units[id].Pos
					row := got[id*PathColumns : (id+1)*PathColumns]
					if s.Units[id].Player != me {
						for _, x := range row {
							if x != 0 {
								t.Fatalf("seed %d seat %d: slot %d of player %d has paths features", c.seed, me, id, s.Units[id].Player)
							}
						}
						continue
					}
					dh := dist[p.Index()]
					for dir := Bottom; dir < DirSize; dir++ {
						q := p.Add(dir)
						want := dir != None && q.OnBoard() && dist[q.Index()] < dh &&
							(dir < Up || s.Cells[p.Index()].Type == Elevator)
						if (row[f*NumDirs+int(dir)] == 1) != want {
							t.Fatalf("seed %d round %d seat %d field %d slot %d at %v (distance %d) direction %v: flag %d, want %v",
								c.seed, g.Round, me, f, id, p, dh, dir, row[f*NumDirs+int(dir)], want)
						}
						if want {
							descents++
						}
					}
					for k, th := range PathThresholds {
						if want := dh >= int(th); (row[(NumPathFields+f)*NumDirs+k] == 1) != want {
							t.Fatalf("seed %d seat %d field %d slot %d: distance %d, threshold %d flag %d", c.seed, me, f, id, dh, th, row[(NumPathFields+f)*NumDirs+k])
						}
					}
					if dh >= 12 {
						far++
					}
				}
			}
		}
		// The test must have seen both kinds of flags.
		if descents == 0 || far == 0 {
			t.Errorf("seed %d: %d descents, %d distances of 12 or more", c.seed, descents, far)
		}
	}
}

// A hand-made board: one Pioneer of seat 0 underground, a gem above the
// elevator two columns to its right (across the wrap), caves around.
func TestPathsHandChecked(t *testing.T) {
	g := newTestGame(t, 1)
	s := &g.State
	for idx := range s.Cells {
		c := &s.Cells[idx]
		c.ID, c.Gem, c.Owner = -1, false, -1
		c.Type = Rock
		if idx >= LevelCells {
			c.Type = Outside
		}
	}
	at := func(i, j, k int) *Cell { return &s.Cells[Pos{i, j, k}.Index()] }
	// Underground: a corridor of row 10, columns 77..79 and 0..3, owned by
	// seat 0 except column 3; an elevator at column 1.
	for _, j := range []int{77, 78, 79, 0, 1, 2, 3} {
		at(10, j, 0).Type, at(10, j, 0).Owner = Cave, 0
	}
	at(10, 3, 0).Owner = -1
	at(10, 1, 0).Type, at(10, 1, 1).Type = Elevator, Elevator
	at(10, 1, 0).Owner = -1
	at(12, 1, 1).Gem = true
	// Every unit off the board but slot 5 (a Pioneer of seat 0) at
	// (10, 79, 0).
	for id := range s.Units {
		s.Units[id].Pos = NoPos
	}
	s.Units[5].Pos = Pos{10, 79, 0}
	at(10, 79, 0).ID = 5
	if s.Units[5].Type != Pioneer || s.Units[5].Player != 0 {
		t.Fatalf("slot 5 is %v of %d", s.Units[5].Type, s.Units[5].Player)
	}
	var ob Observer
	u := NumSlots(&g.cfg)
	got := make([]byte, u*PathColumns)
	ob.Paths(s, 0, got)
	row := got[5*PathColumns : 6*PathColumns]
	flags := func(f int) string { return fmt.Sprint(row[f*NumDirs : (f+1)*NumDirs]) }
	therm := func(f int) string { return fmt.Sprint(row[(NumPathFields+f)*NumDirs : (NumPathFields+f+1)*NumDirs]) }
	for _, c := range []struct {
		what, got, want string
	}{
		// The cave not owned by seat 0: column 3, 4 steps Right (across
		// the wrap). Only Right gets nearer (BR and RT are Rock).
		{"cave descents", flags(PathCave), "[0 0 1 0 0 0 0 0 0 0 0]"},
		{"cave distance flags (distance 4)", therm(PathCave), "[1 1 1 1 0 0 0 0 0 0 0]"},
		// The gem: Right twice to the elevator, Up, then two rows down: 5.
		{"gem descents", flags(PathGem), "[0 0 1 0 0 0 0 0 0 0 0]"},
		{"gem distance flags (distance 5: under 6)", therm(PathGem), "[1 1 1 1 0 0 0 0 0 0 0]"},
		// No enemy anywhere: unreachable, every threshold passed, no descent.
		{"enemy pioneer descents", flags(PathEnemyPioneer), "[0 0 0 0 0 0 0 0 0 0 0]"},
		{"enemy furyan distance flags", therm(PathEnemyFuryan), "[1 1 1 1 1 1 1 1 1 1 1]"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.what, c.got, c.want)
		}
	}
	// From the elevator, Up nears the gem.
	at(10, 79, 0).ID = -1
	s.Units[5].Pos = Pos{10, 1, 0}
	at(10, 1, 0).ID = 5
	ob.Paths(s, 0, got)
	if want := "[0 0 0 0 0 0 0 0 1 0 0]"; flags(PathGem) != want {
		t.Errorf("gem descents from the elevator %s, want %s", flags(PathGem), want)
	}
}
