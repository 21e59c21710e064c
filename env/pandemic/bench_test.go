package pandemic

import (
	"runtime"
	"testing"

	"jgym/game/gametest"
)

// The engine's speed: whole games of the default configuration (package
// gametest's BenchmarkRounds and BenchmarkNewGame).

func BenchmarkRoundNull(b *testing.B) {
	gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: gametest.Four("Null")})
}

func BenchmarkRoundDemo(b *testing.B) {
	gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: gametest.Four("Demo")})
}

func BenchmarkRoundNullTrace(b *testing.B) {
	gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: gametest.Four("Null"), Trace: true})
}

func BenchmarkRoundDemoTrace(b *testing.B) {
	gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: gametest.Four("Demo"), Trace: true})
}

// BenchmarkNewGame measures map generation and unit placement.
func BenchmarkNewGame(b *testing.B) { gametest.BenchmarkNewGame(b, Def) }

// BenchmarkEncoder measures an env-step of one learner against three
// Demos, the round and the observation encoder side by side (package
// gametest's BenchmarkEncoder).
func BenchmarkEncoder(b *testing.B) { gametest.BenchmarkEncoder(b, Def) }

// BenchmarkTensors measures the env-step with each set of observation
// tensors a setup may ask for (package gametest's BenchmarkTensors).
func BenchmarkTensors(b *testing.B) { gametest.BenchmarkTensors(b, Def) }

// BenchmarkTargets measures the targets tensor alone (Observer.Targets,
// seat 0) on the states of three games of Demos, one op a state in
// game order, so that the Observer sees the rounds one after another;
// cpu-ns/op is the thread's CPU time per state.
func BenchmarkTargets(b *testing.B) {
	var states []*State
	for seed := 1; seed <= 3; seed++ {
		g, err := New(DefaultConfig(), seed)
		if err != nil {
			b.Fatal(err)
		}
		var bots [NumPlayers]Bot
		for p := range bots {
			bots[p] = NewDemo(p, seed)
		}
		var o [NumPlayers]Orders
		var cmds [NumPlayers][]Command
		for !g.Done() {
			for p := range bots {
				o[p].Reset(len(g.Units))
				bots[p].Play(&g.State, &o[p])
				cmds[p] = o[p].List()
			}
			if err := g.Step(&cmds); err != nil {
				b.Fatal(err)
			}
			s := new(State)
			s.CopyFrom(&g.State)
			states = append(states, s)
		}
	}
	var ob Observer
	dst := make([]byte, len(states[0].Units)*TargetFeatures)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	t0 := gametest.ThreadCPU()
	for i := 0; i < b.N; i++ {
		ob.Targets(states[i%len(states)], 0, dst)
	}
	b.ReportMetric(float64((gametest.ThreadCPU()-t0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkEncodeFirst measures seat 0's full observation of a new game's
// first state, where the Observer meets a new map (its planes, grid and
// whole fields): one op is one game (seeds 1-3 in turn, one Observer
// throughout), made before its clock starts; cpu-ns/op is the thread's
// CPU time of Encode alone. BenchmarkEncoder counts this once per game
// (every 200 env-steps).
func BenchmarkEncodeFirst(b *testing.B) {
	cfg := DefaultConfig()
	spec, err := specFor(&cfg)
	if err != nil {
		b.Fatal(err)
	}
	obs := make([][]byte, len(spec.Observation))
	for i, ts := range spec.Observation {
		obs[i] = make([]byte, ts.Bytes())
	}
	var ob Observer
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu int64
	for i := 0; i < b.N; i++ {
		g, err := New(cfg, i%3+1)
		if err != nil {
			b.Fatal(err)
		}
		t0 := gametest.ThreadCPU()
		ob.Encode(&g.State, 0, obs)
		cpu += (gametest.ThreadCPU() - t0).Nanoseconds()
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}
