package crematoria

// Rand is the course engine's random generator (SPEC §1): a 31-bit linear
// congruential generator. Its zero value is a generator seeded with 0.
//
// Every accepted draw advances the state by two steps, even R(0,0); the
// engine's byte-exact reproduction depends on it.
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

// Seed resets the generator: a negative seed is negated, then the low 31
// bits are kept. No step is made.
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

// Int draws a uniform integer in [l, u] (SPEC §1.3). When l > u, or the range
// is longer than 10^6, it returns l and leaves the state unchanged.
func (r *Rand) Int(l, u int) int {
	if l > u || u-l+1 > maxRange {
		return l
	}
	r.step()
	r.step()
	return l + int((uint64(u-l+1)*r.s)>>31)
}

// Perm draws a permutation of 0..n-1 (SPEC §1.4), using max(n-1, 0) draws.
// It returns nil when n < 0 or n > 10^6.
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
	for i := 0; i < n-1; i++ {
		t := r.Int(i, n-1)
		v[i], v[t] = v[t], v[i]
	}
	return v
}

// Skip makes the draws of a permutation of n elements without building it.
func (r *Rand) SkipPerm(n int) {
	if n < 0 || n > maxRange {
		return
	}
	for i := 0; i < n-1; i++ {
		r.Int(i, n-1)
	}
}
