package game

// CellLogSize is the number of cell writes a CellLog remembers (a round
// of Crematoria or Moria writes a few hundred).
const CellLogSize = 1024

// CellLog records the index of every cell an engine writes in a state of
// type S, so that an observer that kept what it derived from the cells
// (a CellLogMark beside its copy of them) redoes only those instead of
// comparing every cell: the writes numbered seq-n .. seq-1 are
// ring[(seq-n) % CellLogSize] .. ring[(seq-1) % CellLogSize] for n <=
// CellLogSize. A log belongs to one state (owner): a copy of the state by
// value shares the pointer but is not its owner, and a state restored by
// value from an older copy has a write count (CellLogRef) other than the
// log's; either makes the log invalid for that state (an observer then
// compares every cell), and its next write starts a fresh stretch.
type CellLog[S any] struct {
	owner *S
	seq   uint64
	ring  [CellLogSize]uint16
}

// CellLogRef is the field of a state that holds its log: the log and the
// log's write count when the state was last written through it. The
// engine calls Note for every cell it writes; code that writes the cells
// otherwise calls Changed.
type CellLogRef[S any] struct {
	log *CellLog[S]
	seq uint64
}

// Note records that cell idx of owner (the state holding r) was, or is
// about to be, written.
func (r *CellLogRef[S]) Note(owner *S, idx int) {
	l := r.log
	if l == nil || l.owner != owner || r.seq != l.seq {
		l = r.restart(owner)
	}
	l.ring[l.seq%CellLogSize] = uint16(idx)
	l.seq++
	r.seq = l.seq
}

// restart gives owner a log of its own whose past writes no observer can
// trust: its own log with its count moved past the ring (an observer that
// knew it sees too many writes), or a new one.
func (r *CellLogRef[S]) restart(owner *S) *CellLog[S] {
	l := r.log
	if l == nil || l.owner != owner {
		l = &CellLog[S]{owner: owner}
		r.log = l
	}
	l.seq += CellLogSize + 1
	r.seq = l.seq
	return l
}

// Log returns owner's log and its write count when the log is valid for
// owner (every write to its cells since the log began is in it), else nil.
func (r *CellLogRef[S]) Log(owner *S) (*CellLog[S], uint64) {
	if l := r.log; l != nil && l.owner == owner && r.seq == l.seq {
		return l, l.seq
	}
	return nil, 0
}

// Changed tells the observers that owner's cells were written outside
// the engine (a copy, a test or a tool editing a state): they read every
// cell again at their next call.
func (r *CellLogRef[S]) Changed(owner *S) {
	if r.log != nil && r.log.owner == owner {
		r.restart(owner)
	}
}

// CellLogMark is an observer's place in a state's log: the log it read
// last and the write count then.
type CellLogMark[S any] struct {
	log *CellLog[S]
	at  uint64
}

// Advance moves m to the log of owner (r its field) as it is now, and
// returns the indices of the cells written since m's place, in two runs
// of the ring (a cell may come more than once), with ok true; ok is false
// when the log does not hold every write since (no valid log, another
// log, or more writes than the ring keeps): the observer then compares
// every cell.
func (m *CellLogMark[S]) Advance(r *CellLogRef[S], owner *S) (a, b []uint16, ok bool) {
	l, seq := r.Log(owner)
	was, at := m.log, m.at
	m.log, m.at = l, seq
	if l == nil || l != was || seq < at || seq-at > CellLogSize {
		return nil, nil, false
	}
	if seq == at {
		return nil, nil, true
	}
	i, j := at%CellLogSize, seq%CellLogSize
	if i < j {
		return l.ring[i:j], nil, true
	}
	return l.ring[i:], l.ring[:j], true
}

// Set moves m to the log of owner as it is now (the observer has read
// every cell).
func (m *CellLogMark[S]) Set(r *CellLogRef[S], owner *S) {
	m.log, m.at = r.Log(owner)
}

// Place returns the log m follows (or nil) and its write count then.
func (m *CellLogMark[S]) Place() (*CellLog[S], uint64) { return m.log, m.at }
