package dominator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// checkedBot wraps a bot and fails the test when one of its rounds gives
// an order that the player-side filter or the engine would drop.
type checkedBot struct {
	Bot
	t    *testing.T
	me   int
	name string
	mu   *sync.Mutex
	bad  *int
}

func (c *checkedBot) Play(v *State, o *Orders) {
	c.Bot.Play(v, o)
	fail := func(format string, a ...any) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if *c.bad++; *c.bad <= 5 {
			c.t.Errorf("%s seat %d round %d: %s", c.name, c.me, v.Round, fmt.Sprintf(format, a...))
		}
	}
	if o.Warnings != 0 || o.Count() != len(o.List()) {
		fail("%d calls for %d orders (%d duplicates)", o.Count(), len(o.List()), o.Warnings)
	}
	for _, cmd := range o.List() {
		switch {
		case cmd.ID < 0 || cmd.ID >= len(v.Units):
			fail("order for id %d", cmd.ID)
		case v.Units[cmd.ID].Player != 0:
			fail("order for unit %d of view player %d", cmd.ID, v.Units[cmd.ID].Player)
		case !cmd.Dir.Valid() || cmd.Dir == None:
			fail("direction %v for unit %d", cmd.Dir, cmd.ID)
		case cmd.Dir.Diagonal() && v.Units[cmd.ID].Type != Knight:
			fail("diagonal %v for %s %d", cmd.Dir, v.Units[cmd.ID].Type, cmd.ID)
		}
	}
}

// demoGames is the number of games TestKhanBeatsDemos plays: 200, fewer
// under -short or the race detector (which makes Khan 20 times slower).
func demoGames() int {
	switch {
	case raceEnabled:
		return 12
	case testing.Short():
		return 40
	}
	return 200
}

// TestKhanBeatsDemos plays Khan against three Demos, its seat rotating
// over the four seats, on seeds no reference trace uses (1000 and up), and
// requires it to win (a strictly higher total than each Demo) at least 95%
// of the games. Its orders must all be valid.
func TestKhanBeatsDemos(t *testing.T) {
	games := demoGames()
	const workers = 2
	var mu sync.Mutex
	wins, bad := 0, 0
	var margin float64
	t.Run("games", func(t *testing.T) {
		for w := 0; w < workers; w++ {
			t.Run(fmt.Sprint(w), func(t *testing.T) {
				t.Parallel()
				for g := w; g < games; g += workers {
					seat, seed := g%NumPlayers, 1000+g
					var bots [NumPlayers]Bot
					var names [NumPlayers]string
					for p := range bots {
						bots[p], names[p] = NewDemo(p, seed), "Demo"
					}
					names[seat] = "Khan"
					bots[seat] = &checkedBot{Bot: NewKhan(seat, seed), t: t, me: seat, name: "Khan", mu: &mu, bad: &bad}
					m, err := Def.NewMatch(DefaultConfig(), seed, names, bots)
					if err != nil {
						t.Fatal(err)
					}
					if err := m.Run(context.Background()); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					best := 0
					for p, s := range m.Game.TotalScore {
						if p != seat {
							best = max(best, s)
						}
					}
					mu.Lock()
					if m.Game.TotalScore[seat] > best {
						wins++
					}
					margin += float64(m.Game.TotalScore[seat]) / float64(max(best, 1))
					mu.Unlock()
				}
			})
		}
	})
	rate := float64(wins) / float64(games)
	t.Logf("Khan won %d of %d games against three Demos (%.1f%%); its total was %.1f times the best Demo's on average",
		wins, games, 100*rate, margin/float64(games))
	if rate < 0.95 {
		t.Errorf("Khan won %.1f%% of its games against three Demos, want at least 95%%", 100*rate)
	}
}

// replayBot gives the commands a command log recorded for its seat: a
// player jgym cannot run (Chaos) replayed in a game that may have gone
// another way.
type replayBot struct {
	log  *CommandLog
	seat int
}

func (b replayBot) Play(v *State, o *Orders) {
	for _, c := range b.log.Round(v.Round)[b.seat] {
		o.Command(c.ID, c.Dir)
	}
}

// TestKhanBeatsDummy plays Khan in the Dummy's seat of every reference
// game with a Dummy and other players jgym can seat: same seed,
// configuration and other players (Null and Demo; Chaos, which jgym cannot
// run, replays its recorded commands). Khan's mean total must beat the
// Dummy's, over the main traces (the course's default configuration) and
// over all of them. Games of four Dummies are left out. Under -short or
// the race detector only the main traces are played.
func TestKhanBeatsDummy(t *testing.T) {
	short := testing.Short() || raceEnabled
	type result struct {
		name         string
		khan, dummy  int
		main, replay bool
	}
	var results []result
	for _, tc := range traceCases(t) {
		if tc.abort {
			continue
		}
		seat, others := -1, 0
		for p, n := range tc.names {
			if n == "Dummy" {
				seat, others = p, others+1
			}
		}
		if seat < 0 || others > 1 || (short && tc.edge) {
			continue
		}
		tr, log := loadRefTrace(t, tc)
		var bots [NumPlayers]Bot
		replay := false
		for p, n := range tc.names {
			switch {
			case p == seat:
				bots[p] = NewKhan(p, tc.seed)
			case n == "Demo":
				bots[p] = NewDemo(p, tc.seed)
			case n == "Null":
				bots[p] = Null{}
			default:
				bots[p], replay = replayBot{log, p}, true
			}
		}
		m, err := Def.NewMatch(tc.cfg, tc.seed, tc.names, bots)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(context.Background()); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r := result{tc.name, m.Game.TotalScore[seat], tr.States[len(tr.States)-1].TotalScore[seat], !tc.edge, replay}
		results = append(results, r)
		t.Logf("%-45s Khan %6d  Dummy %6d  (%+.1f%%)", r.name, r.khan, r.dummy, 100*float64(r.khan-r.dummy)/float64(r.dummy))
	}
	for _, set := range []struct {
		name string
		in   func(result) bool
		want int
	}{
		{"main traces (default configuration, Dummy-Demo-Null-Demo)", func(r result) bool { return r.main }, 12},
		{"all traces with one Dummy", func(result) bool { return true }, 25},
	} {
		if short && set.want == 25 {
			continue
		}
		var k, d, n int
		for _, r := range results {
			if set.in(r) {
				k, d, n = k+r.khan, d+r.dummy, n+1
			}
		}
		if n != set.want {
			t.Errorf("%s: %d games, want %d", set.name, n, set.want)
			continue
		}
		t.Logf("%s: %d games, mean Khan %d, mean Dummy %d (%+.1f%%)", set.name, n, k/n, d/n, 100*float64(k-d)/float64(d))
		if k <= d {
			t.Errorf("%s: mean Khan %d, want more than the mean Dummy %d", set.name, k/n, d/n)
		}
	}
}

// TestKhanOtherConfigs plays Khan on every shipped and edge configuration
// against Demos: its orders must stay valid on small, crowded and
// witch-heavy boards.
func TestKhanOtherConfigs(t *testing.T) {
	var mu sync.Mutex
	bad := 0
	seen := map[string]bool{}
	for _, tc := range traceCases(t) {
		if key := tc.cfg.String(); seen[key] || tc.cfg.NbWitches < 2 {
			continue
		} else {
			seen[key] = true
		}
		t.Run(tc.cfgName, func(t *testing.T) {
			var bots [NumPlayers]Bot
			for p := range bots {
				bots[p] = NewDemo(p, 77)
			}
			bots[1] = &checkedBot{Bot: NewKhan(1, 77), t: t, me: 1, name: "Khan", mu: &mu, bad: &bad}
			cfg := tc.cfg
			if testing.Short() || raceEnabled {
				cfg.NbRounds = min(cfg.NbRounds, 40)
			}
			m, err := Def.NewMatch(cfg, 77, [4]string{"Demo", "Khan", "Demo", "Demo"}, bots)
			if err != nil {
				t.Fatal(err)
			}
			err = m.Run(context.Background())
			if errors.Is(err, ErrAbort) && bad == 0 {
				// crowd1 and crowd2 lose farmers during the initial
				// placement, and the Demo commands them (SPEC §15.1).
				t.Logf("the game aborts, as the course program does: %v", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v", m.Game.TotalScore)
		})
	}
}
