package arena

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestWilson(t *testing.T) {
	// Reference values computed independently from the Wilson formula.
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.2775328},
		{5, 10, 0.2365931, 0.7634069},
		{10, 10, 0.7224672, 1},
		{190, 200, 0.9104219, 0.9726174},
		{1, 8, 0.0224175, 0.4708882},
	} {
		got := Wilson(tc.k, tc.n, Z95)
		if !near(got.Lo, tc.lo, 1e-6) || !near(got.Hi, tc.hi, 1e-6) || !near(got.Value, float64(tc.k)/float64(tc.n), 1e-12) {
			t.Errorf("Wilson(%d, %d) = %+v, want [%.7f, %.7f]", tc.k, tc.n, got, tc.lo, tc.hi)
		}
	}
	if got := Wilson(0, 0, Z95); got.Lo != 0 || got.Hi != 1 {
		t.Errorf("Wilson(0, 0) = %+v, want [0, 1]", got)
	}
}

func TestTQuantile(t *testing.T) {
	// Student t 97.5% quantiles from statistical tables.
	for _, tc := range []struct {
		df   int
		want float64
	}{
		{1, 12.706205}, {4, 2.776445}, {5, 2.570582}, {9, 2.262157}, {10, 2.228139},
		{20, 2.085963}, {30, 2.042272}, {100, 1.983972}, {1000, 1.962339},
	} {
		if got := TQuantile975(tc.df); !near(got, tc.want, 2e-5) {
			t.Errorf("TQuantile975(%d) = %.6f, want %.6f", tc.df, got, tc.want)
		}
	}
	if !math.IsInf(TQuantile975(0), 1) {
		t.Error("TQuantile975(0) should be +Inf")
	}
}

func TestMeanInterval(t *testing.T) {
	for _, tc := range []struct {
		xs           []float64
		mean, lo, hi float64
	}{
		// s = 1.5811, se = 0.7071, t(4) = 2.7764: half width 1.9632.
		{[]float64{1, 2, 3, 4, 5}, 3, 1.0367568, 4.9632432},
		{[]float64{7, 7, 7}, 7, 7, 7},
		{[]float64{4}, 4, 4, 4},
	} {
		got := MeanInterval(tc.xs)
		if !near(got.Value, tc.mean, 1e-9) || !near(got.Lo, tc.lo, 1e-6) || !near(got.Hi, tc.hi, 1e-6) {
			t.Errorf("MeanInterval(%v) = %+v, want %v [%v, %v]", tc.xs, got, tc.mean, tc.lo, tc.hi)
		}
	}
}

func TestRankAndOutcome(t *testing.T) {
	for _, tc := range []struct {
		scores   [4]int
		ranks    [4]int
		outcomes [4]int
	}{
		{[4]int{10, 20, 30, 40}, [4]int{4, 3, 2, 1}, [4]int{-1, -1, -1, 1}},
		{[4]int{50, 50, 10, 0}, [4]int{1, 1, 3, 4}, [4]int{0, 0, -1, -1}},
		{[4]int{5, 9, 9, 5}, [4]int{3, 1, 1, 3}, [4]int{-1, 0, 0, -1}},
		{[4]int{0, 0, 0, 0}, [4]int{1, 1, 1, 1}, [4]int{0, 0, 0, 0}},
	} {
		for p := 0; p < 4; p++ {
			if r := Rank(tc.scores[:], p); r != tc.ranks[p] {
				t.Errorf("rankOf(%v, %d) = %d, want %d", tc.scores, p, r, tc.ranks[p])
			}
			if o := Outcome(tc.scores[:], p); o != tc.outcomes[p] {
				t.Errorf("outcome(%v, %d) = %d, want %d", tc.scores, p, o, tc.outcomes[p])
			}
		}
	}
}

func TestIntervalWithin(t *testing.T) {
	got := Interval{Value: 1.05, Lo: 0.949, Hi: 1.151}.Within(1, 4)
	if want := (Interval{Value: 1.05, Lo: 1, Hi: 1.151}); got != want {
		t.Errorf("within(1, 4) = %+v, want %+v", got, want)
	}
}
