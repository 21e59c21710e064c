package dominator

import "jgym/course"

// Rand is the course's random generator (SPEC §1, package course): a
// 31-bit linear congruential generator whose every accepted draw makes two
// steps, even R(0,0). The engine owns one seeded with the game seed, and
// every player one seeded with seed+p+1 (SPEC §1.5). Dominator's P(n) is
// Rand.FullPerm, with n draws (SPEC §1.4).
type Rand = course.Rand

// NewRand returns a generator seeded with seed (SPEC §1.2).
func NewRand(seed int) *Rand { return course.NewRand(seed) }
