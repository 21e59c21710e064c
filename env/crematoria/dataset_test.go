package crematoria

import (
	"fmt"
	"testing"

	"jgym/course/coursetest"
	"jgym/env"
)

// TestDatasetIllegalLabels checks that every label the observation's mask
// refuses on a course trace is a move into a cell whose unit at the start
// of the round moved, or was attacked, earlier in the round: the mask is
// that of a move executed first (docs/learning-from-traces.md).
func TestDatasetIllegalLabels(t *testing.T) {
	trace := coursetest.ReadGz(t, "../../testdata/crematoria/traces/crematoria_s10_Demo-Demo-Demo-Demo.res.gz")
	rep, err := Def.Dataset().Open(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	rounds, err := newTraceRounds(trace, nil) // the same rounds, to read the state and moves
	if err != nil {
		t.Fatal(err)
	}
	spec := rep.Spec()
	obs := env.NewOut(spec, 1).Obs
	action := make([]byte, spec.Action.NumElems())
	illegal := 0
	for rep.Next() && rounds.Next() {
		s, moves := rounds.State(), rounds.Moves()
		line := map[int]int{} // unit id -> line of its move in the block
		for i, m := range moves {
			line[m.ID] = i
		}
		for p := 0; p < NumPlayers; p++ {
			rep.Observe(p, obs)
			rep.Label(p, action)
			mask := obs[3]
			for id, b := range action {
				if d := Dir(b); d == None || mask[id*NumDirs+int(d)] != 0 {
					continue
				}
				illegal++
				if why := explain(s, moves, line, id, Dir(b)); why != "" {
					t.Errorf("round %d seat %d unit %d moved %v against the mask: %s", rep.Round(), p, id, Dir(b), why)
				}
			}
		}
	}
	if err := rep.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d labels refused by the mask, each explained by an earlier move of the round", illegal)
}

// explain returns "" when the move of unit id in direction d, refused by
// the mask, went into a cell whose unit moved or was attacked earlier in
// the round; else why not.
func explain(s *State, moves []Move, line map[int]int, id int, d Dir) string {
	u := &s.Units[id]
	to := u.Pos.Add(d)
	if !to.OnBoard() {
		return "off the board"
	}
	v := s.Cells[to.Index()].ID
	if v < 0 {
		return fmt.Sprintf("the target %v was free at the start of the round", to)
	}
	if l, ok := line[int(v)]; ok && l < line[id] {
		return ""
	}
	for _, m := range moves[:line[id]] {
		if s.Units[m.ID].Pos.Add(m.Dir) == to {
			return ""
		}
	}
	return fmt.Sprintf("unit %d at %v neither moved nor was attacked before", v, to)
}
