package arena

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMedianRank(t *testing.T) {
	// Ranks of the distribution-free 95% interval of the median from
	// binomial tables and an exact binomial sum (n = 20: x(6) to x(15); n = 100: x(40)
	// to x(61)).
	for _, tc := range []struct{ n, l int }{
		{1, 1}, {5, 1}, {6, 1}, {8, 1}, {9, 2}, {10, 2}, {12, 3}, {20, 6}, {30, 10}, {100, 40}, {200, 86},
	} {
		if got := medianRank(tc.n); got != tc.l {
			t.Errorf("medianRank(%d) = %d, want %d", tc.n, got, tc.l)
		}
	}
	// The normal approximation n/2 - 0.98 sqrt(n) for a large sample
	// (where 0.5^n underflows).
	if got, approx := medianRank(100000), 50000-0.98*math.Sqrt(100000); math.Abs(float64(got)-approx) > 2 {
		t.Errorf("medianRank(100000) = %d, want about %.0f", got, approx)
	}
}

func TestMedianInterval(t *testing.T) {
	for _, tc := range []struct {
		xs          []float64
		med, lo, hi float64
	}{
		{[]float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 5.5, 2, 9},
		{[]float64{3, 1, 2, 5, 4}, 3, 1, 5}, // under 6 values: [min, max]
		{[]float64{4}, 4, 4, 4},
		{[]float64{1e7, 2, 1, 3, 3, 3, 2, 1, 1}, 2, 1, 3},
	} {
		got := MedianInterval(tc.xs)
		if got.Value != tc.med || got.Lo != tc.lo || got.Hi != tc.hi {
			t.Errorf("MedianInterval(%v) = %+v, want %v [%v, %v]", tc.xs, got, tc.med, tc.lo, tc.hi)
		}
	}
	if got := MedianInterval(nil); got != (Interval{}) {
		t.Errorf("MedianInterval(nil) = %+v", got)
	}
}

// TestMedianIntervalCoverage draws 2000 samples of 30 values of an
// exponential distribution (median ln 2) and checks the interval covers
// the median as often as the binomial says (95.7% for n = 30).
func TestMedianIntervalCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const trials, n = 2000, 30
	covered := 0
	xs := make([]float64, n)
	for range trials {
		for i := range xs {
			xs[i] = rng.ExpFloat64()
		}
		if iv := MedianInterval(xs); iv.Lo <= math.Ln2 && math.Ln2 <= iv.Hi {
			covered++
		}
	}
	if rate := float64(covered) / trials; rate < 0.94 || rate > 0.975 {
		t.Errorf("coverage %.3f over %d samples, want about 0.957", rate, trials)
	}
}

func TestBootstrapMeanInterval(t *testing.T) {
	if got := BootstrapMeanInterval([]float64{7, 7, 7}, 1000); got != (Interval{7, 7, 7}) {
		t.Errorf("constant sample: %+v, want [7, 7]", got)
	}
	if got := BootstrapMeanInterval([]float64{4}, 1000); got != (Interval{4, 4, 4}) {
		t.Errorf("one value: %+v", got)
	}
	// 199 games of 1000 and one of 10^7: the t interval of the mean goes
	// below zero; the bootstrap's lower bound is a resample without the
	// big game (mean 1000: 37% of resamples miss it).
	xs := make([]float64, 200)
	for i := range xs {
		xs[i] = 1000
	}
	xs[17] = 1e7
	mean := (199*1000 + 1e7) / 200.0
	if tt := MeanInterval(xs); tt.Lo >= 0 {
		t.Fatalf("t interval %+v: the example should reach below zero", tt)
	}
	got := BootstrapMeanInterval(xs, BootstrapResamples)
	if got.Value != mean || got.Lo != 1000 || got.Hi <= mean || got.Hi > 1e7 {
		t.Errorf("heavy tail: %+v, want mean %v, lower bound 1000, upper bound above the mean", got, mean)
	}
	if again := BootstrapMeanInterval(xs, BootstrapResamples); again != got {
		t.Errorf("not deterministic: %+v then %+v", got, again)
	}
}

// TestBootstrapMeanCoverage checks the interval covers the mean of a
// normal distribution in about 95% of 300 samples of 40 values.
func TestBootstrapMeanCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const trials, n = 300, 40
	covered := 0
	xs := make([]float64, n)
	for range trials {
		for i := range xs {
			xs[i] = 10 + rng.NormFloat64()
		}
		if iv := BootstrapMeanInterval(xs, 1000); iv.Lo <= 10 && 10 <= iv.Hi {
			covered++
		}
	}
	if rate := float64(covered) / trials; rate < 0.90 || rate > 0.985 {
		t.Errorf("coverage %.3f over %d samples, want about 0.95", rate, trials)
	}
}
