package dominator

import (
	"context"
	"testing"
)

// newKhan returns the factory of the Khan bot, package khan, registered
// by name in Def's bots (khan_link_test.go links it in).
func newKhan(t testing.TB) BotFactory {
	t.Helper()
	f, err := Def.Bots.Lookup("Khan")
	if err != nil {
		t.Fatal(err)
	}
	return f
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
// over all of them. Games of four Dummies are left out. Under -short only
// the main traces are played, under the race detector (which makes Khan 20
// times slower) three of them (seeds 1-3).
func TestKhanBeatsDummy(t *testing.T) {
	short := testing.Short() || raceEnabled
	type result struct {
		name         string
		khan, dummy  int
		main, replay bool
	}
	var results []result
	khan := newKhan(t)
	mainGames := 12
	if raceEnabled {
		mainGames = 3
	}
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
		if seat < 0 || others > 1 || (short && tc.edge) || (raceEnabled && tc.seed > 3) {
			continue
		}
		tr, log := loadRefTrace(t, tc)
		var bots [NumPlayers]Bot
		replay := false
		for p, n := range tc.names {
			switch {
			case p == seat:
				bots[p] = khan(p, tc.seed)
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
		{"main traces (default configuration, Dummy-Demo-Null-Demo)", func(r result) bool { return r.main }, mainGames},
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
