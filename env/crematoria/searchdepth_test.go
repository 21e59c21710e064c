package crematoria

import (
	"slices"
	"testing"
)

// BenchmarkSearchDepth reports how deep the breadth-first searches of the
// paths tensor go for seat 0 in games of four Demos (seeds 1-3, every
// round, as BenchmarkEncoder plays them): per field, the mean over states
// of the distance of seat 0's farthest live unit (a search stops there;
// an unreachable unit counts as PathMaxDistance), and the mean of the
// layers left once all but two units have their distance ("tail2"). One
// op measures one state, round-robin. The Elevator field's search is made
// once per map and the Gem field's kept while the gems stay: their depths
// are what a fresh search would need.
func BenchmarkSearchDepth(b *testing.B) {
	states := encPartStates(b)
	var ob Observer
	var dist [2 * LevelCells]uint8
	var depth, tail [NumPathFields]float64
	var d []int
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		s := states[n%len(states)]
		ob.scan(s, 0)
		ps := ob.paths
		ps.mine = liveUnits(s, 0, ps.mine[:0])
		for f := range ps.src {
			ps.measure(f, &dist)
			d = d[:0]
			for _, id := range ps.mine {
				d = append(d, min(int(dist[s.Units[id].Pos.Index()]), PathMaxDistance))
			}
			if len(d) == 0 {
				continue
			}
			slices.Sort(d)
			depth[f] += float64(d[len(d)-1])
			tail[f] += float64(d[len(d)-1] - d[max(len(d)-3, 0)])
		}
	}
	names := [NumPathFields]string{"cave", "gem", "free", "pioneer", "furyan", "elevator"}
	for f, name := range names {
		b.ReportMetric(depth[f]/float64(b.N), name+"-depth")
		b.ReportMetric(tail[f]/float64(b.N), name+"-tail2")
	}
}
