package arena

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Scores can be heavy-tailed: Pandemic's grow exponentially with the size
// of a player's largest connected group of cities, so one game of 200 can
// score 10^7 while the rest score 10^4, and the normal (Student-t) interval
// of the mean, symmetric by construction, then reaches below zero. The two
// intervals below make no assumption on the shape of the distribution.

// BootstrapResamples is the number of resamples of BootstrapMeanInterval
// in evaluations and tournaments.
const BootstrapResamples = 10000

// bootstrapSeed seeds the resampling, so an interval is a function of the
// sample alone (the same games print the same report).
const bootstrapSeed = 0x6a67796d

// BootstrapMeanInterval is the mean of xs with its 95% percentile
// bootstrap interval: the 2.5% and 97.5% quantiles of the means of
// resamples samples of len(xs) values drawn from xs with replacement, by a
// generator of fixed seed. The bounds are means of values of xs, so they
// lie within [min xs, max xs] and follow the skew of the sample. With one
// sample (or resamples < 1) the interval is the value itself.
func BootstrapMeanInterval(xs []float64, resamples int) Interval {
	n := len(xs)
	if n == 0 {
		return Interval{}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	if n == 1 || resamples < 1 {
		return Interval{Value: mean, Lo: mean, Hi: mean}
	}
	rng := rand.New(rand.NewPCG(bootstrapSeed, uint64(n)))
	means := make([]float64, resamples)
	for b := range means {
		var s float64
		for range n {
			s += xs[rng.IntN(n)]
		}
		means[b] = s / float64(n)
	}
	slices.Sort(means)
	lo := means[int(math.Floor(0.025*float64(resamples-1)))]
	hi := means[int(math.Ceil(0.975*float64(resamples-1)))]
	return Interval{Value: mean, Lo: min(lo, mean), Hi: max(hi, mean)}
}

// MedianInterval is the median of xs with its distribution-free 95%
// confidence interval from order statistics: with the sample sorted as
// x(1) <= ... <= x(n), the interval [x(l), x(n+1-l)] for the largest l with
// 2·P(B <= l-1) <= 0.05, B ~ Binomial(n, 1/2), covers the population
// median with probability at least 95% whatever the distribution. With
// fewer than 6 values no such l exists and the interval is [min, max]
// (coverage 1 - 2^(1-n), below 95%).
func MedianInterval(xs []float64) Interval {
	n := len(xs)
	if n == 0 {
		return Interval{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	l := medianRank(n)
	return Interval{Value: med, Lo: s[l-1], Hi: s[n-l]}
}

// medianRank is the 1-based rank l of MedianInterval's lower bound for a
// sample of n: the largest l >= 1 with P(B <= l-1) <= 0.025 for
// B ~ Binomial(n, 1/2), or 1 if there is none.
func medianRank(n int) int {
	// P(B = k) in log space: 0.5^n underflows for n > 1074.
	logHalf := float64(n) * math.Log(0.5)
	lgN, _ := math.Lgamma(float64(n + 1))
	l, cdf := 1, 0.0
	for k := 0; k < n; k++ {
		lgK, _ := math.Lgamma(float64(k + 1))
		lgNK, _ := math.Lgamma(float64(n - k + 1))
		if cdf += math.Exp(lgN - lgK - lgNK + logHalf); cdf > 0.025 {
			break
		}
		l = k + 1
	}
	return l
}
