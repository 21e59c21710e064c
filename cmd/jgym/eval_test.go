package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jgym/env/crematoria"
)

// evalRun runs a jgym command line and returns its exit code and outputs.
func evalRun(args ...string) (int, string, string) {
	var o, e bytes.Buffer
	code := run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestWilson(t *testing.T) {
	// Reference values computed independently from the Wilson formula.
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.2775328},
		{5, 10, 0.2365931, 0.7634069},
		{10, 10, 0.7224672, 1},
		{190, 200, 0.9104219, 0.9726174},
		{1, 8, 0.0224175, 0.4708882},
	} {
		got := wilson(tc.k, tc.n, z95)
		if !near(got.Lo, tc.lo, 1e-6) || !near(got.Hi, tc.hi, 1e-6) || !near(got.Value, float64(tc.k)/float64(tc.n), 1e-12) {
			t.Errorf("wilson(%d, %d) = %+v, want [%.7f, %.7f]", tc.k, tc.n, got, tc.lo, tc.hi)
		}
	}
	if got := wilson(0, 0, z95); got.Lo != 0 || got.Hi != 1 {
		t.Errorf("wilson(0, 0) = %+v, want [0, 1]", got)
	}
}

func TestTQuantile(t *testing.T) {
	// Student t 97.5% quantiles from statistical tables.
	for _, tc := range []struct {
		df   int
		want float64
	}{
		{1, 12.706205}, {4, 2.776445}, {5, 2.570582}, {9, 2.262157}, {10, 2.228139},
		{20, 2.085963}, {30, 2.042272}, {100, 1.983972}, {1000, 1.962339},
	} {
		if got := tQuantile975(tc.df); !near(got, tc.want, 2e-5) {
			t.Errorf("tQuantile975(%d) = %.6f, want %.6f", tc.df, got, tc.want)
		}
	}
	if !math.IsInf(tQuantile975(0), 1) {
		t.Error("tQuantile975(0) should be +Inf")
	}
}

func TestMeanInterval(t *testing.T) {
	for _, tc := range []struct {
		xs           []float64
		mean, lo, hi float64
	}{
		// s = 1.5811, se = 0.7071, t(4) = 2.7764: half width 1.9632.
		{[]float64{1, 2, 3, 4, 5}, 3, 1.0367568, 4.9632432},
		{[]float64{7, 7, 7}, 7, 7, 7},
		{[]float64{4}, 4, 4, 4},
	} {
		got := meanInterval(tc.xs)
		if !near(got.Value, tc.mean, 1e-9) || !near(got.Lo, tc.lo, 1e-6) || !near(got.Hi, tc.hi, 1e-6) {
			t.Errorf("meanInterval(%v) = %+v, want %v [%v, %v]", tc.xs, got, tc.mean, tc.lo, tc.hi)
		}
	}
}

func TestRankAndOutcome(t *testing.T) {
	for _, tc := range []struct {
		scores   [4]int
		ranks    [4]int
		outcomes [4]int
	}{
		{[4]int{10, 20, 30, 40}, [4]int{4, 3, 2, 1}, [4]int{-1, -1, -1, 1}},
		{[4]int{50, 50, 10, 0}, [4]int{1, 1, 3, 4}, [4]int{0, 0, -1, -1}},
		{[4]int{5, 9, 9, 5}, [4]int{3, 1, 1, 3}, [4]int{-1, 0, 0, -1}},
		{[4]int{0, 0, 0, 0}, [4]int{1, 1, 1, 1}, [4]int{0, 0, 0, 0}},
	} {
		for p := 0; p < 4; p++ {
			if r := rankOf(tc.scores, p); r != tc.ranks[p] {
				t.Errorf("rankOf(%v, %d) = %d, want %d", tc.scores, p, r, tc.ranks[p])
			}
			if o := outcome(tc.scores, p); o != tc.outcomes[p] {
				t.Errorf("outcome(%v, %d) = %d, want %d", tc.scores, p, o, tc.outcomes[p])
			}
		}
	}
}

func TestEvalSchedule(t *testing.T) {
	games := evalGames(6, 10)
	want := [][4]int{{0, 1, 2, 3}, {1, 0, 2, 3}, {1, 2, 0, 3}, {1, 2, 3, 0}, {0, 1, 2, 3}, {1, 0, 2, 3}}
	for i, g := range games {
		if g.Seed != 10+i || g.Seats != want[i] {
			t.Errorf("game %d = %+v, want seed %d seats %v", i, g, 10+i, want[i])
		}
	}
}

// TestSummarizeEval checks the statistics on 8 games with known outcomes.
func TestSummarizeEval(t *testing.T) {
	games := evalGames(8, 1)
	// BOT's score is in seat i%4; the other seats hold opponents 1, 2, 3.
	botScores := []int{100, 50, 80, 10, 100, 60, 90, 70}
	oppScores := [][3]int{{20, 30, 40}, {50, 20, 10}, {90, 10, 0}, {20, 30, 40}, {10, 10, 10}, {10, 70, 60}, {80, 0, 0}, {60, 0, 0}}
	results := make([]arenaResult, len(games))
	for i, g := range games {
		r := arenaResult{Seed: g.Seed, Seats: g.Seats}
		for p, b := range g.Seats {
			if b == 0 {
				r.Scores[p] = botScores[i]
			} else {
				r.Scores[p] = oppScores[i][b-1]
			}
		}
		results[i] = r
	}
	var rep evalReport
	summarizeEval(results, &rep)
	// Outcomes: win, tie, rank 2, rank 4, win, rank 2 (60 vs 70, 60), win, win.
	if rep.Games != 8 || rep.Wins != 4 || rep.Ties != 1 || rep.Losses != 3 {
		t.Fatalf("games %d wins %d ties %d losses %d, want 8 4 1 3", rep.Games, rep.Wins, rep.Ties, rep.Losses)
	}
	if w := wilson(4, 8, z95); rep.WinRate != w {
		t.Errorf("win rate %+v, want %+v", rep.WinRate, w)
	}
	ranks := []float64{1, 1, 2, 4, 1, 2, 1, 1}
	if want := meanInterval(ranks).within(1, 4); rep.MeanRank != want || !near(rep.MeanRank.Value, 13.0/8, 1e-12) {
		t.Errorf("mean rank %+v, want %+v (13/8)", rep.MeanRank, want)
	}
	if !near(rep.MeanScore.Value, 560.0/8, 1e-12) {
		t.Errorf("mean score %v, want 70", rep.MeanScore.Value)
	}
	// Margins: 60, 0, -10, -30, 90, -10, 10, 10.
	if !near(rep.MeanMargin.Value, 120.0/8, 1e-12) {
		t.Errorf("mean margin %v, want 15", rep.MeanMargin.Value)
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

// evalJSON runs jgym eval with --json and returns the report without the
// fields that depend on the machine.
func evalJSON(t *testing.T, args ...string) evalReport {
	t.Helper()
	code, out, errOut := evalRun(append([]string{"eval", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("jgym eval %v: exit %d: %s", args, code, errOut)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	rep.Seconds, rep.Workers = 0, 0
	return rep
}

func TestEvalSameResultsForAnyWorkers(t *testing.T) {
	a := evalJSON(t, "Riddick", "-n", "8", "-j", "1")
	b := evalJSON(t, "Riddick", "-n", "8", "-j", "2")
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatalf("-j 1 and -j 2 differ:\n%s\n%s", ja, jb)
	}
	if a.Games != 8 || len(a.Results) != 8 || a.Opponents[2] != "Demo" {
		t.Fatalf("unexpected report %+v", a)
	}
	// Riddick is far stronger than the Demo.
	if a.Wins != 8 {
		t.Errorf("Riddick won %d of 8 games against three Demos", a.Wins)
	}
}

func TestEvalTextAndTraces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "traces")
	code, out, errOut := evalRun("eval", "Demo", "--opponents", "Null", "-n", "4", "--seed0", "7", "--trace-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Demo vs Null, Null, Null: 4 games, seeds 7..10", "win rate", "mean rank", "per seat"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "4/4 games") {
		t.Errorf("no final progress line on a non-terminal: %q", errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.res"))
	if len(files) != 4 {
		t.Fatalf("%d traces, want 4", len(files))
	}
	b, err := os.ReadFile(filepath.Join(dir, "0001_s8_Null-Demo-Null-Null.res"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("Game\n\nSeed 8\n")) || !bytes.HasSuffix(b, []byte("\n\n")) {
		t.Errorf("trace does not look like a .res file")
	}
}

func TestEvalUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"eval"},
		{"eval", "Riddick", "Demo"},
		{"eval", "Riddick", "--opponents", "Demo,Demo"},
		{"eval", "Riddick", "-n", "0"},
		{"eval", "Riddick", "-j", "0"},
	} {
		if code, _, _ := evalRun(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errOut := evalRun("eval", "NoSuchBot", "-n", "1"); code != 1 || !strings.Contains(errOut, "unknown bot") {
		t.Errorf("unknown bot: exit %d, %q", code, errOut)
	}
}

func TestArenaStopsOnCancel(t *testing.T) {
	ar, err := newArena(crematoria.DefaultConfig(), []string{"Demo", "Null"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer ar.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ar.play(ctx, tournamentGames(2, 50, 1)); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestIntervalWithin(t *testing.T) {
	got := interval{Value: 1.05, Lo: 0.949, Hi: 1.151}.within(1, 4)
	if want := (interval{Value: 1.05, Lo: 1, Hi: 1.151}); got != want {
		t.Errorf("within(1, 4) = %+v, want %+v", got, want)
	}
}
