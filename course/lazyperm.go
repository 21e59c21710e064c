package course

// LazyPerm yields the entries of a permutation (Rand.Perm or
// Rand.FullPerm) one at a time: entry i is final once step i of the
// shuffle is made, so a caller that reads only the first entries pays only
// for those, and Finish makes the remaining draws in O(log m). Nobody else
// may draw from the generator between Start and Finish. Between uses its
// buffers are clean (every entry unset), so one LazyPerm serves any number
// of permutations. The zero value is ready to use.
type LazyPerm struct {
	r       *Rand
	m, i    int     // size; entries produced so far
	full    bool    // FullPerm's draws: the last entry draws too
	val     []int32 // val[p] is v[p] when set[p], else v[p] = p
	set     []bool
	touched []int32
}

// Start begins Perm(m) drawn from r.
func (l *LazyPerm) Start(r *Rand, m int) { l.start(r, m, false) }

// StartFull begins FullPerm(m) drawn from r.
func (l *LazyPerm) StartFull(r *Rand, m int) { l.start(r, m, true) }

func (l *LazyPerm) start(r *Rand, m int, full bool) {
	l.r, l.m, l.i, l.full = r, m, 0, full
	if len(l.val) < m {
		l.val, l.set = make([]int32, m), make([]bool, m)
	}
	l.touched = l.touched[:0]
}

func (l *LazyPerm) at(p int) int32 {
	if l.set[p] {
		return l.val[p]
	}
	return int32(p)
}

func (l *LazyPerm) put(p int, v int32) {
	if !l.set[p] {
		l.set[p] = true
		l.touched = append(l.touched, int32(p))
	}
	l.val[p] = v
}

// Next returns the next entry, making its draw; ok is false once all m
// were produced.
func (l *LazyPerm) Next() (v int, ok bool) {
	i := l.i
	if i >= l.m {
		return 0, false
	}
	l.i++
	if i == l.m-1 && !l.full {
		return int(l.at(i)), true // Perm's last entry takes no draw
	}
	t := l.r.Int(i, l.m-1)
	vi, vt := l.at(i), l.at(t)
	l.put(t, vi)
	l.put(i, vt)
	return int(vt), true
}

// Finish makes the draws of the entries not produced and cleans the
// buffers.
func (l *LazyPerm) Finish() {
	if l.full {
		l.r.SkipDraws(l.m - l.i)
	} else {
		l.r.SkipDraws(l.m - 1 - min(l.i, max(l.m-1, 0)))
	}
	l.i = l.m
	l.Drop()
}

// Drop cleans the buffers without making the remaining draws, for a
// caller that abandons the permutation (the game aborts).
func (l *LazyPerm) Drop() {
	for _, p := range l.touched {
		l.set[p] = false
	}
	l.touched = l.touched[:0]
}
