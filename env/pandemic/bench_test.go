package pandemic

import (
	"io"
	"testing"
)

// benchmarkRounds plays whole games with the named bots and reports rounds
// per second, map generation included; with trace, the .res trace is
// written to io.Discard.
func benchmarkRounds(b *testing.B, bot string, trace bool) {
	b.ReportAllocs()
	names := [NumPlayers]string{bot, bot, bot, bot}
	rounds := 0
	seed := 1
	var m *Match
	for i := 0; i < b.N; i++ {
		if m == nil || m.Done() {
			var err error
			m, err = Def.NewBotMatch(DefaultConfig(), seed, names)
			if err != nil {
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
