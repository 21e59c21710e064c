package toy

import (
	"testing"

	"jgym/game"
)

// TestSearchVerify plays whole games of the search bot with verifying
// rollouts (SearchOptions.Verify) against three strong bots: it changes
// the strong bot's orders in some rounds, each change after its Verify
// fresh rollouts (a verification that fails stops early, one that passes
// plays them all), and it turns down some alternatives the unverified
// search would have played.
func TestSearchVerify(t *testing.T) {
	so := game.SearchOptions{Candidates: 4, Rollouts: 2, Horizon: 5, Verify: 4}
	strong, err := Def.Bots.Lookup(Def.StrongBot)
	if err != nil {
		t.Fatal(err)
	}
	changed, rejected := 0, 0
	for seed := 1; seed <= 3; seed++ {
		sb := Def.NewSearchBot(0, seed, so)
		bots := [game.NumSeats]game.Bot[State, Dir]{sb}
		for p := 1; p < game.NumSeats; p++ {
			bots[p] = strong(p, seed)
		}
		names := [game.NumSeats]string{game.SearchBotName, Def.StrongBot, Def.StrongBot, Def.StrongBot}
		m, err := Def.NewMatch(Def.DefaultConfig(), seed, names, bots)
		if err != nil {
			t.Fatal(err)
		}
		for !m.Done() {
			if err := m.PlayRound(); err != nil {
				t.Fatalf("seed %d, round %d: %v", seed, m.Round()+1, err)
			}
		}
		if err := sb.Err(); err != nil {
			t.Fatal(err)
		}
		if sb.Verified < sb.Changed*so.Verify {
			t.Errorf("seed %d: %d rounds changed, %d verifying rollouts: fewer than %d a change", seed, sb.Changed, sb.Verified, so.Verify)
		}
		changed += sb.Changed
		if sb.Verified > sb.Changed*so.Verify {
			rejected++
		}
	}
	if changed == 0 {
		t.Error("the search bot never changed the strong bot's orders in three games")
	}
	if rejected == 0 {
		t.Error("no verification turned an alternative down in three games")
	}
}
