package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"jgym/arena"
)

// evalRun runs a jgym command line and returns its exit code and outputs.
func evalRun(args ...string) (int, string, string) {
	var o, e bytes.Buffer
	code := run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

// evalJSON runs jgym eval with --json and returns the report without the
// fields that depend on the machine.
func evalJSON(t *testing.T, args ...string) arena.EvalReport {
	t.Helper()
	code, out, errOut := evalRun(append([]string{"eval", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("jgym eval %v: exit %d: %s", args, code, errOut)
	}
	var rep arena.EvalReport
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
	for _, want := range []string{"Demo vs Null, Null, Null: 4 games, seeds 7..10", "win rate", "mean rank", "per seat",
		"mean score", "(bootstrap)", "median score", "(order statistics)", "intervals     95% intervals:"} {
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

// TestEvalHeavyTailIntervals evaluates at Pandemic, whose scores are
// exponential in the size of a player's connected group of cities, and
// checks the score intervals stay within the scores (a normal interval of
// the mean can reach below zero) and the medians are the games'.
func TestEvalHeavyTailIntervals(t *testing.T) {
	rep := evalJSON(t, "-g", "pandemic", "DummyClone", "--opponents", "Demo", "-n", "12", "-j", "2")
	var scores, margins []float64
	for _, g := range rep.Results {
		best := -1
		for p, s := range g.Scores {
			if p != g.Seat {
				best = max(best, s)
			}
		}
		scores = append(scores, float64(g.Scores[g.Seat]))
		margins = append(margins, float64(g.Scores[g.Seat]-best))
	}
	if len(scores) != 12 {
		t.Fatalf("%d results, want 12", len(scores))
	}
	lo, hi := slices.Min(scores), slices.Max(scores)
	if m := rep.MeanScore; m.Lo < lo || m.Hi > hi || m.Lo > m.Value || m.Value > m.Hi {
		t.Errorf("mean score %+v outside the scores [%v, %v]", m, lo, hi)
	}
	if want := arena.BootstrapMeanInterval(scores, arena.BootstrapResamples); rep.MeanScore != want {
		t.Errorf("mean score %+v, want the bootstrap interval %+v", rep.MeanScore, want)
	}
	if want := arena.MedianInterval(scores); rep.MedianScore != want {
		t.Errorf("median score %+v, want %+v", rep.MedianScore, want)
	}
	if want := arena.MedianInterval(margins); rep.MedianMargin != want {
		t.Errorf("median margin %+v, want %+v", rep.MedianMargin, want)
	}
	if rep.Intervals != arena.EvalIntervals {
		t.Errorf("intervals %q", rep.Intervals)
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

// TestEvalJournal: a journal written by a shorter run gives a longer one
// the games it shares, and the report is the one-run report; a journal of
// other players or other search sizes is refused.
func TestEvalJournal(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "eval.jsonl")
	want := evalJSON(t, "Demo", "--opponents", "Null", "-n", "6", "--seed0", "3")
	evalJSON(t, "Demo", "--opponents", "Null", "-n", "4", "--seed0", "3", "--journal", journal)
	code, out, errOut := evalRun("eval", "--json", "Demo", "--opponents", "Null", "-n", "6", "--seed0", "3", "--journal", journal, "-j", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "4 of the 6 games done already, playing the other 2") || !strings.Contains(errOut, "2/2 games") {
		t.Errorf("stderr does not say the journal's games were reused: %q", errOut)
	}
	var got arena.EvalReport
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Resumed != 4 {
		t.Errorf("resumed %d games, want 4", got.Resumed)
	}
	got.Seconds, got.Workers, got.Resumed = 0, 0, 0
	ja, _ := json.Marshal(got)
	jb, _ := json.Marshal(want)
	if !bytes.Equal(ja, jb) {
		t.Errorf("the resumed report differs from one run's:\n%s\n%s", ja, jb)
	}
	code, _, errOut = evalRun("eval", "Demo", "--opponents", "Demo", "-n", "6", "--seed0", "3", "--journal", journal)
	if code == 0 || !strings.Contains(errOut, "another players") {
		t.Errorf("a journal of other opponents: exit %d, %q", code, errOut)
	}
	t.Setenv("JGYM_SEARCH", "4,2,8")
	code, _, errOut = evalRun("eval", "Demo", "--opponents", "Null", "-n", "6", "--seed0", "3", "--journal", journal)
	if code == 0 || !strings.Contains(errOut, "another JGYM_SEARCH") {
		t.Errorf("a journal of other search sizes: exit %d, %q", code, errOut)
	}
}
