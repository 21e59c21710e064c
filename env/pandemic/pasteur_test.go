package pandemic

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// dummyGame is a reference game with Dummy in one seat and players jgym
// can run (Null, Demo) in the others.
type dummyGame struct {
	name  string
	cfg   Config
	seed  int
	seat  int
	names [4]string
	score int // Dummy's final score
}

// dummyGames lists the reference games of the main and edge indexes whose
// only Dummy plays with Null and Demo players.
func dummyGames(t *testing.T) []dummyGame {
	var out []dummyGame
	for _, dir := range []string{tracesRoot(), filepath.Join(tracesRoot(), "edge")} {
		f, err := os.Open(filepath.Join(dir, "index.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Split(sc.Text(), "\t")
			if len(fields) < 4 || fields[0] == "file" {
				continue
			}
			names := strings.Split(fields[2], "-")
			seat, others := -1, true
			for p, n := range names {
				switch n {
				case "Dummy":
					if seat >= 0 {
						others = false
					}
					seat = p
				case "Null", "Demo":
				default:
					others = false
				}
			}
			if len(names) != NumPlayers || seat < 0 || !others {
				continue
			}
			g := dummyGame{name: fields[0], cfg: DefaultConfig(), seat: seat}
			copy(g.names[:], names)
			g.seed, _ = strconv.Atoi(fields[1])
			g.score, _ = strconv.Atoi(strings.Split(fields[3], ",")[seat])
			if cnf := filepath.Join(dir, strings.TrimSuffix(fields[0], ".res.gz")+".cnf"); fileExists(cnf) {
				b, err := os.ReadFile(cnf)
				if err != nil {
					t.Fatal(err)
				}
				if g.cfg, err = ParseConfig(strings.NewReader(string(b))); err != nil {
					t.Fatal(err)
				}
			}
			out = append(out, g)
		}
		f.Close()
	}
	return out
}

// checkedBot wraps a bot and fails the test when it gives an order that
// the player-side filter or the engine would drop.
type checkedBot struct {
	Bot
	t  *testing.T
	me int
}

func (c *checkedBot) Play(s *State, o *Orders) {
	c.Bot.Play(s, o)
	if o.Warnings != 0 || o.Err() != nil {
		c.t.Errorf("seat %d round %d: %d orders dropped by the filter", c.me, s.Round, o.Warnings)
	}
	for _, cmd := range o.List() {
		if cmd.ID < 0 || cmd.ID >= len(s.Units) || s.Units[cmd.ID].Player != c.me || !cmd.Dir.Valid() || cmd.Dir == None {
			c.t.Errorf("seat %d round %d: order %v the engine drops", c.me, s.Round, cmd)
		}
	}
}

// playSeated plays a game with Pasteur in seat and the named bots
// elsewhere, and returns the scores.
func playSeated(t *testing.T, cfg Config, seed, seat int, names [4]string) [4]int {
	var bots [4]Bot
	for p, n := range names {
		if p == seat {
			continue
		}
		f, err := Def.Bots.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = f(p, seed)
	}
	bots[seat] = &checkedBot{Bot: NewPasteur(seat, seed), t: t, me: seat}
	names[seat] = "Pasteur"
	m, err := Def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m.Scores()
}

// TestPasteurStrength measures the two aims of the strong bot: it wins at
// least 95% of its games against three Demos (its seat rotating over the
// four seats, seeds the reference traces do not use), and from the seat of
// Dummy, the course's strongest bot, in the reference games whose other
// players jgym can run, it scores more than Dummy did on average.
func TestPasteurStrength(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 40
	}
	wins := 0
	for g := 0; g < games; g++ {
		seat := g % NumPlayers
		sc := playSeated(t, DefaultConfig(), 1000+g, seat, [4]string{"Demo", "Demo", "Demo", "Demo"})
		win := true
		for p := range sc {
			if p != seat && sc[p] >= sc[seat] {
				win = false
			}
		}
		if win {
			wins++
		} else {
			t.Logf("seed %d seat %d: lost with scores %v", 1000+g, seat, sc)
		}
	}
	t.Logf("against three Demos: %d wins in %d games (%.1f%%)", wins, games, 100*float64(wins)/float64(games))
	if got, want := float64(wins)/float64(games), 0.95; got < want {
		t.Errorf("win rate against three Demos = %.3f, want at least %.2f", got, want)
	}

	dummy := dummyGames(t)
	if len(dummy) == 0 {
		t.Fatal("no reference game of Dummy with Null and Demo players")
	}
	var sum, dsum int
	for _, g := range dummy {
		sc := playSeated(t, g.cfg, g.seed, g.seat, g.names)
		t.Logf("%s: Pasteur %d, Dummy %d", g.name, sc[g.seat], g.score)
		sum += sc[g.seat]
		dsum += g.score
	}
	got, want := float64(sum)/float64(len(dummy)), float64(dsum)/float64(len(dummy))
	t.Logf("from Dummy's seat in %d reference games: Pasteur mean %.0f, Dummy mean %.0f", len(dummy), got, want)
	if got <= want {
		t.Errorf("Pasteur's mean score from Dummy's seat = %.0f, want more than Dummy's %.0f", got, want)
	}
}

// TestPasteurBeatsDummyClones plays Pasteur against three DummyClones
// (the course's Dummy, command for command) on 40 seeds used neither in
// tuning Pasteur (1-400) nor in its reported evaluation (7001-7200), its
// seat rotating, and checks it wins at least 75% of them, the aim of
// issue 30 (the games are deterministic: 39 of 40 when written).
func TestPasteurBeatsDummyClones(t *testing.T) {
	const games, seed0 = 40, 5001
	wins := 0
	for g := 0; g < games; g++ {
		seat := g % NumPlayers
		sc := playSeated(t, DefaultConfig(), seed0+g, seat, [4]string{"DummyClone", "DummyClone", "DummyClone", "DummyClone"})
		win := true
		for p := range sc {
			if p != seat && sc[p] >= sc[seat] {
				win = false
			}
		}
		if win {
			wins++
		} else {
			t.Logf("seed %d seat %d: lost with scores %v", seed0+g, seat, sc)
		}
	}
	t.Logf("against three DummyClones: %d wins in %d games", wins, games)
	if wins*4 < games*3 {
		t.Errorf("Pasteur won %d of %d games against three DummyClones, want at least 75%%", wins, games)
	}
}

// TestPasteurPlaysEdgeConfigs plays Pasteur against Demos in every
// configuration of the reference edge cases (small, tiny, virulent, big,
// FIXED, ...): its orders are never dropped, and the games verify.
func TestPasteurPlaysEdgeConfigs(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range traceCases(t) {
		key := tc.cfg.String()
		if !tc.edge || seen[key] {
			continue
		}
		seen[key] = true
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			var bots [4]Bot
			for p := range bots {
				bots[p] = NewDemo(p, tc.seed)
			}
			bots[1] = &checkedBot{Bot: NewPasteur(1, tc.seed), t: t, me: 1}
			m, err := Def.NewMatch(tc.cfg, tc.seed, [4]string{"Demo", "Pasteur", "Demo", "Demo"}, bots)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			m.WriteTrace(&buf)
			if err := m.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			tr, err := ParseTrace(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(tr, nil); err != nil {
				t.Errorf("rules: %v", err)
			}
			t.Logf("scores %v", m.Scores())
		})
	}
}

// TestPasteurMapsKept: the Pasteurs of a map share one set of distance
// fields, the same as a Pasteur's own search of that map gives, and a
// map of another seed or size gets its own.
func TestPasteurMapsKept(t *testing.T) {
	own := func(s *State) *pasteurFields { // the fields searched anew, kept nowhere
		m := &pasteurMap{rows: s.Rows, cols: s.Cols}
		f := &pasteurFields{}
		for _, c := range s.Cities {
			f.cityDist = append(f.cityDist, m.field(s, c, nil))
		}
		for _, p := range s.Paths {
			f.pathDist = append(f.pathDist, m.field(s, p.Cells, nil))
		}
		return f
	}
	small := DefaultConfig()
	small.Rows, small.Cols = 50, 50
	var seen []*pasteurFields
	for _, c := range []struct {
		cfg  Config
		seed int
	}{{DefaultConfig(), 1}, {DefaultConfig(), 2}, {small, 1}} {
		g, err := New(c.cfg, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		var cp State
		cp.CopyFrom(&g.State)
		a, b := newPasteurMap(&g.State), newPasteurMap(&cp)
		if a.pasteurFields != b.pasteurFields {
			t.Errorf("seed %d, %dx%d: two Pasteurs of one map made their fields twice", c.seed, c.cfg.Rows, c.cfg.Cols)
		}
		want := own(&g.State)
		if !slices.EqualFunc(a.cityDist, want.cityDist, slices.Equal) || !slices.EqualFunc(a.pathDist, want.pathDist, slices.Equal) {
			t.Errorf("seed %d, %dx%d: the kept fields differ from the map's own", c.seed, c.cfg.Rows, c.cfg.Cols)
		}
		if slices.Contains(seen, a.pasteurFields) {
			t.Errorf("seed %d, %dx%d: given the fields of another map", c.seed, c.cfg.Rows, c.cfg.Cols)
		}
		seen = append(seen, a.pasteurFields)
	}
}
