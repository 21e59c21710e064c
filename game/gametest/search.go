package gametest

import (
	"bytes"
	"slices"
	"testing"

	"jgym/game"
)

// searchOptions are small searches, for tests: random alternatives
// screened and verified, and a sweep of two units.
var searchOptions = []game.SearchOptions{
	{Candidates: 2, Rollouts: 2, Horizon: 3, Screen: 5, Verify: 4},
	{Rollouts: 2, Horizon: 3, Sweep: 2},
}

// searchMatch starts a match of the search bot (seat 0, small options)
// and three strong bots.
func searchMatch[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], seed int, so game.SearchOptions) (*game.Match[C, G, S, D], *game.SearchBot[C, G, S, D]) {
	t.Helper()
	strong, err := d.Bots.Lookup(d.StrongBot)
	if err != nil {
		t.Fatal(err)
	}
	sb := d.NewSearchBot(0, seed, so)
	bots := [game.NumSeats]game.Bot[S, D]{sb}
	for p := 1; p < game.NumSeats; p++ {
		bots[p] = strong(p, seed)
	}
	m, err := d.NewMatch(d.DefaultConfig(), seed, [game.NumSeats]string{game.SearchBotName, d.StrongBot, d.StrongBot, d.StrongBot}, bots)
	if err != nil {
		t.Fatal(err)
	}
	return m, sb
}

// testSearch checks the search bot: over the first rounds of a game
// against three strong bots it commands only its own units in legal
// directions and tries alternatives; the same seed gives the same trace;
// two copies of a match whose engines differ only in the state of their
// random generator (the draws a player cannot see) search to the same
// candidate values and orders, so the rollouts do not read the real
// generator.
func testSearch[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	for _, so := range searchOptions {
		name := "Random"
		if so.Sweep > 0 {
			name = "Sweep"
		}
		t.Run(name, func(t *testing.T) { testSearchWith(t, d, o, so) })
	}
}

func testSearchWith[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options, so game.SearchOptions) {
	rounds := 6
	if o.short {
		rounds = 3
	}
	const seed = 11
	var traces [2][]byte
	for run := range traces {
		m, sb := searchMatch(t, d, seed, so)
		var buf bytes.Buffer
		if err := m.WriteTrace(&buf); err != nil {
			t.Fatal(err)
		}
		tried := 0
		for m.Round() < rounds {
			// The orders of the round, given by a copy (search bot
			// included) on the state before it.
			c, err := m.Copy(nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.PlayRound(); err != nil {
				t.Fatalf("round %d: %v", m.Round()+1, err)
			}
			s := m.State()
			for _, x := range c.Orders(0) {
				if x.ID < 0 || x.ID >= d.NumUnits(s) || x.Dir == d.None || !d.Legal(s, 0, x.ID, x.Dir) {
					t.Fatalf("round %d: the search bot orders %+v, not a legal command of its own units", m.Round()+1, x)
				}
			}
			if err := m.PlayRound(); err != nil {
				t.Fatalf("round %d: %v", m.Round(), err)
			}
			if !slices.Equal(c.Orders(0), m.Orders(0)) {
				t.Fatalf("round %d: the search bot's copy orders %v, the original %v", m.Round(), c.Orders(0), m.Orders(0))
			}
			if len(sb.Values()) > 1 {
				tried++
			}
		}
		if tried == 0 {
			t.Errorf("the search bot tried no alternative in %d rounds", rounds)
		}
		if err := sb.Err(); err != nil {
			t.Fatal(err)
		}
		// An alternative is played only after all its fresh rollouts,
		// when the options ask for them.
		if sb.Verified < sb.Changed*so.Verify {
			t.Errorf("the search bot changed the orders in %d rounds after %d verifying rollouts, want %d a change", sb.Changed, sb.Verified, so.Verify)
		}
		if so.Verify == 0 && sb.Verified > 0 {
			t.Errorf("the search bot played %d verifying rollouts, none asked", sb.Verified)
		}
		traces[run] = buf.Bytes()
	}
	if !bytes.Equal(traces[0], traces[1]) {
		t.Errorf("two games of the search bot with seed %d differ", seed)
	}

	// The generator: copies (search bot included) at round k, one of whose
	// engine generators is put elsewhere, search alike. Several rounds,
	// because a game's first rounds may draw nothing within a rollout's
	// horizon (Crematoria's draw only once units die).
	m, _ := searchMatch(t, d, seed, so)
	searched := 0
	for _, k := range reseedRounds(rounds) {
		for m.Round() < k && !m.Done() {
			if err := m.PlayRound(); err != nil {
				t.Fatal(err)
			}
		}
		if m.Done() {
			break
		}
		if sameSearch(t, d, m) {
			searched++
		}
	}
	if searched == 0 {
		t.Fatal("no alternative searched at the rounds checked")
	}
}

// reseedRounds are the rounds at which testSearchWith compares searches
// on engines whose generators differ (with rollouts that did not reseed
// their copies, Pandemic's first difference was at round 11, the other
// games' at round 2).
func reseedRounds(rounds int) []int {
	return []int{rounds / 2, 10}
}

// sameSearch checks that two copies of m (search bot included), one of
// whose engine generators is put elsewhere, search the next round to the
// same values and orders; false if no alternative was searched.
func sameSearch[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], m *game.Match[C, G, S, D]) bool {
	t.Helper()
	var values [2][]float64
	var orders [2][]game.Command[D]
	for i := range values {
		c, err := m.Copy(nil)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 && !game.Reseed(c.Game, 987654321) {
			t.Fatalf("%s's engine has no generator the search can reseed", d.Name)
		}
		if err := c.PlayRound(); err != nil {
			t.Fatal(err)
		}
		sb := c.Bots[0].(*game.SearchBot[C, G, S, D])
		values[i] = slices.Clone(sb.Values())
		orders[i] = slices.Clone(c.Orders(0))
	}
	if !slices.Equal(values[0], values[1]) || !slices.Equal(orders[0], orders[1]) {
		t.Errorf("round %d: the engines differ only in their generator, the search's values %v and %v (orders %v and %v)",
			m.Round()+1, values[0], values[1], orders[0], orders[1])
	}
	return len(values[0]) >= 2
}
