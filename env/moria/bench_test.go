package moria

import (
	"jgym/game/gametest"
	"testing"
)

// The engine's speed: whole games of the default configuration (package
// gametest's BenchmarkRounds and BenchmarkNewGame).

func BenchmarkRoundNull(b *testing.B) {
	gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: gametest.Four("Null"), UntimedNew: true})
}

func BenchmarkRoundDemo(b *testing.B) {
	gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: gametest.Four("Demo"), UntimedNew: true})
}

func BenchmarkRoundNullTrace(b *testing.B) {
	gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: gametest.Four("Null"), Trace: true, UntimedNew: true})
}

func BenchmarkRoundDemoTrace(b *testing.B) {
	gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: gametest.Four("Demo"), Trace: true, UntimedNew: true})
}

// BenchmarkNewGame measures map generation and unit placement.
func BenchmarkNewGame(b *testing.B) { gametest.BenchmarkNewGame(b, Def) }

// BenchmarkRoundBalin plays Balin against three Demos.
func BenchmarkRoundBalin(b *testing.B) {
	gametest.BenchmarkRounds(b, Def, gametest.Bench{Seats: [NumPlayers]string{"Balin", "Demo", "Demo", "Demo"}, UntimedNew: true})
}

// BenchmarkEncoder measures an env-step of one learner against three
// Demos, the round and the observation encoder side by side (package
// gametest's BenchmarkEncoder).
func BenchmarkEncoder(b *testing.B) { gametest.BenchmarkEncoder(b, Def) }

// BenchmarkTensors measures the env-step with each set of observation
// tensors a setup may ask for (package gametest's BenchmarkTensors).
func BenchmarkTensors(b *testing.B) { gametest.BenchmarkTensors(b, Def) }
