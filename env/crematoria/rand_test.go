package crematoria

import (
	"slices"
	"testing"
)

// Checkpoints of SPEC §4.3, §5 and §8.16.
func TestMapAndPlacementCheckpoints(t *testing.T) {
	countSteps := func(seed int, st int64) int {
		r := NewRand(seed)
		for n := 0; n < 100000; n++ {
			if r.State() == st {
				return n
			}
			r.Step()
		}
		return -1
	}
	g, err := New(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.rng.State(); got != 207944597 {
		t.Errorf("seed 1: state after placement = %d, want 207944597", got)
	}
	if got := countSteps(1, g.rng.State()); got != 14364 {
		t.Errorf("seed 1: steps after placement = %d, want 14364", got)
	}
	caves := len(g.caves)
	if caves != 1458 {
		t.Errorf("seed 1: %d cave cells, want 1458", caves)
	}
	want := map[int]Pos{90: {26, 51, 0}, 91: {31, 56, 0}, 92: {23, 25, 0}}
	for id, p := range want {
		if got := g.Units[id].Pos; got != p {
			t.Errorf("seed 1: hellhound %d at %v, want %v", id, got, p)
		}
	}
	var none [NumPlayers][]Command
	if err := g.Step(&none); err != nil {
		t.Fatal(err)
	}
	if got := g.rng.State(); got != 1707777015 {
		t.Errorf("seed 1: state after round 0 = %d, want 1707777015", got)
	}
	wantMoves := []Move{{ID: 90, Dir: Left}, {ID: 91, Dir: RT}, {ID: 92, Dir: TL}}
	if !slices.Equal(g.Moves, wantMoves) {
		t.Errorf("seed 1 round 0 moves = %v, want %v", g.Moves, wantMoves)
	}

	g30, err := New(DefaultConfig(), 30)
	if err != nil {
		t.Fatal(err)
	}
	if got := countSteps(30, g30.rng.State()); got != 14190 {
		t.Errorf("seed 30: steps after placement = %d, want 14190", got)
	}
	if len(g30.caves) != 1461 {
		t.Errorf("seed 30: %d cave cells, want 1461", len(g30.caves))
	}
}

// SPEC §12 checkpoint: seed 1, four Demos, round 0, player 0's list.
func TestDemoCheckpoint(t *testing.T) {
	m, err := Def.NewBotMatch(DefaultConfig(), 1, [4]string{"Demo", "Demo", "Demo", "Demo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.PlayRound(); err != nil {
		t.Fatal(err)
	}
	want := []int{1, 4, 3, 6, 2, 6, 4, 6, 0, 6, 5, 3, 6, 0, 7, 0, 8, 0, 9, 2, 10, 0, 11, 0, 12, 2, 13, 0, 14, 4, 15, 6, 16, 0, 17, 3, 18, 0, 19, 6}
	var got []int
	for _, c := range m.Orders(0) {
		got = append(got, c.ID, int(c.Dir))
	}
	if !slices.Equal(got, want) {
		t.Errorf("Demo round 0 list = %v, want %v", got, want)
	}
}
