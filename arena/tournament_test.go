package arena

import "testing"

func TestTournamentSchedule(t *testing.T) {
	for _, k := range []int{2, 3, 4, 5, 6} {
		n := 4 * k * 15 // whole passes over the subsets and the rotations
		games := TournamentSchedule(k, n, 1)
		seatCount := make([][4]int, k)
		for i, g := range games {
			if g.Seed != 1+i {
				t.Fatalf("k=%d game %d seed %d", k, i, g.Seed)
			}
			distinct := map[int]bool{}
			for s, b := range g.Seats {
				seatCount[b][s]++
				distinct[b] = true
			}
			if want := min(k, 4); len(distinct) != want {
				t.Fatalf("k=%d game %d: %v has %d distinct bots, want %d", k, i, g.Seats, len(distinct), want)
			}
		}
		// Every bot sits in every seat equally often.
		for b := 1; b < k; b++ {
			if seatCount[b] != seatCount[0] {
				t.Errorf("k=%d: seat counts %v", k, seatCount)
				break
			}
		}
		for s := 1; s < 4; s++ {
			if seatCount[0][s] != seatCount[0][0] {
				t.Errorf("k=%d: bot 0 seats %v", k, seatCount[0])
			}
		}
	}
}

// Player 1 wins every game alone, player 0 ties with player 2 twice.
func TestRateTournament(t *testing.T) {
	results := []Result{
		{Seed: 1, Seats: [4]int{0, 1, 2, 0}, Scores: [4]int{5, 9, 5, 1}},
		{Seed: 2, Seats: [4]int{1, 2, 0, 1}, Scores: [4]int{9, 5, 5, 0}},
	}
	got := RateTournament([]string{"A", "B", "C"}, results, DefaultTrueSkill)
	if len(got) != 3 || got[0].Name != "B" {
		t.Fatalf("standings %+v, want B first", got)
	}
	b := got[0]
	if b.Games != 2 || b.Seats != 3 || b.Wins != 2 || b.WinRate != Wilson(2, 3, Z95) || b.MeanScore != MeanInterval([]float64{9, 9, 0}) {
		t.Errorf("B: %+v", b)
	}
	if b.CI95 != Z95*b.Sigma || b.Mu <= DefaultTrueSkill.Mu {
		t.Errorf("B's rating %.3f ± %.3f", b.Mu, b.CI95)
	}
}
