package pandemic

import (
	"context"
	"testing"
	"time"
)

// timedBot measures the time its bot spends in Play.
type timedBot struct {
	Bot
	spent time.Duration
	calls int
}

func (t *timedBot) Play(s *State, o *Orders) {
	start := time.Now()
	t.Bot.Play(s, o)
	t.spent += time.Since(start)
	t.calls++
}

// BenchmarkPasteurPlay plays whole games of Pasteur (its seat rotating)
// against three DummyClones and reports the time Pasteur spends choosing
// its orders: per round, and per 200-round match (the course's judge
// allows a player 1 s of CPU for the whole match).
//
//	go test -run '^$' -bench PasteurPlay -benchtime 20x ./env/pandemic
func BenchmarkPasteurPlay(b *testing.B) {
	var spent time.Duration
	rounds := 0
	for i := 0; i < b.N; i++ {
		seed, seat := 9001+i, i%NumPlayers
		var bots [NumPlayers]Bot
		names := [NumPlayers]string{"DummyClone", "DummyClone", "DummyClone", "DummyClone"}
		for p := range bots {
			bots[p] = NewDummyClone(p, seed)
		}
		tb := &timedBot{Bot: NewPasteur(seat, seed)}
		bots[seat], names[seat] = tb, "Pasteur"
		m, err := Def.NewMatch(DefaultConfig(), seed, names, bots)
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
		spent += tb.spent
		rounds += tb.calls
	}
	perRound := spent.Seconds() / float64(rounds)
	b.ReportMetric(1000*perRound, "ms/round")
	b.ReportMetric(1000*perRound*float64(DefaultConfig().NbRounds), "ms/match")
}
