package arena

import "math"

// Z95 is the 97.5% quantile of the standard normal distribution.
const Z95 = 1.959963984540054

// Interval is an estimate with a 95% confidence interval.
type Interval struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// Within clips the interval's bounds to [lo, hi], the range the values
// can take (the t interval knows nothing of it: a mean rank of 1.05 would
// get a lower bound under 1).
func (x Interval) Within(lo, hi float64) Interval {
	x.Lo, x.Hi = max(x.Lo, lo), min(x.Hi, hi)
	return x
}

// Wilson is the Wilson score interval of a proportion of k successes in n
// trials, at the confidence of the normal quantile z. With no trials it is
// [0, 1].
func Wilson(k, n int, z float64) Interval {
	if n == 0 {
		return Interval{Lo: 0, Hi: 1}
	}
	p, nn := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nn
	center := (p + z*z/(2*nn)) / den
	half := z / den * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn))
	return Interval{Value: p, Lo: math.Max(0, center-half), Hi: math.Min(1, center+half)}
}

// MeanInterval is the mean of xs with the 95% Student-t interval
// mean ± t(0.975, n-1)·s/√n (s the sample standard deviation). With one
// sample the interval is the value itself.
func MeanInterval(xs []float64) Interval {
	n := len(xs)
	if n == 0 {
		return Interval{}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	if n == 1 {
		return Interval{Value: mean, Lo: mean, Hi: mean}
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := TQuantile975(n-1) * math.Sqrt(ss/float64(n-1)/float64(n))
	return Interval{Value: mean, Lo: mean - half, Hi: mean + half}
}

// TQuantile975 is the 97.5% quantile of Student's t distribution with df
// degrees of freedom: exact values for df < 10, then the Cornish-Fisher
// expansion around the normal quantile (Abramowitz and Stegun 26.7.5; error
// below 2e-5 for df >= 10).
func TQuantile975(df int) float64 {
	switch {
	case df < 1:
		return math.Inf(1)
	case df < 10:
		return [...]float64{12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836,
			2.446911851, 2.364624252, 2.306004135, 2.262157163}[df-1]
	}
	z, n := Z95, float64(df)
	z3, z5, z7, z9 := z*z*z, math.Pow(z, 5), math.Pow(z, 7), math.Pow(z, 9)
	return z + (z3+z)/(4*n) + (5*z5+16*z3+3*z)/(96*n*n) +
		(3*z7+19*z5+17*z3-15*z)/(384*n*n*n) +
		(79*z9+776*z7+1482*z5-1920*z3-945*z)/(92160*n*n*n*n)
}

// Rank is the competition rank (1..len(scores)) of seat p: one plus the
// number of seats with a higher score, so tied seats share the best rank
// (1, 1, 3, 4).
func Rank(scores []int, p int) int {
	r := 1
	for q, s := range scores {
		if q != p && s > scores[p] {
			r++
		}
	}
	return r
}

// The outcomes of a seat in a game.
const (
	Loss = -1 // another seat has a higher score
	Tie  = 0  // the seat shares the top score
	Win  = 1  // the seat alone has the top score
)

// Outcome classifies seat p: Win, Tie or Loss.
func Outcome(scores []int, p int) int {
	if Rank(scores, p) > 1 {
		return Loss
	}
	for q, s := range scores {
		if q != p && s == scores[p] {
			return Tie
		}
	}
	return Win
}
