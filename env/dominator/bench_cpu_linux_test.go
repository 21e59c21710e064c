//go:build linux

package dominator

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time (user and system) of the calling OS
// thread.
func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchmarkBotCPU plays b.N rounds of bot (seat 0) against three
// DummyClones on one locked thread and reports the bot's CPU time per
// round and per game of 200 rounds: unlike ns/op, these do not grow when
// other processes share the machine.
func benchmarkBotCPU(b *testing.B, bot BotFactory) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	plays, seed := 0, 1
	for plays < b.N {
		p := bot(0, seed)
		m, err := NewMatchWithBots(DefaultConfig(), seed, [NumPlayers]string{"Bot", "D", "D", "D"},
			[NumPlayers]Bot{nil, NewDummyClone(1, seed), NewDummyClone(2, seed), NewDummyClone(3, seed)})
		if err != nil {
			b.Fatal(err)
		}
		var view State
		var o Orders
		for !m.Done() && plays < b.N {
			m.View(0, &view)
			o.Reset(len(m.Units))
			start := threadCPU(b)
			p.Play(&view, &o)
			cpu += threadCPU(b) - start
			plays++
			m.Bots[0] = replayOrders(o.List())
			if err := m.PlayRound(); err != nil {
				b.Fatal(err)
			}
		}
		seed++
	}
	per := cpu.Seconds() / float64(plays)
	b.ReportMetric(per*1e3, "cpu-ms/round")
	b.ReportMetric(per*200, "cpu-s/game")
}

// replayOrders gives a fixed list of orders.
type replayOrders []Command

func (r replayOrders) Play(_ *State, o *Orders) {
	for _, c := range r {
		o.Command(c.ID, c.Dir)
	}
}

func BenchmarkKhanCPU(b *testing.B)       { benchmarkBotCPU(b, NewKhan) }
func BenchmarkDummyCloneCPU(b *testing.B) { benchmarkBotCPU(b, NewDummyClone) }
