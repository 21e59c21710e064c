package dominator

import (
	"bytes"
	"testing"
)

// TestDatasetExpertLabels labels a game of Khan and Demo with Khan as
// the expert: in Khan's seats the labels are exactly the orders Khan
// gave in the game (its first command per unit it owned), so the bot saw
// the state it played; in Demo's seats they are Khan's commands for
// Demo's units, which differ from Demo's orders.
func TestDatasetExpertLabels(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NbRounds = 30
	names := [NumPlayers]string{"Khan", "Demo", "Khan", "Demo"}
	m, err := NewMatch(cfg, 7, names)
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	m.WriteTrace(&trace)
	var orders [][NumPlayers][]Command
	for r := 0; r < cfg.NbRounds; r++ {
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
		var cmds [NumPlayers][]Command
		for p := range cmds {
			cmds[p] = append([]Command(nil), m.Orders(p)...)
		}
		orders = append(orders, cmds)
	}
	rep, err := Dataset().Open(trace.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ex := rep.(interface{ UseExpert(string) error })
	if err := ex.UseExpert("cpp:AIx.cc"); err == nil {
		t.Fatal("UseExpert accepted a prefixed name")
	}
	if err := ex.UseExpert("Khan"); err != nil {
		t.Fatal(err)
	}
	action := make([]byte, rep.Spec().Action.NumElems())
	again := make([]byte, len(action))
	differ, labelled, rounds := 0, 0, 0
	for rep.Next() {
		r := rep.Round()
		rounds++
		for p := 0; p < NumPlayers; p++ {
			rep.Label(p, action)
			rep.Label(p, again)
			if !bytes.Equal(action, again) {
				t.Fatalf("round %d seat %d: a second Label differs", r, p)
			}
			want := make([]byte, len(action))
			for k := range want {
				want[k] = byte(None)
			}
			for _, c := range orders[r][p] {
				if c.ID < len(want) {
					want[c.ID] = byte(c.Dir)
				}
			}
			for id, b := range action {
				if Dir(b) != None {
					labelled++
				}
				if names[p] == "Khan" && b != want[id] {
					t.Fatalf("round %d seat %d slot %d: expert label %v, Khan ordered %v", r, p, id, Dir(b), Dir(want[id]))
				}
				if names[p] == "Demo" && b != want[id] {
					differ++
				}
			}
		}
	}
	if err := rep.Err(); err != nil {
		t.Fatal(err)
	}
	if rounds != cfg.NbRounds || labelled == 0 || differ == 0 {
		t.Errorf("%d rounds, labelled %d slots, %d differ from Demo's orders; want %d, > 0, > 0", rounds, labelled, differ, cfg.NbRounds)
	}
}
