package pandemic

import (
	"math"

	"jgym/course"
)

// Rand is the course engine's random generator (SPEC §1, package course):
// a 31-bit linear congruential generator whose every accepted integer draw
// makes two steps, even R(k, k). Pandemic's P(n) is Rand.FullPerm, with
// exactly n draws (SPEC §1.4).
type Rand = course.Rand

// NewRand returns a generator seeded with seed (SPEC §1.2).
func NewRand(seed int) *Rand { return course.NewRand(seed) }

// bernoulli is the trial B(p) of SPEC §1.5: it always draws R(1, 10000)
// from r and succeeds when the draw is at most trunc(10000 p).
func bernoulli(r *Rand, p float64) bool {
	return r.Int(1, 10000) <= Threshold(p)
}

// Threshold is trunc(10000 p) as the kit computes it (C++ int(x)): the
// product is one double multiplication, truncated toward zero; a NaN or a
// value outside the 32-bit range gives INT_MIN, as on x86-64 (SPEC §14.16).
func Threshold(p float64) int {
	return truncInt32(float64(10000 * p))
}

// truncInt32 is C++ int(x) on x86-64: truncation toward zero, INT_MIN for
// NaN and out-of-range values (cvttsd2si).
func truncInt32(x float64) int {
	if math.IsNaN(x) || x >= 1<<31 || x <= -(1<<31)-1 {
		return math.MinInt32
	}
	return int(x)
}

// HealProb is the healing probability 0.001 (t^2/16 + 1) for a unit
// infected for t turns (SPEC §8.7), evaluated in the kit's order.
func HealProb(t int) float64 {
	q := float64(float64(t*t)/16.0) + 1
	return float64(0.001 * q)
}

// InfectProb is the infection probability of a unit on a cell with the
// given virus (SPEC §8.7): virus / infection_factor, divided again by
// mask_protection when the unit wears a mask.
func InfectProb(virus int, masked bool, cfg *Config) float64 {
	p := float64(virus) / cfg.InfectionFactor
	if masked {
		p = p / cfg.MaskProtection
	}
	return p
}
