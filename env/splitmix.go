package env

// SplitMix64 is the SplitMix64 generator (Steele, Lea and Flood, 2014):
// the small generator jgym uses where the course's engines prescribe none
// (seat shuffles, the toy game, the search bot's rollout seeds). Its state
// is one word: the zero value is a generator, and copying it copies the
// sequence.
type SplitMix64 struct{ State uint64 }

// golden is 2^64 divided by the golden ratio, SplitMix64's increment.
const golden = 0x9e3779b97f4a7c15

// Uint64 draws 64 random bits.
func (r *SplitMix64) Uint64() uint64 {
	r.State += golden
	return splitMixFinal(r.State)
}

// Mix64 hashes words into one: starting from the increment, each word is
// xored into the hash, which then takes a SplitMix64 step and becomes the
// step's output.
func Mix64(xs ...uint64) uint64 {
	h := uint64(golden)
	for _, x := range xs {
		r := SplitMix64{State: h ^ x}
		h = r.Uint64()
	}
	return h
}

func splitMixFinal(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
