//go:build linux

package dominator

import (
	"jgym/game/gametest"
	"runtime"
	"testing"
	"time"
)

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
		timed := &cpuBot{Bot: bot(0, seed), b: b, cpu: &cpu}
		m, err := Def.NewMatch(DefaultConfig(), seed, [NumPlayers]string{"Bot", "D", "D", "D"},
			[NumPlayers]Bot{timed, NewDummyClone(1, seed), NewDummyClone(2, seed), NewDummyClone(3, seed)})
		if err != nil {
			b.Fatal(err)
		}
		for !m.Done() && plays < b.N {
			if err := m.PlayRound(); err != nil {
				b.Fatal(err)
			}
			plays++
		}
		seed++
	}
	per := cpu.Seconds() / float64(plays)
	b.ReportMetric(per*1e3, "cpu-ms/round")
	b.ReportMetric(per*200, "cpu-s/game")
}

// cpuBot adds the thread CPU time of its bot's plays to cpu (the match
// plays every seat on the calling goroutine, locked to its thread).
type cpuBot struct {
	Bot
	b   *testing.B
	cpu *time.Duration
}

func (c *cpuBot) Play(s *State, o *Orders) {
	start := gametest.ThreadCPU()
	c.Bot.Play(s, o)
	*c.cpu += gametest.ThreadCPU() - start
}

func BenchmarkKhanCPU(b *testing.B)       { benchmarkBotCPU(b, newKhan(b)) }
func BenchmarkDummyCloneCPU(b *testing.B) { benchmarkBotCPU(b, NewDummyClone) }
