package dominator

// Rand is the course's random generator (SPEC §1): a linear congruential
// generator on 31 bits. The engine owns one seeded with the game seed, and
// every player one seeded with seed+p+1 (SPEC §1.5). Its zero value is a
// generator seeded with 0.
//
// Every accepted draw makes two steps, even R(0,0), and a permutation of n
// elements makes n draws: byte-exact games depend on both.
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

// Seed resets the generator: the seed is taken as a 32-bit int, negated if
// negative, and its low 31 bits kept. No step is made.
func (r *Rand) Seed(seed int) {
	x := int64(int32(seed))
	if x < 0 {
		x = -x
	}
	r.s = uint64(x) & randMask
}

// State returns the raw generator state.
func (r *Rand) State() int64 { return int64(r.s) }

// SetState sets the raw generator state (its low 31 bits).
func (r *Rand) SetState(s int64) { r.s = uint64(s) & randMask }

func (r *Rand) step() { r.s = (randMul*r.s + randAdd) & randMask }

// Int draws a uniform integer in [l, u] (SPEC §1.3). When l > u or the range
// holds more than 10^6 values it returns l and makes no step.
func (r *Rand) Int(l, u int) int {
	if l > u || u-l+1 > maxRange {
		return l
	}
	r.step()
	r.step()
	return l + int((uint64(u-l+1)*r.s)>>31)
}

// Perm draws a permutation of 0..n-1 (SPEC §1.4) with n draws. It returns
// nil, making no draw, when n < 0 or n > 10^6.
func (r *Rand) Perm(n int) []int {
	if n < 0 || n > maxRange {
		return nil
	}
	return r.PermInto(make([]int, n))
}

// PermInto is Perm writing into v (n = len(v) <= 10^6) to avoid an
// allocation.
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

// SkipPerm makes the draws of P(n) without building it, in O(log n).
func (r *Rand) SkipPerm(n int) {
	if n < 0 || n > maxRange {
		return
	}
	r.SkipDraws(n)
}

// SkipDraws makes k accepted draws (2k steps) without computing their
// values, in O(log k).
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

// jumpMul[b], jumpAdd[b] make 2^b steps at once: the recurrence composed
// with itself is again affine modulo 2^31.
var jumpMul, jumpAdd [48]uint64

func init() {
	jumpMul[0], jumpAdd[0] = randMul, randAdd
	for b := 1; b < len(jumpMul); b++ {
		a, c := jumpMul[b-1], jumpAdd[b-1]
		jumpMul[b] = (a * a) & randMask
		jumpAdd[b] = (a*c + c) & randMask
	}
}

// lazyPerm yields P(m) (SPEC §1.4) one entry at a time: entry k is final
// once the k-th swap is made, so a caller that reads only the first
// entries pays only for those, and finish makes the remaining draws in
// O(log m). Nobody else may draw from the generator between start and
// finish. Between uses the buffers are clean (every entry unset).
type lazyPerm struct {
	r       *Rand
	m       int
	i       int     // entries produced so far
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

// next returns the next entry of the permutation, making its draw.
func (l *lazyPerm) next() int {
	i := l.i
	l.i++
	t := l.r.Int(i, l.m-1)
	vi, vt := l.at(i), l.at(t)
	l.put(t, vi)
	l.put(i, vt)
	return int(vt)
}

// finish makes the draws of the entries not produced and cleans the
// buffers.
func (l *lazyPerm) finish() {
	l.r.SkipDraws(l.m - l.i)
	l.i = l.m
	for _, p := range l.touched {
		l.set[p] = false
	}
	l.touched = l.touched[:0]
}
