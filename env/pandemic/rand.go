package pandemic

import "math"

// Rand is the course engine's random generator (SPEC §1): a 31-bit linear
// congruential generator. Its zero value is a generator seeded with 0.
//
// Every accepted integer draw advances the state by two steps, even
// R(k, k); the byte-exact reproduction depends on it.
type Rand struct {
	s uint64
}

const (
	randMul  = 843314861
	randAdd  = 453816693
	randMask = 1<<31 - 1
	maxRange = 1000000
)

// NewRand returns a generator seeded with seed (SPEC §1.2).
func NewRand(seed int) *Rand {
	r := &Rand{}
	r.Seed(seed)
	return r
}

// Seed resets the generator to |seed| mod 2^31, the seed taken as the
// kit's 32-bit int. No step is made.
func (r *Rand) Seed(seed int) {
	x := int64(int32(seed))
	if x < 0 {
		x = -x
	}
	r.s = uint64(x) & randMask
}

// State returns the raw generator state.
func (r *Rand) State() int64 { return int64(r.s) }

// SetState sets the raw generator state (the low 31 bits are kept).
func (r *Rand) SetState(s int64) { r.s = uint64(s) & randMask }

func (r *Rand) step() {
	r.s = (randMul*r.s + randAdd) & randMask
}

// Int draws a uniform integer in [l, u] (SPEC §1.3). When l > u, or the
// range is longer than 10^6, it returns l and leaves the state unchanged.
func (r *Rand) Int(l, u int) int {
	if l > u || u-l+1 > maxRange {
		return l
	}
	s := (randMul*r.s + randAdd) & randMask
	s = (randMul*s + randAdd) & randMask
	r.s = s
	return l + int((uint64(u-l+1)*s)>>31)
}

// Perm draws a permutation of 0..n-1 (SPEC §1.4) with exactly n draws.
// It returns nil when n < 0 or n > 10^6, as the kit's random_permutation
// returns an empty vector and draws nothing.
func (r *Rand) Perm(n int) []int {
	if n < 0 || n > maxRange {
		return nil
	}
	return r.PermInto(make([]int, n))
}

// PermInto is Perm writing into v (len(v) = n) to avoid an allocation.
func (r *Rand) PermInto(v []int) []int {
	n := len(v)
	for i := range v {
		v[i] = i
	}
	for i := 0; i < n; i++ {
		t := r.Int(i, n-1)
		v[i], v[t] = v[t], v[i]
	}
	return v
}

// Bernoulli is the trial B(p) of SPEC §1.5: it always draws R(1, 10000)
// and succeeds when the draw is at most trunc(10000 p).
func (r *Rand) Bernoulli(p float64) bool {
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
