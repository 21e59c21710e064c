package server

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"unsafe"
)

// The word-delta encoding of observations (TENSOR_ENCODING_WORD_DELTA in
// api/jgym/v1/jgym.proto, docs/protocol.md).
//
// Between two rounds most of a Crematoria observation stays the same: the
// map, most owners, most units. A session with observation_delta sends,
// per env, a bitmap of the 8-byte words that changed since the last
// observation of that env on the stream, then those words. Both ends keep
// the last observation of every env (its reference) and start a stream
// from zero bytes, so the encoding needs no other state and a broken
// stream costs nothing but one larger answer on the next.

// deltaRefs holds the references of one session: per observation tensor,
// n envs times per bytes.
type deltaRefs struct {
	per  []int    // bytes per env of each tensor (0: sent raw)
	refs [][]byte // per tensor, n*per bytes
}

func newDeltaRefs(per []int, n int) *deltaRefs {
	d := &deltaRefs{per: per}
	for _, p := range per {
		if p%8 != 0 {
			p = 0
		}
		d.refs = append(d.refs, make([]byte, n*p))
	}
	return d
}

// clear zeroes the references (a new stream).
func (d *deltaRefs) clear() {
	for _, r := range d.refs {
		clear(r)
	}
}

// encodable reports whether tensor k is sent as a delta.
func (d *deltaRefs) encodable(k int) bool { return d.per[k] > 0 && d.per[k]%8 == 0 }

// bitmapBytes is the size of one env's bitmap for w words.
func bitmapBytes(w int) int { return (w + 7) / 8 }

// deltaCap is the largest encoding of b envs of per bytes.
func deltaCap(b, per int) int { return b * (bitmapBytes(per/8) + per) }

// words views b (whose length is a multiple of 8) as 8-byte words. The
// words are only compared and copied, never interpreted, so the machine's
// byte order does not matter.
func words(b []byte) []uint64 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// encodeDelta writes into dst (whose capacity must be at least
// deltaCap(len(ids), per)) the encoding of cur, the tensor of the envs
// ids (per bytes each), against ref (per bytes for each env of the
// session), and updates ref to cur. Large batches are encoded by several
// goroutines, each on a range of envs.
func encodeDelta(dst, cur []byte, ids []int32, ref []byte, per int) []byte {
	nb := bitmapBytes(per / 8)
	b := len(ids)
	dst = dst[:deltaCap(b, per)]
	clear(dst[:b*nb])
	parts := min(runtime.GOMAXPROCS(0), b/8)
	if parts < 2 {
		n := encodeRange(dst, cur, ids, ref, per, 0, b, b*nb)
		return dst[:b*nb+n]
	}
	// Range r writes its words from b*nb + lo*per, room for all of them,
	// then the ranges are moved down one after the other.
	lens := make([]int, parts)
	var wg sync.WaitGroup
	for r := range parts {
		lo, hi := r*b/parts, (r+1)*b/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			lens[r] = encodeRange(dst, cur, ids, ref, per, lo, hi, b*nb+lo*per)
		}()
	}
	wg.Wait()
	j := b * nb
	for r := range parts {
		start := b*nb + r*b/parts*per
		j += copy(dst[j:], dst[start:start+lens[r]])
	}
	return dst[:j]
}

// encodeRange encodes envs lo..hi-1 of the batch: their bitmaps at
// dst[k*nb:], their changed words from dst[at:]. It returns the bytes of
// words written.
func encodeRange(dst, cur []byte, ids []int32, ref []byte, per, lo, hi, at int) int {
	nb := bitmapBytes(per / 8)
	j := at
	for k := lo; k < hi; k++ {
		id := ids[k]
		c := words(cur[k*per : (k+1)*per])
		r := words(ref[int(id)*per : (int(id)+1)*per])
		bm := dst[k*nb : (k+1)*nb]
		// Every word is stored at dst[j] and j advances only past the
		// changed ones (no branch to mispredict). The words start at an
		// offset that is a multiple of 8 only by chance: a byte-slice store.
		for i, cw := range c {
			var ch int
			if cw != r[i] {
				ch = 1
			}
			binary.NativeEndian.PutUint64(dst[j:j+8], cw)
			j += ch * 8
			bm[i>>3] |= byte(ch << (i & 7))
			r[i] = cw
		}
	}
	return j - at
}

// ApplyDelta decodes a TENSOR_ENCODING_WORD_DELTA tensor for a Go client:
// data is the tensor's data, ids the answer's env ids, ref the client's
// references (per bytes for each env of the session, zero at the start of
// a stream), and out receives the decoded tensor (len(ids)*per bytes).
// ref is updated. When ids are consecutive, out may be ref's part for
// them: the tensor is then decoded in place.
func ApplyDelta(out, data []byte, ids []int32, ref []byte, per int) error {
	if per%8 != 0 || len(out) != len(ids)*per {
		return fmt.Errorf("delta: %d bytes per env is not whole words, or out has %d bytes for %d envs", per, len(out), len(ids))
	}
	w := per / 8
	nb := bitmapBytes(w)
	if len(data) < len(ids)*nb {
		return fmt.Errorf("delta: %d bytes, less than the %d bitmaps of %d bytes", len(data), len(ids), nb)
	}
	ws := data[len(ids)*nb:]
	for k, id := range ids {
		if id < 0 || int(id+1)*per > len(ref) {
			return fmt.Errorf("delta: env id %d out of range", id)
		}
		bm := data[k*nb : (k+1)*nb]
		r := ref[int(id)*per : int(id+1)*per]
		for x, m := range bm {
			for m != 0 {
				i := x*8 + bits.TrailingZeros8(m)
				m &= m - 1
				if i >= w {
					return fmt.Errorf("delta: a bitmap names word %d of %d", i, w)
				}
				if len(ws) < 8 {
					return fmt.Errorf("delta: the bitmaps name more words than data holds")
				}
				copy(r[i*8:i*8+8], ws[:8])
				ws = ws[8:]
			}
		}
		if o := out[k*per : (k+1)*per]; &o[0] != &r[0] { // out may be ref itself
			copy(o, r)
		}
	}
	if len(ws) != 0 {
		return fmt.Errorf("delta: %d bytes left after the changed words", len(ws))
	}
	return nil
}
