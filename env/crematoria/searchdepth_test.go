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

// BenchmarkPathsReuse measures what keeping a unit's paths columns
// between rounds could save, for seat 0 in games of four Demos (seeds
// 1-3, round after round). A unit's columns of field f stay the same when
// it stands still, the cells one may enter and the Elevators are the
// same, and no source of f changed within Chebyshev distance D+2 of it
// (D its distance, at most PathMaxDistance): a path of n moves stays
// within Chebyshev distance n. Per field it reports the share of live
// units that meet this ("-reuse"), and the mean over states of the
// distance of the farthest unit without ("-depth-need", where a search
// for the others could stop; "-depth" for all units, as
// BenchmarkSearchDepth), and the share of live units that stand still
// ("still").
func BenchmarkPathsReuse(b *testing.B) {
	states := encPartStates(b)
	var ob Observer
	var prevSrc [NumPathFields]bitboard
	var prevPass, prevElev bitboard
	var prevPos []Pos
	var reuse, total [NumPathFields]float64
	var depth, need [NumPathFields]float64
	var still, live float64
	var dist [2 * LevelCells]uint8
	for n := 0; n < b.N; n++ {
		i := n % len(states)
		s := states[i]
		next := i > 0 && s.Round == states[i-1].Round+1
		ob.scan(s, 0)
		ps := ob.paths
		ps.mine = liveUnits(s, 0, ps.mine[:0])
		for f := range ps.src {
			ps.measure(f, &dist)
			var dAll, dNeed int
			for _, id := range ps.mine {
				p := s.Units[id].Pos
				d := min(int(dist[p.Index()]), PathMaxDistance+1)
				dAll = max(dAll, d)
				total[f]++
				ok := next && prevPos[id] == p && prevPass == *ps.pass && prevElev == *ps.elev &&
					d <= PathMaxDistance && !changedNear(&prevSrc[f], ps.src[f], p, d+1)
				if ok {
					reuse[f]++
				} else {
					dNeed = max(dNeed, d)
				}
			}
			depth[f] += float64(min(dAll, PathMaxDistance))
			need[f] += float64(min(dNeed, PathMaxDistance))
			prevSrc[f] = *ps.src[f]
		}
		for _, id := range ps.mine {
			live++
			if next && prevPos[id] == s.Units[id].Pos {
				still++
			}
		}
		prevPass, prevElev = *ps.pass, *ps.elev
		prevPos = prevPos[:0]
		for id := range s.Units {
			prevPos = append(prevPos, s.Units[id].Pos)
		}
	}
	names := [NumPathFields]string{"cave", "gem", "free", "pioneer", "furyan", "elevator"}
	for f, name := range names {
		b.ReportMetric(reuse[f]/total[f], name+"-reuse")
		b.ReportMetric(depth[f]/float64(b.N), name+"-depth")
		b.ReportMetric(need[f]/float64(b.N), name+"-depth-need")
	}
	b.ReportMetric(still/live, "still")
}

// changedNear reports whether a cell of either level within Chebyshev
// distance r of p (rows clipped, columns wrapping) differs between x and
// y.
func changedNear(x, y *bitboard, p Pos, r int) bool {
	lo, hi := max(p.I-r, 0), min(p.I+r, Rows-1)
	rows := (uint64(1)<<(hi+1) - 1) &^ (uint64(1)<<lo - 1)
	for dj := -min(r, Cols/2); dj <= min(r, Cols/2); dj++ {
		j := ((p.J+dj)%Cols + Cols) % Cols
		if (x[0][j]^y[0][j]|x[1][j]^y[1][j])&rows != 0 {
			return true
		}
	}
	return false
}
