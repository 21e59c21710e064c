package arena

import "testing"

func TestEvalSchedule(t *testing.T) {
	games := EvalSchedule(6, 10)
	want := [][4]int{{0, 1, 2, 3}, {1, 0, 2, 3}, {1, 2, 0, 3}, {1, 2, 3, 0}, {0, 1, 2, 3}, {1, 0, 2, 3}}
	for i, g := range games {
		if g.Seed != 10+i || g.Seats != want[i] {
			t.Errorf("game %d = %+v, want seed %d seats %v", i, g, 10+i, want[i])
		}
	}
}

// TestSummarizeEval checks the statistics on 8 games with known outcomes.
func TestSummarizeEval(t *testing.T) {
	games := EvalSchedule(8, 1)
	// BOT's score is in seat i%4; the other seats hold opponents 1, 2, 3.
	botScores := []int{100, 50, 80, 10, 100, 60, 90, 70}
	oppScores := [][3]int{{20, 30, 40}, {50, 20, 10}, {90, 10, 0}, {20, 30, 40}, {10, 10, 10}, {10, 70, 60}, {80, 0, 0}, {60, 0, 0}}
	results := make([]Result, len(games))
	for i, g := range games {
		r := Result{Seed: g.Seed, Seats: g.Seats}
		for p, b := range g.Seats {
			if b == 0 {
				r.Scores[p] = botScores[i]
			} else {
				r.Scores[p] = oppScores[i][b-1]
			}
		}
		results[i] = r
	}
	var rep EvalReport
	rep.Summarize(results)
	// Outcomes: win, tie, rank 2, rank 4, win, rank 2 (60 vs 70, 60), win, win.
	if rep.Games != 8 || rep.Wins != 4 || rep.Ties != 1 || rep.Losses != 3 {
		t.Fatalf("games %d wins %d ties %d losses %d, want 8 4 1 3", rep.Games, rep.Wins, rep.Ties, rep.Losses)
	}
	if w := Wilson(4, 8, Z95); rep.WinRate != w {
		t.Errorf("win rate %+v, want %+v", rep.WinRate, w)
	}
	ranks := []float64{1, 1, 2, 4, 1, 2, 1, 1}
	if want := MeanInterval(ranks).Within(1, 4); rep.MeanRank != want || !near(rep.MeanRank.Value, 13.0/8, 1e-12) {
		t.Errorf("mean rank %+v, want %+v (13/8)", rep.MeanRank, want)
	}
	scores := []float64{100, 50, 80, 10, 100, 60, 90, 70}
	if !near(rep.MeanScore.Value, 560.0/8, 1e-12) || rep.MeanScore != BootstrapMeanInterval(scores, BootstrapResamples) {
		t.Errorf("mean score %+v, want 70 with its bootstrap interval", rep.MeanScore)
	}
	// Sorted scores 10 50 60 70 80 90 100 100: median 75; with 8 games
	// the order-statistic interval is [min, max].
	if want := (Interval{75, 10, 100}); rep.MedianScore != want {
		t.Errorf("median score %+v, want %+v", rep.MedianScore, want)
	}
	if rep.Intervals != EvalIntervals {
		t.Errorf("intervals %q, want %q", rep.Intervals, EvalIntervals)
	}
	// Margins: 60, 0, -10, -30, 90, -10, 10, 10.
	if !near(rep.MeanMargin.Value, 120.0/8, 1e-12) {
		t.Errorf("mean margin %v, want 15", rep.MeanMargin.Value)
	}
	if want := (Interval{5, -30, 90}); rep.MedianMargin != want {
		t.Errorf("median margin %+v, want %+v", rep.MedianMargin, want)
	}
	wantOpp := []float64{340.0 / 8, 170.0 / 8, 160.0 / 8}
	for k, w := range wantOpp {
		if !near(rep.OppScore[k].Value, w, 1e-12) {
			t.Errorf("opponent %d mean score %v, want %v", k, rep.OppScore[k].Value, w)
		}
	}
	wantSeat := []int{2, 0, 1, 1} // wins in seats 0..3
	for p, s := range rep.PerSeat {
		if s.Games != 2 || s.Wins != wantSeat[p] {
			t.Errorf("seat %d: %d/%d wins, want %d/2", p, s.Wins, s.Games, wantSeat[p])
		}
	}
	if rep.Results[1].Outcome != "tie" || rep.Results[3].Rank != 4 || rep.Results[2].Seat != 2 {
		t.Errorf("per-game results wrong: %+v", rep.Results[:4])
	}
}
