package cppexport_test

import (
	"jgym/cppbot"
	"os"
	"strings"
	"testing"
	"time"

	"jgym/env/crematoria"
)

// BenchmarkExportedGame measures the CPU time (user + system) that the
// exported player's process uses for a whole default game (120 rounds)
// against three Demos, start-up and the loading of the weights included:
// getrusage(RUSAGE_CHILDREN) before and after the game, the bot's process
// being the only child that ends in between. The model is
// JGYM_EXPORT_MODEL, else the example's trained model, else the small test
// model; JGYM_EXPORT_CXXFLAGS adds compiler flags after -std=c++11 -O2
// (e.g. "-O0", or the judge's).
//
//	go test ./cppexport -run '^$' -bench ExportedGame -benchtime 5x
func BenchmarkExportedGame(b *testing.B) {
	tm := testModel{"Bench", "testdata/small.onnx"}
	if p := os.Getenv("JGYM_EXPORT_MODEL"); p != "" {
		tm.path = p
	} else if _, err := os.Stat(trainedModel); err == nil {
		tm.path = trainedModel
	}
	bt := compiled(b, tm, false, nil, strings.Fields(os.Getenv("JGYM_EXPORT_CXXFLAGS"))...)
	if _, _, ok := cppbot.FinishedCPU(); !ok {
		b.Skip("this system does not report the CPU time of processes (/proc)")
	}
	b.Logf("model %s, flags %q", tm.path, os.Getenv("JGYM_EXPORT_CXXFLAGS"))
	cfg := crematoria.DefaultConfig()
	var cpu, wall time.Duration
	for i := 0; i < b.N; i++ {
		seed, seat := 1+i, i%crematoria.NumPlayers
		var names [4]string
		var bots [4]crematoria.Bot
		for p := range bots {
			names[p], bots[p] = "Demo", crematoria.NewDemo(p, seed)
		}
		u0, s0, _ := cppbot.FinishedCPU()
		t0 := time.Now()
		bot := crematoria.Def.NewCppBot(bt.prog, seat, seed)
		names[seat], bots[seat] = tm.name, bot
		play(b, cfg, seed, names, bots)
		bot.Close()
		wall += time.Since(t0)
		u1, s1, _ := cppbot.FinishedCPU()
		cpu += u1 - u0 + s1 - s0
	}
	n := float64(b.N)
	b.ReportMetric(cpu.Seconds()/n, "cpu-s/game")
	b.ReportMetric(cpu.Seconds()*1000/n/float64(cfg.NbRounds), "cpu-ms/round")
	b.ReportMetric(wall.Seconds()/n, "wall-s/game")
}
