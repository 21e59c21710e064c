package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The expected ratings are the published results of the TrueSkill
// algorithm with the default settings (draw probability 10%, tau included),
// as given by the reference implementations' test suites.
func TestTrueSkill(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ranks []int
		want  []rating
	}{
		{"1 vs 1 win", []int{1, 2}, []rating{{29.396, 7.171}, {20.604, 7.171}}},
		{"1 vs 1 draw", []int{1, 1}, []rating{{25.000, 6.457}, {25.000, 6.457}}},
		{"4-player free-for-all", []int{1, 2, 3, 4}, []rating{{33.207, 6.348}, {27.401, 5.787}, {22.599, 5.787}, {16.793, 6.348}}},
		{"order of seats does not matter", []int{3, 1, 4, 2}, []rating{{22.599, 5.787}, {33.207, 6.348}, {16.793, 6.348}, {27.401, 5.787}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.ranks)
			r := make([]rating, n)
			seats := make([]int, n)
			for i := range r {
				r[i] = rating{tsDefault.Mu, tsDefault.Sigma}
				seats[i] = i
			}
			tsRate(tsDefault, r, seats, tc.ranks)
			for i, w := range tc.want {
				if !near(r[i].Mu, w.Mu, 1e-3) || !near(r[i].Sigma, w.Sigma, 1e-3) {
					t.Errorf("player %d: %.3f ± %.3f, want %.3f ± %.3f", i, r[i].Mu, r[i].Sigma, w.Mu, w.Sigma)
				}
			}
		})
	}
}

func TestTrueSkillSharedSeats(t *testing.T) {
	// Players 0 and 1 hold two seats each and 0 beats 1 with both seats.
	// The winner goes up, the loser down, symmetrically, and both become
	// more certain than after a 1 vs 1 game (every seat counts as
	// evidence, see tsRate).
	one := []rating{{25, 25.0 / 3}, {25, 25.0 / 3}}
	tsRate(tsDefault, one, []int{0, 1}, []int{1, 2})
	two := []rating{{25, 25.0 / 3}, {25, 25.0 / 3}}
	tsRate(tsDefault, two, []int{0, 1, 0, 1}, []int{1, 3, 1, 3})
	if !(two[0].Mu > 25 && two[1].Mu < 25 && near(two[0].Mu-25, 25-two[1].Mu, 1e-9) &&
		near(two[0].Sigma, two[1].Sigma, 1e-9) && two[0].Sigma < one[0].Sigma) {
		t.Errorf("one seat each: %+v; two seats each: %+v", one, two)
	}
}

func TestTournamentSchedule(t *testing.T) {
	for _, k := range []int{2, 3, 4, 5, 6} {
		n := 4 * k * 15 // whole passes over the subsets and the rotations
		games := tournamentGames(k, n, 1)
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

func tournamentJSON(t *testing.T, args ...string) tournamentReport {
	t.Helper()
	code, out, errOut := evalRun(append([]string{"tournament", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("jgym tournament %v: exit %d: %s", args, code, errOut)
	}
	var rep tournamentReport
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
