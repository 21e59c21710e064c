package server

import (
	"fmt"
	"math/bits"
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
// session), and updates ref to cur.
func encodeDelta(dst, cur []byte, ids []int32, ref []byte, per int) []byte {
	w := per / 8
	nb := bitmapBytes(w)
	b := len(ids)
	dst = dst[:deltaCap(b, per)]
	bms := dst[:b*nb]
	clear(bms)
	// The changed words go after the bitmaps; out[j] is written for every
	// word and j advances only past the changed ones (no branch to
	// mispredict). The bitmaps are a multiple of 8 bytes only by chance,
	// so the words are written through a byte copy.
	j := b * nb
	for k, id := range ids {
		c := words(cur[k*per : (k+1)*per])
		r := words(ref[int(id)*per : (int(id)+1)*per])
		bm := bms[k*nb : (k+1)*nb]
		for i, cw := range c {
			var ch int
			if cw != r[i] {
				ch = 1
			}
			*(*uint64)(unsafe.Pointer(&dst[j])) = cw
			j += ch * 8
			bm[i>>3] |= byte(ch << (i & 7))
			r[i] = cw
		}
	}
	return dst[:j]
}

// ApplyDelta decodes a TENSOR_ENCODING_WORD_DELTA tensor for a Go client:
// data is the tensor's data, ids the answer's env ids, ref the client's
// references (per bytes for each env of the session, zero at the start of
// a stream), and out receives the decoded tensor (len(ids)*per bytes).
// ref is updated.
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
		copy(out[k*per:(k+1)*per], r)
	}
	if len(ws) != 0 {
		return fmt.Errorf("delta: %d bytes left after the changed words", len(ws))
	}
	return nil
}
