package dominator

import (
	"io"
	"testing"
)

// benchmarkRounds plays whole games with the named bot in every seat and
// reports rounds per second, building each game included; with trace, the
// .res trace is written to io.Discard.
func benchmarkRounds(b *testing.B, bot string, trace bool) {
	b.ReportAllocs()
	names := [NumPlayers]string{bot, bot, bot, bot}
	rounds := 0
	seed := 1
	var m *Match
	for i := 0; i < b.N; i++ {
		if m == nil || m.Done() {
			var err error
			if m, err = NewMatch(DefaultConfig(), seed, names); err != nil {
				b.Fatal(err)
			}
			seed++
			if trace {
				m.WriteTrace(io.Discard)
			}
		}
		if err := m.PlayRound(); err != nil {
			b.Fatal(err)
		}
		rounds++
	}
	b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
}

func BenchmarkRoundNull(b *testing.B)      { benchmarkRounds(b, "Null", false) }
func BenchmarkRoundDemo(b *testing.B)      { benchmarkRounds(b, "Demo", false) }
func BenchmarkRoundNullTrace(b *testing.B) { benchmarkRounds(b, "Null", true) }
func BenchmarkRoundDemoTrace(b *testing.B) { benchmarkRounds(b, "Demo", true) }

// BenchmarkNewGame measures map generation and unit placement.
func BenchmarkNewGame(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := New(DefaultConfig(), i); err != nil {
			b.Fatal(err)
		}
	}
}

// timedBot runs the benchmark's timer only while its bot plays.
type timedBot struct {
	Bot
	b     *testing.B
	plays int
}

func (t *timedBot) Play(v *State, o *Orders) {
	t.b.StartTimer()
	t.Bot.Play(v, o)
	t.b.StopTimer()
	t.plays++
}

// benchmarkBotPlay times one round of bot (seat 0) against three
// DummyClones, the bot's Play only: one op is one round of the bot.
func benchmarkBotPlay(b *testing.B, bot BotFactory) {
	b.ReportAllocs()
	b.StopTimer()
	seed := 1
	t := &timedBot{b: b}
	for t.plays < b.N {
		t.Bot = bot(0, seed)
		m, err := NewMatchWithBots(DefaultConfig(), seed, [NumPlayers]string{"Bot", "D", "D", "D"},
			[NumPlayers]Bot{t, NewDummyClone(1, seed), NewDummyClone(2, seed), NewDummyClone(3, seed)})
		if err != nil {
			b.Fatal(err)
		}
		for !m.Done() && t.plays < b.N {
			if err := m.PlayRound(); err != nil {
				b.Fatal(err)
			}
		}
		seed++
	}
}

func BenchmarkKhanPlay(b *testing.B)       { benchmarkBotPlay(b, NewKhan) }
func BenchmarkDummyClonePlay(b *testing.B) { benchmarkBotPlay(b, NewDummyClone) }
