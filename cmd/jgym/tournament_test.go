package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"jgym/arena"
)

func tournamentJSON(t *testing.T, args ...string) arena.TournamentReport {
	t.Helper()
	code, out, errOut := evalRun(append([]string{"tournament", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("jgym tournament %v: exit %d: %s", args, code, errOut)
	}
	var rep arena.TournamentReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	rep.Seconds, rep.Workers = 0, 0
	return rep
}

func TestTournamentRanksStrongerBotFirst(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "r.svg")
	a := tournamentJSON(t, "Null", "Riddick", "-n", "6", "-j", "1", "--plot", plot)
	b := tournamentJSON(t, "Null", "Riddick", "-n", "6", "-j", "2")
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("-j 1 and -j 2 differ:\n%s\n%s", ja, jb)
	}
	if len(a.Bots) != 2 || a.Bots[0].Name != "Riddick" || a.Bots[1].Name != "Null" {
		t.Fatalf("ranking %+v, want Riddick first", a.Bots)
	}
	r, n := a.Bots[0], a.Bots[1]
	if r.Mu-r.CI95 <= n.Mu+n.CI95 {
		t.Errorf("intervals overlap: Riddick %.2f ± %.2f, Null %.2f ± %.2f", r.Mu, r.CI95, n.Mu, n.CI95)
	}
	if r.Seats != 12 || r.Games != 6 || len(a.Scores) != 6 || a.Schedule[1] != [4]string{"Riddick", "Null", "Riddick", "Null"} {
		t.Errorf("bookkeeping: %+v, schedule %v", r, a.Schedule[:2])
	}
	f, err := os.Open(plot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	texts := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("plot is not valid XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			texts += string(cd)
		}
	}
	if !strings.Contains(texts, "Riddick") || !strings.Contains(texts, "Null") {
		t.Errorf("plot lacks the bot names: %q", texts)
	}
}

func TestTournamentText(t *testing.T) {
	code, out, errOut := evalRun("tournament", "Demo", "Null", "Null", "-n", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"tournament: 3 bots, 3 games", "TrueSkill", "rating", "Demo"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, _, _ := evalRun("tournament", "Demo", "-n", "3"); code != 2 {
		t.Errorf("one bot: exit %d, want 2", code)
	}
}

// A long bot name fits left of the plot.
func TestPlotLongNames(t *testing.T) {
	long := "policy:runs/a-long-experiment-name/snapshot_000123.onnx"
	r := &arena.TournamentReport{Games: 4, Bots: []arena.Standing{{Name: long, Mu: 25, CI95: 3}, {Name: "Demo", Mu: 20, CI95: 3}}}
	path := filepath.Join(t.TempDir(), "plot.svg")
	if err := writePlot(path, r); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	m := regexp.MustCompile(`<text x="(\d+)"[^>]*text-anchor="end"[^>]*>` + regexp.QuoteMeta(long)).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no label for %q in the plot", long)
	}
	if x, _ := strconv.Atoi(string(m[1])); x < 7*len(long) {
		t.Errorf("the label of %d characters ends at x=%d: it is cut", len(long), x)
	}
}
