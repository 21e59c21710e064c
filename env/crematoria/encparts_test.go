package crematoria

import (
	"runtime"
	"testing"

	"jgym/game/gametest"
)

// encPartStates returns the states after every round of games of four
// Demos (seeds 1-3), as BenchmarkEncoder plays them.
func encPartStates(b *testing.B) []*State {
	b.Helper()
	var states []*State
	for seed := 1; seed <= 3; seed++ {
		g, err := New(DefaultConfig(), seed)
		if err != nil {
			b.Fatal(err)
		}
		for !g.Done() {
			playRounds(b, g, 1)
			s := new(State)
			s.CopyFrom(&g.State)
			states = append(states, s)
		}
	}
	return states
}

// BenchmarkEncoderParts times the parts of seat 0's full observation on
// the states of games of four Demos, in round order (an Observer keeps
// searches between rounds): one op is one state; cpu-ns/op is the thread
// CPU time (gametest.ThreadCPU), steadier than ns/op on a shared machine.
func BenchmarkEncoderParts(b *testing.B) {
	states := encPartStates(b)
	u := NumSlots(states[0].Cfg)
	buf := make([]byte, BoardBytes+u*(PathColumns+SunColumns+NumDirs+UnitFeatures)+4*NumGlobals)
	board := buf[:BoardBytes]
	paths := buf[BoardBytes : BoardBytes+u*PathColumns]
	sun := buf[BoardBytes+u*PathColumns : BoardBytes+u*(PathColumns+SunColumns)]
	mask := buf[BoardBytes+u*(PathColumns+SunColumns) : BoardBytes+u*(PathColumns+SunColumns+NumDirs)]
	units := buf[BoardBytes+u*(PathColumns+SunColumns+NumDirs) : BoardBytes+u*(PathColumns+SunColumns+NumDirs+UnitFeatures)]
	globals := buf[BoardBytes+u*(PathColumns+SunColumns+NumDirs+UnitFeatures):]
	parts := []struct {
		name string
		f    func(ob *Observer, s *State)
	}{
		{"board", func(ob *Observer, s *State) { ob.Board(s, 0, board) }},
		{"mask", func(ob *Observer, s *State) { ob.Mask(s, 0, mask) }},
		{"scan", func(ob *Observer, s *State) { ob.scan(s, 0) }},
		{"scan+paths", func(ob *Observer, s *State) { ob.scan(s, 0); ob.writePaths(s, 0, paths) }},
		{"scan+sun_paths", func(ob *Observer, s *State) { ob.scan(s, 0); ob.writeSunPaths(s, 0, sun) }},
		{"all", func(ob *Observer, s *State) {
			ob.Encode(s, 0, [][]byte{board, units, globals, mask, paths, sun})
		}},
	}
	for _, p := range parts {
		b.Run(p.name, func(b *testing.B) {
			var ob Observer
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := gametest.ThreadCPU()
			for n := 0; n < b.N; n++ {
				p.f(&ob, states[n%len(states)])
			}
			b.ReportMetric(float64((gametest.ThreadCPU()-t0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
