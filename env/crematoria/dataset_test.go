package crematoria

import (
	"bytes"
	"fmt"
	"testing"

	"jgym/course/coursetest"
	"jgym/dataset/datasettest"
	"jgym/env"
)

// playRecorded plays a game of Demos, writing its trace, and records each
// seat's observation (the env's table over the engine's state) before
// every round and the accepted orders of each round.
func playRecorded(t *testing.T, cfg Config, seed int) (trace []byte, obs [][NumPlayers][][]byte, orders [][NumPlayers][]Command) {
	t.Helper()
	m, err := NewMatch(cfg, seed, [NumPlayers]string{"Demo", "Demo", "Demo", "Demo"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	spec := specFor(&cfg)
	tab := table{cfg: &cfg, slots: NumSlots(&cfg), g: m.Game}
	for !m.Done() {
		var round [NumPlayers][][]byte
		for p := range round {
			o := env.NewOut(spec, 1)
			tab.Observe(o, 0, p)
			round[p] = o.Obs
		}
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
		var cmds [NumPlayers][]Command
		for p := range cmds {
			cmds[p] = append([]Command(nil), m.Orders(p)...)
		}
		obs, orders = append(obs, round), append(orders, cmds)
	}
	return buf.Bytes(), obs, orders
}

// TestDatasetMatchesEngine replays a trace and compares every seat's
// observation with the one the env encoded from the engine's own state,
// and each label with the orders the players gave: a moved unit's label
// is the direction its owner ordered.
func TestDatasetMatchesEngine(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NbRounds = 40
	trace, obs, orders := playRecorded(t, cfg, 5)
	rep, err := Dataset().Open(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := rep.Spec()
	got := env.NewOut(spec, 1).Obs
	action := make([]byte, spec.Action.NumElems())
	rounds, moves := 0, 0
	for rep.Next() {
		r := rep.Round()
		if r != rounds {
			t.Fatalf("Round() = %d, want %d", r, rounds)
		}
		for p := 0; p < NumPlayers; p++ {
			rep.Observe(p, got)
			for i, ts := range spec.Observation {
				if !bytes.Equal(obs[r][p][i], got[i]) {
					t.Fatalf("round %d seat %d %s: (-engine +trace) %s", r, p, ts.Name, coursetest.FirstDiff(obs[r][p][i], got[i]))
				}
			}
			rep.Label(p, action)
			ordered := map[int]Dir{}
			for _, c := range orders[r][p] {
				ordered[c.ID] = c.Dir
			}
			for id, b := range action {
				if d := Dir(b); d != None {
					moves++
					if od, ok := ordered[id]; !ok || od != d {
						t.Errorf("round %d seat %d slot %d: label %v, ordered %v (given: %v)", r, p, id, d, od, ok)
					}
				}
			}
		}
		rounds++
	}
	if err := rep.Err(); err != nil {
		t.Fatal(err)
	}
	if rounds != cfg.NbRounds || moves == 0 {
		t.Errorf("rounds, moves = %d, %d; want %d, > 0", rounds, moves, cfg.NbRounds)
	}
}

// TestDatasetExpertLabels labels a game of Riddick and Demo with Riddick as
// the expert: in Riddick's seats the labels are exactly the orders Riddick
// gave in the game (its first command per unit it owned), so the bot saw
// the state it played; in Demo's seats they are Riddick's commands for
// Demo's units, which differ from Demo's orders.
func TestDatasetExpertLabels(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NbRounds = 30
	m, err := NewMatch(cfg, 11, [NumPlayers]string{"Riddick", "Demo", "Riddick", "Demo"})
	if err != nil {
		t.Fatal(err)
	}
	datasettest.CheckExpertLabels(t, Dataset(), m, cfg.NbRounds, "Riddick", None,
		func(c Command) (int, Dir) { return c.ID, c.Dir })
}

// TestDatasetIllegalLabels checks that every label the observation's mask
// refuses on a course trace is a move into a cell whose unit at the start
// of the round moved, or was attacked, earlier in the round: the mask is
// that of a move executed first (docs/learning-from-traces.md).
func TestDatasetIllegalLabels(t *testing.T) {
	trace := coursetest.ReadGz(t, "../../testdata/crematoria/traces/crematoria_s10_Demo-Demo-Demo-Demo.res.gz")
	rep, err := Dataset().Open(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := rep.Spec()
	obs := env.NewOut(spec, 1).Obs
	action := make([]byte, spec.Action.NumElems())
	illegal := 0
	for rep.Next() {
		r := rep.(*replay)
		s := &r.sim.base.State
		line := map[int]int{} // unit id -> line of its move in the block
		for i, m := range r.sim.moves {
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
				if why := explain(s, r.sim.moves, line, id, Dir(b)); why != "" {
					t.Errorf("round %d seat %d unit %d moved %v against the mask: %s", r.r, p, id, Dir(b), why)
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
