package gametest

import (
	"bytes"
	"slices"
	"testing"

	"jgym/game"
	"jgym/internal/race"
	"jgym/policy"
)

// Relabel is what OpponentsByScore needs of a game besides its
// definition: the games it watches and the test's own statement of the
// relabelling.
type Relabel[S any] struct {
	// Games are the seeds and the registered bots of the games watched
	// (a strong bot at the table, so that the scores differ), in the
	// default configuration.
	Games []RelabelGame
	// Rounds are the rounds, in increasing order, after which every
	// seat's observation is checked; Short replaces them under -short and
	// the race detector.
	Rounds, Short []int
	// Scores are the players' scores in s, which order the opponents.
	Scores func(s *S) [game.NumSeats]int
	// Permute returns a copy of s in which player p is player to[p]: the
	// owners of units and cells and every per-player list and count.
	// Encoded for a seat that stays, it is that seat's observation with
	// the opponents relabelled: the test's own statement of what the
	// relabelling must give, which finds any tensor it would miss.
	Permute func(s *S, to [game.NumSeats]int) *S
	// Opponents are the opponents' scores as a seat's relabelled
	// observation holds them, rels 1 to 3.
	Opponents func(obs [][]byte) [3]float32
}

// RelabelGame is one game OpponentsByScore watches.
type RelabelGame struct {
	Seed int
	Bots [game.NumSeats]string
}

// OpponentsByScore checks the game's opponents-by-score order
// (Def.OpponentOrders[policy.OpponentsByScore]) on observations of real
// games: every seat's tensors relabelled equal, byte for byte, the tensors
// the encoder writes for the same state with the opponents renumbered in
// order of decreasing score (Relabel.Permute), every tensor; a second
// relabelling changes nothing, and the opponents' scores are then
// decreasing. At least a third of the observations must have their
// opponents reordered, or the test proves little.
func OpponentsByScore[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], r Relabel[S]) {
	t.Helper()
	order := d.OpponentOrders[policy.OpponentsByScore]
	if order == nil {
		t.Fatalf("%s has no %s order", d.Name, policy.OpponentsByScore)
	}
	rounds := r.Rounds
	if testing.Short() || race.Enabled {
		rounds = r.Short
	}
	cfg := d.DefaultConfig()
	spec, err := d.Spec(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	enc := d.NewEncoder()
	encode := func(s *S, me int) [][]byte {
		obs := make([][]byte, len(spec.Observation))
		for k, ts := range spec.Observation {
			obs[k] = make([]byte, ts.Bytes())
		}
		enc.Encode(s, me, obs)
		return obs
	}
	cases, moved := 0, 0
	for _, gm := range r.Games {
		m, err := d.NewBotMatch(cfg, gm.Seed, gm.Bots)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range rounds {
			for m.Round() < at && !m.Done() {
				if err := m.PlayRound(); err != nil {
					t.Fatal(err)
				}
			}
			s := m.State()
			for me := range game.NumSeats {
				nr := ByScore(r.Scores(s), me)
				var to [game.NumSeats]int
				for k := range game.NumSeats {
					to[(me+k)%game.NumSeats] = (me + int(nr[k])) % game.NumSeats
				}
				got := encode(s, me)
				order(got)
				want := encode(r.Permute(s, to), me)
				for k := range want {
					if i := DiffIndex(got[k], want[k]); i >= 0 {
						t.Fatalf("seed %d round %d seat %d (new rels %v): %s byte %d = %d, the renumbered state's %d",
							gm.Seed, m.Round(), me, nr, spec.Observation[k].Name, i, got[k][i], want[k][i])
					}
				}
				again := make([][]byte, len(got))
				for k := range got {
					again[k] = slices.Clone(got[k])
				}
				order(again)
				for k := range again {
					if !bytes.Equal(again[k], got[k]) {
						t.Fatalf("seed %d round %d seat %d: a second relabelling changes %s", gm.Seed, m.Round(), me, spec.Observation[k].Name)
					}
				}
				if o := r.Opponents(got); o[0] < o[1] || o[1] < o[2] {
					t.Fatalf("seed %d round %d seat %d: the opponents' scores after are %v", gm.Seed, m.Round(), me, o)
				}
				cases++
				if nr != [game.NumSeats]uint8{0, 1, 2, 3} {
					moved++
				}
			}
		}
	}
	t.Logf("%d observations, the opponents reordered in %d", cases, moved)
	if moved < cases/3 {
		t.Errorf("the opponents reordered in %d of %d observations: the test proves little", moved, cases)
	}
}

// byScore is the test's own statement of the order: the new rel of each
// rel of seat me, the opponents sorted stably by decreasing score.
func ByScore(scores [game.NumSeats]int, me int) [game.NumSeats]uint8 {
	order := []int{1, 2, 3}
	slices.SortStableFunc(order, func(a, b int) int {
		return scores[(me+b)%game.NumSeats] - scores[(me+a)%game.NumSeats]
	})
	var nr [game.NumSeats]uint8
	for k, r := range order {
		nr[r] = uint8(1 + k)
	}
	return nr
}

// diffIndex is the first index where a and b differ, or -1.
func DiffIndex(a, b []byte) int {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	if len(b) > len(a) {
		return len(a)
	}
	return -1
}
