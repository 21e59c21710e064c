package toy

// Rand is the toy's random generator (SplitMix64): it draws the map and
// the cells of captured units, and the Demo bot's moves.
type Rand struct{ s uint64 }

// NewRand returns the generator of a seed.
func NewRand(seed int) Rand { return Rand{s: uint64(seed)*0x9e3779b97f4a7c15 ^ 0x746f79} }

// Uint64 draws 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Intn draws an integer in 0..n-1 (n > 0).
func (r *Rand) Intn(n int) int { return int(r.Uint64() % uint64(n)) }
