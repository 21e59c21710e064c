package course

// Rand is the course engine's random generator (SPEC §1 of every game): a
// linear congruential generator on 31 bits. A game's engine owns one seeded
// with the game seed, and every player one seeded with seed+p+1. Its zero
// value is a generator seeded with 0.
//
// Every accepted draw advances the state by two steps, even R(0, 0): the
// byte-exact reproduction of the engine depends on it.
type Rand struct {
	s uint64
}

const (
	randMul  = 843314861
	randAdd  = 453816693
	randMask = 1<<31 - 1
	maxRange = 1000000

	// Two steps composed into one: s -> mul2*s + add2 (mod 2^31).
	randMul2 = randMul * randMul & randMask
	randAdd2 = (randMul*randAdd + randAdd) & randMask
)

// NewRand returns a generator seeded with seed (SPEC §1.2).
func NewRand(seed int) *Rand {
	r := &Rand{}
	r.Seed(seed)
	return r
}

// Seed resets the generator: the seed is taken as a 32-bit integer (the
// kit's int), a negative one is negated, then the low 31 bits are kept. No
// step is made.
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

// Step makes one raw step of the recurrence (SPEC §1.1); a draw makes two.
// The SPECs count steps in their checkpoints.
func (r *Rand) Step() { r.s = (randMul*r.s + randAdd) & randMask }

// Int draws a uniform integer in [l, u] (SPEC §1.3). When l > u, or the
// range holds more than 10^6 values, it returns l and makes no step.
func (r *Rand) Int(l, u int) int {
	if l > u || u-l+1 > maxRange {
		return l
	}
	r.s = (randMul2*r.s + randAdd2) & randMask
	return l + int((uint64(u-l+1)*r.s)>>31)
}

// Perm draws P(n) as Crematoria's and Moria's engines and kits do (their
// SPEC §1.4): for i = 0 .. n-2, swap v[i] and v[R(i, n-1)], so max(n-1, 0)
// draws. It returns nil, making no draw, when n < 0 or n > 10^6.
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
	for i := 0; i < n-1; i++ {
		t := r.Int(i, n-1)
		v[i], v[t] = v[t], v[i]
	}
	return v
}

// SkipPerm makes the draws of Perm(n) without building it, in O(log n).
func (r *Rand) SkipPerm(n int) {
	if n < 0 || n > maxRange {
		return
	}
	r.SkipDraws(n - 1)
}

// FullPerm draws P(n) as Dominator's and Pandemic's engines and kits do
// (their SPEC §1.4): for i = 0 .. n-1, the last one included, swap v[i]
// and v[R(i, n-1)], so n draws; the last, R(n-1, n-1), changes nothing but
// the state. The entries are those of Perm(n). It returns nil, making no
// draw, when n < 0 or n > 10^6.
func (r *Rand) FullPerm(n int) []int {
	if n < 0 || n > maxRange {
		return nil
	}
	return r.FullPermInto(make([]int, n))
}

// FullPermInto is FullPerm writing into v (n = len(v) <= 10^6) to avoid an
// allocation.
func (r *Rand) FullPermInto(v []int) []int {
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

// SkipFullPerm makes the draws of FullPerm(n) without building it, in
// O(log n).
func (r *Rand) SkipFullPerm(n int) {
	if n < 0 || n > maxRange {
		return
	}
	r.SkipDraws(n)
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
var jumpMul, jumpAdd [48]uint64

func init() {
	jumpMul[0], jumpAdd[0] = randMul, randAdd
	for b := 1; b < len(jumpMul); b++ {
		a, c := jumpMul[b-1], jumpAdd[b-1]
		jumpMul[b] = (a * a) & randMask
		jumpAdd[b] = (a*c + c) & randMask
	}
}
