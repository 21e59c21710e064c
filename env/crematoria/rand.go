package crematoria

import "jgym/course"

// Rand is the course engine's random generator (SPEC §1, package course):
// a 31-bit linear congruential generator whose every accepted draw makes
// two steps, even R(0,0). Crematoria's P(n) is Rand.Perm, with max(n-1, 0)
// draws (SPEC §1.4).
type Rand = course.Rand

// NewRand returns a generator seeded with seed (SPEC §1.2).
func NewRand(seed int) *Rand { return course.NewRand(seed) }
