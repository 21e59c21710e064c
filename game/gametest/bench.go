package gametest

import (
	"io"
	"testing"

	"jgym/game"
)

// Bench is what [BenchmarkRounds] plays.
type Bench struct {
	// Seats are the bots' names, seat by seat.
	Seats [game.NumSeats]string
	// Trace writes each game's .res trace to io.Discard.
	Trace bool
	// UntimedNew leaves each new game (map generation, placement) out of
	// the time, for games whose generator costs as much as many rounds
	// (Moria); BenchmarkNewGame measures it.
	UntimedNew bool
}

// Four seats the named bot at every seat.
func Four(bot string) [game.NumSeats]string { return [game.NumSeats]string{bot, bot, bot, bot} }

// BenchmarkRounds plays whole games of the default configuration, seeds
// 1, 2, ..., and reports rounds per second. A game's benchmarks are one
// line each:
//
//	func BenchmarkRoundDemo(b *testing.B) {
//		gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: gametest.Four("Demo")})
//	}
func BenchmarkRounds[C game.Config, G, S any, D game.Dir](b *testing.B, d *game.Def[C, G, S, D], o Bench) {
	b.ReportAllocs()
	rounds := 0
	seed := 1
	var m *game.Match[C, G, S, D]
	for i := 0; i < b.N; i++ {
		if m == nil || m.Done() {
			if o.UntimedNew {
				b.StopTimer()
			}
			var err error
			m, err = d.NewBotMatch(d.DefaultConfig(), seed, o.Seats)
			if err != nil {
				b.Fatal(err)
			}
			seed++
			if o.Trace {
				m.WriteTrace(io.Discard)
			}
			if o.UntimedNew {
				b.StartTimer()
			}
		}
		if err := m.PlayRound(); err != nil {
			b.Fatal(err)
		}
		rounds++
	}
	b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkNewGame measures a new game of the default configuration (map
// generation and unit placement), seeds 0, 1, ...
func BenchmarkNewGame[C game.Config, G, S any, D game.Dir](b *testing.B, d *game.Def[C, G, S, D]) {
	b.ReportAllocs()
	cfg := d.DefaultConfig()
	for i := 0; i < b.N; i++ {
		if _, err := d.New(cfg, i); err != nil {
			b.Fatal(err)
		}
	}
}
