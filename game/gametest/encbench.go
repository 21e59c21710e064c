package gametest

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"jgym/env"
	"jgym/game"
)

// encBenchGames is the number of games BenchmarkEncoder records and plays
// again in turn (seeds 1, 2, ...).
const encBenchGames = 3

// BenchmarkEncoder measures what an env-step of one learner (seat 0)
// against three Demo bots costs in process, split in two: the round (the
// three Demos' orders, the learner's precomputed commands, the engine)
// and the observation encoder (seat 0's full observation of the state
// after the round). One op is one env-step; it reports the thread CPU time
// of each part per env-step as "round-ns/step" and "encoder-ns/step",
// their ratio, and the encoder's allocations per call. The two parts
// alternate step by step on one locked thread, so a noisy machine slows
// both alike.
//
// The learner's commands are Demo's own, recorded in games of four Demos
// before the clock starts (so no policy or sampling is counted); the
// games are then played again with seat 0 replaying them. New games (map
// generation, placement) are left out of both parts; the observation of
// each game's first state is counted. A game's line:
//
//	func BenchmarkEncoder(b *testing.B) { gametest.BenchmarkEncoder(b, Def) }
func BenchmarkEncoder[C game.Config, G, S any, D game.Dir](b *testing.B, d *game.Def[C, G, S, D]) {
	benchEncoder(b, d, nil)
}

// benchEncoder is BenchmarkEncoder with the observation tensors of
// env.Spec.Subset(tensors) encoded, the others left nil (not computed),
// as an env table of a setup with those Tensors does.
func benchEncoder[C game.Config, G, S any, D game.Dir](b *testing.B, d *game.Def[C, G, S, D], tensors []string) {
	cfg := d.DefaultConfig()
	spec, err := d.EnvSpec(&cfg)
	if err != nil {
		b.Fatal(err)
	}
	sub, err := spec.Subset(tensors)
	if err != nil {
		b.Fatal(err)
	}
	all := spec.AllTensors() // the encoder's numbering: the opt-in tensors last
	obs := make([][]byte, len(all))
	for i, ts := range all {
		if slices.ContainsFunc(sub.Observation, func(t env.TensorSpec) bool { return t.Name == ts.Name }) {
			obs[i] = make([]byte, ts.Bytes())
		}
	}
	names := Four("Demo")
	logs := make([]*game.CommandLog[D], encBenchGames)
	for g := range logs {
		m, err := d.NewBotMatch(cfg, g+1, names)
		if err != nil {
			b.Fatal(err)
		}
		m.Record()
		for !m.Done() {
			if err := m.PlayRound(); err != nil {
				b.Fatal(err)
			}
		}
		logs[g] = m.Log()
	}
	enc := d.NewEncoder()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var m *game.Match[C, G, S, D]
	var log *game.CommandLog[D]
	round, next := 0, 0
	learner := func(p int, o *game.Orders[D]) {
		if p != 0 {
			return
		}
		for _, c := range log.Rounds[round][0] {
			o.Command(c.ID, c.Dir)
		}
	}
	var roundNs, encNs time.Duration
	newGame := func() {
		b.StopTimer()
		log = logs[next%encBenchGames]
		var err error
		m, err = d.NewBotMatch(cfg, next%encBenchGames+1, names)
		if err != nil {
			b.Fatal(err)
		}
		m.Bots[0] = nil
		next++
		round = 0
		b.StartTimer()
		t0 := threadCPU()
		enc.Encode(m.State(), 0, obs)
		encNs += threadCPU() - t0
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m == nil || m.Done() {
			newGame()
		}
		t0 := threadCPU()
		if err := m.Play(learner); err != nil {
			b.Fatal(err)
		}
		round++
		t1 := threadCPU()
		enc.Encode(m.State(), 0, obs)
		t2 := threadCPU()
		roundNs += t1 - t0
		encNs += t2 - t1
	}
	b.ReportMetric(float64(roundNs.Nanoseconds())/float64(b.N), "round-ns/step")
	b.ReportMetric(float64(encNs.Nanoseconds())/float64(b.N), "encoder-ns/step")
	b.ReportMetric(float64((roundNs+encNs).Nanoseconds())/float64(b.N), "step-ns/step")
	b.ReportMetric(float64(sub.ObservationBytes()), "obs-bytes")
	if roundNs > 0 {
		b.ReportMetric(float64(encNs)/float64(roundNs), "encoder/round")
	}
	// The encoder's own allocations (allocs/op counts the round's too).
	b.StopTimer()
	b.ReportMetric(testing.AllocsPerRun(10, func() { enc.Encode(m.State(), 0, obs) }), "encoder-allocs/step")
}

// BenchmarkTensors is BenchmarkEncoder for sets of observation tensors
// (env.Setup.Tensors), one sub-benchmark each: "all"; "masks", the
// required masks alone (env.Spec.RequiredTensors); each other tensor
// alone with them ("only=NAME"); all but one ("without=NAME"); all and
// one opt-in tensor ("with=NAME", env.Spec.OptIn); and the game's own
// sets (extra, named by their tensors joined with "+").
// step-ns/step is the in-process env-step's CPU with that set: the round
// and the encoder. A game's line:
//
//	func BenchmarkTensors(b *testing.B) { gametest.BenchmarkTensors(b, Def) }
func BenchmarkTensors[C game.Config, G, S any, D game.Dir](b *testing.B, d *game.Def[C, G, S, D], extra ...[]string) {
	cfg := d.DefaultConfig()
	spec, err := d.EnvSpec(&cfg)
	if err != nil {
		b.Fatal(err)
	}
	names, required := spec.TensorNames(), spec.RequiredTensors()
	var optional []string
	for _, n := range names {
		if !slices.Contains(required, n) {
			optional = append(optional, n)
		}
	}
	b.Run("all", func(b *testing.B) { benchEncoder(b, d, nil) })
	b.Run("masks", func(b *testing.B) { benchEncoder(b, d, required) })
	for _, n := range optional {
		b.Run("only="+n, func(b *testing.B) { benchEncoder(b, d, []string{n}) })
	}
	for _, n := range optional {
		rest := slices.DeleteFunc(slices.Clone(names), func(s string) bool { return s == n })
		b.Run("without="+n, func(b *testing.B) { benchEncoder(b, d, rest) })
	}
	for _, ts := range spec.OptIn {
		b.Run("with="+ts.Name, func(b *testing.B) { benchEncoder(b, d, append(slices.Clone(names), ts.Name)) })
	}
	for _, set := range extra {
		b.Run(strings.Join(set, "+"), func(b *testing.B) { benchEncoder(b, d, set) })
	}
}

// ThreadCPU returns the CPU time of the calling thread (lock it with
// runtime.LockOSThread), as BenchmarkEncoder reads it; on systems without
// a thread clock, the wall time since the package started.
func ThreadCPU() time.Duration { return threadCPU() }
