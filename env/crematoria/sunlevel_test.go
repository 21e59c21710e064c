package crematoria

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// sunRows returns the sun_paths tensor of seat me that the values of the
// relaxation (relaxedSun) give, as TestSunPathsAgainstRelaxation reads
// it: descents onto the neighbours of a lower value (every reached
// neighbour when the unit's own is unreachable; for escape, Down from an
// Elevator of level 1), thermometers of the unit's value, and no escape
// columns underground.
func sunRows(s *State, me int, escape, trip []int) []byte {
	u := NumSlots(s.Cfg)
	rows := make([]byte, u*SunColumns)
	for id := 0; id < u; id++ {
		un := &s.Units[id]
		if un.Player != me || un.Health <= 0 || !un.Pos.OnBoard() {
			continue
		}
		p := un.Pos
		row := rows[id*SunColumns : (id+1)*SunColumns]
		elevator := s.Cells[p.Index()].Type == Elevator
		for f, val := range [][]int{escape, trip} {
			if f == SunEscape && p.K == 0 {
				continue
			}
			v := val[p.Index()]
			for dir := Bottom; dir < None; dir++ {
				q := p.Add(dir)
				if q.OnBoard() && (dir < Up || elevator) &&
					(f == SunEscape && dir == Down || val[q.Index()] != sunFar && val[q.Index()] < v) {
					row[f*NumDirs+int(dir)] = 1
				}
			}
			for k, th := range SunThresholds {
				row[(NumSunFields+f)*NumDirs+k] = b2u(v >= int(th))
			}
		}
	}
	return rows
}

// scatterUnits moves the live units of every seat to random free cells:
// a quarter onto Elevators, a quarter onto level 1 (in the night or not),
// a quarter onto level 0, the rest left where they are. With up 0 no unit
// goes to level 1 (the Elevators of level 0, level 0 instead), with up 2
// only one slot in eight (the others onto level 0).
func scatterUnits(s *State, rng *rand.Rand, up int) {
	var lifts []int
	for idx := range s.Cells {
		if s.Cells[idx].Type == Elevator {
			lifts = append(lifts, idx)
		}
	}
	for id := 0; id < NumSlots(s.Cfg); id++ {
		u := &s.Units[id]
		if u.Health <= 0 || !u.Pos.OnBoard() || id%4 == 3 {
			continue
		}
		for try := 0; try < 100; try++ {
			var idx int
			switch {
			case id%4 == 0:
				idx = lifts[rng.IntN(len(lifts))]
				if up == 0 {
					idx %= LevelCells
				}
			case id%4 == 1 && (up == 1 || up == 2 && id%8 == 1):
				idx = LevelCells + rng.IntN(LevelCells)
			default:
				idx = rng.IntN(LevelCells)
			}
			if c := &s.Cells[idx]; c.Type != Rock && c.ID < 0 {
				s.Cells[u.Pos.Index()].ID = -1
				u.Pos = PosOf(idx)
				c.ID = int16(id)
				break
			}
		}
	}
	s.CellsChanged()
}

// The gem trip goes on level 0 alone once every Elevator's cells are
// reached and no unit waits on level 1 (sunSearch.search): sun_paths, from
// SunPaths and from Encode, agrees with the relaxation on states whose
// units stand anywhere (on Elevators of both levels, on level 1 far from
// the gems, on level 0; with no unit on level 1, and with few), for every
// seat, at rounds spread over the sun's turn; one Observer throughout.
func TestSunPathsUnitsAnywhere(t *testing.T) {
	var ob Observer
	var level1, lifts, states int
	for seed := 1; seed <= 4; seed++ {
		g := newTestGame(t, seed)
		rng := rand.New(rand.NewPCG(uint64(seed), 3))
		for _, rounds := range []int{3, 14, 9, 20, 17, 25} {
			playRounds(t, g, rounds)
			if g.Done() {
				break
			}
			s := new(State)
			s.CopyFrom(&g.State)
			for rep := 0; rep < 3; rep++ {
				scatterUnits(s, rng, rep)
				escape, trip := relaxedSun(s)
				for me := 0; me < NumPlayers; me++ {
					want := sunRows(s, me, escape, trip)
					got := make([]byte, len(want))
					ob.SunPaths(s, me, got)
					all := encodeAll(&ob, s, me)
					enc := all[len(all)-len(want):]
					for what, b := range map[string][]byte{"SunPaths": got, "Encode": enc} {
						if !bytes.Equal(b, want) {
							t.Fatalf("seed %d round %d seat %d: %s: %s", seed, s.Round, me, what, firstRowDiff(s, b, want))
						}
					}
				}
				for id := 0; id < NumSlots(s.Cfg); id++ {
					if u := &s.Units[id]; u.Health > 0 && u.Pos.OnBoard() {
						level1 += u.Pos.K
						lifts += int(b2u(s.Cells[u.Pos.Index()].Type == Elevator))
					}
				}
				states++
			}
		}
	}
	if states < 50 || level1 < 500 || lifts < 500 {
		t.Fatalf("%d states, %d units on level 1, %d on Elevators", states, level1, lifts)
	}
	t.Logf("%d states, %d units on level 1, %d on Elevators", states, level1, lifts)
}

// firstRowDiff describes the first slot whose sun_paths row differs.
func firstRowDiff(s *State, got, want []byte) string {
	for id := 0; id*SunColumns < len(want); id++ {
		g, w := got[id*SunColumns:(id+1)*SunColumns], want[id*SunColumns:(id+1)*SunColumns]
		if !bytes.Equal(g, w) {
			return fmt.Sprintf("slot %d at %v (%v): got %v, want %v", id, s.Units[id].Pos, s.Cells[s.Units[id].Pos.Index()].Type, g, w)
		}
	}
	return "same rows"
}
