package moria

// Rand is the course engine's random generator (SPEC §1): a 31-bit linear
// congruential generator. Its zero value is a generator seeded with 0.
//
// Every accepted draw advances the state by two steps, even R(0,0); the
// byte-exact reproduction depends on it.
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

// Seed resets the generator: the seed is taken as a 32-bit integer, a
// negative one is negated, then the low 31 bits are kept. No step is made.
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

// Int draws a uniform integer in [l, u] (SPEC §1.3). When l > u, or the
// range is longer than 10^6, it returns l and leaves the state unchanged.
func (r *Rand) Int(l, u int) int {
	if l > u || u-l+1 > maxRange {
		return l
	}
	// Two steps composed into one: s -> a2*s + c2 (mod 2^31).
	r.s = (jumpMul[1]*r.s + jumpAdd[1]) & randMask
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

// SkipPerm makes the draws of P(n) without building it, in O(log n).
func (r *Rand) SkipPerm(n int) {
	if n < 0 || n > maxRange {
		return
	}
	r.SkipDraws(n - 1)
}

// SkipDraws makes k accepted draws (2k steps) without computing their
// values, in O(log k). Draws with an empty or too long range make no steps
// and must not be counted.
func (r *Rand) SkipDraws(k int) {
	if k <= 0 {
		return
	}
	steps := uint64(2 * k)
	for b := 0; steps != 0; b++ {
		if steps&1 != 0 {
			r.s = (jumpMul[b]*r.s + jumpAdd[b]) & randMask
		}
		steps >>= 1
	}
}

// jumpMul[b], jumpAdd[b] make 2^b steps at once: the step composed with
// itself is again affine modulo 2^31.
var jumpMul, jumpAdd [40]uint64

func init() {
	jumpMul[0], jumpAdd[0] = randMul, randAdd
	for b := 1; b < len(jumpMul); b++ {
		a, c := jumpMul[b-1], jumpAdd[b-1]
		jumpMul[b] = (a * a) & randMask
		jumpAdd[b] = (a*c + c) & randMask
	}
}

// lazyPerm yields the entries of P(m) (SPEC §1.4) one at a time: entry i
// is final once step i of the shuffle is made, so a caller that reads only
// the first entries pays only for those, and finish makes the remaining
// draws in O(log m). Nobody else may use the generator between start and
// finish. Between uses the buffers are clean (every entry unset).
type lazyPerm struct {
	r       *Rand
	m, i    int     // size; entries produced so far
	val     []int32 // val[p] is v[p] when set[p], else v[p] = p
	set     []bool
	touched []int32
}

func (l *lazyPerm) start(r *Rand, m int) {
	l.r, l.m, l.i = r, m, 0
	if len(l.val) < m {
		l.val, l.set = make([]int32, m), make([]bool, m)
	}
	l.touched = l.touched[:0]
}

func (l *lazyPerm) at(p int) int32 {
	if l.set[p] {
		return l.val[p]
	}
	return int32(p)
}

func (l *lazyPerm) put(p int, v int32) {
	if !l.set[p] {
		l.set[p] = true
		l.touched = append(l.touched, int32(p))
	}
	l.val[p] = v
}

// next returns the next entry; ok is false once all m were produced.
func (l *lazyPerm) next() (v int, ok bool) {
	i := l.i
	if i >= l.m {
		return 0, false
	}
	l.i++
	if i == l.m-1 {
		return int(l.at(i)), true // the last entry takes no draw
	}
	t := l.r.Int(i, l.m-1)
	vi, vt := l.at(i), l.at(t)
	l.put(t, vi)
	l.put(i, vt)
	return int(vt), true
}

// finish makes the draws of the entries not produced and cleans up.
func (l *lazyPerm) finish() {
	done := min(l.i, max(l.m-1, 0))
	l.r.SkipDraws(l.m - 1 - done)
	l.i = l.m
	for _, p := range l.touched {
		l.set[p] = false
	}
	l.touched = l.touched[:0]
}
