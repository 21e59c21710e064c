package pandemic

import (
	"runtime"
	"testing"

	"jgym/game/gametest"
)

// BenchmarkField measures the targets tensor's whole-map distance field
// (targetFields.field) and the masks added in place (nearer) on the
// default map of seed 1: one op is a field from every city's cells, one
// from a mask, then the masks of the first 40 rounds' positions added one
// by one. cpu-ns/op is the thread's CPU time.
func BenchmarkField(b *testing.B) {
	g, err := New(DefaultConfig(), 1)
	if err != nil {
		b.Fatal(err)
	}
	s := &g.State
	var tf targetFields
	tf.grid.update(s)
	var cities, masks []Pos
	for _, c := range s.Cities {
		cities = append(cities, c...)
	}
	for idx := 0; len(masks) < 40 && idx < len(s.Types); idx += 97 {
		if s.Types[idx] == Grass {
			masks = append(masks, s.PosOf(idx))
		}
	}
	var d1, d2 []int16
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	t0 := gametest.ThreadCPU()
	for i := 0; i < b.N; i++ {
		d1 = tf.field(cities, d1)
		d2 = tf.field(masks[:1], d2)
		for k := 1; k < len(masks); k++ {
			tf.nearer(masks[k:k+1], d2)
		}
	}
	b.ReportMetric(float64((gametest.ThreadCPU()-t0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkFieldMaps is BenchmarkField over 16 maps in turn (seeds 100
// to 115), so that the branch predictor cannot learn one search's
// branches as it does when the same search runs again: one op is a field
// from every city's cells of one map, one from a mask, then 11 more
// masks added one by one. cpu-ns/op is the thread's CPU time.
func BenchmarkFieldMaps(b *testing.B) {
	const maps = 16
	var tfs [maps]targetFields
	var cities, masks [maps][]Pos
	var d1, d2 [maps][]int16
	for k := 0; k < maps; k++ {
		g, err := New(DefaultConfig(), 100+k)
		if err != nil {
			b.Fatal(err)
		}
		s := &g.State
		tfs[k].grid.update(s)
		for _, c := range s.Cities {
			cities[k] = append(cities[k], c...)
		}
		for idx := k; len(masks[k]) < 12 && idx < len(s.Types); idx += 397 {
			if s.Types[idx] == Grass {
				masks[k] = append(masks[k], s.PosOf(idx))
			}
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	t0 := gametest.ThreadCPU()
	for i := 0; i < b.N; i++ {
		k := i % maps
		tf := &tfs[k]
		d1[k] = tf.field(cities[k], d1[k])
		d2[k] = tf.field(masks[k][:1], d2[k])
		for j := 1; j < len(masks[k]); j++ {
			tf.nearer(masks[k][j:j+1], d2[k])
		}
	}
	b.ReportMetric(float64((gametest.ThreadCPU()-t0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
