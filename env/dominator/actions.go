package dominator

import (
	"encoding/binary"
	"slices"
)

// Decoder turns one seat's action tensors (dominator-obs-1) into orders.
// Its zero value is ready to use; it keeps scratch space between calls and
// is not safe for concurrent use.
type Decoder struct {
	keys []int64
}

// Decode gives, through o, the orders of player me encoded in dirs, int8
// [U]: a direction 0..8 of me's frame per unit id. Only legal non-None
// directions (Legal) become orders; the others are dropped, as the
// engine's validation would drop them (lost units excepted, see Legal), so
// the game is the same as if they had been given. order, int16 [U]
// little-endian or nil, sets the issue order: increasing value, ties by
// unit id; nil means unit id order. s is the real state and me a seat, or
// a player's view and me = 0.
func (dc *Decoder) Decode(s *State, me int, dirs, order []byte, o *Orders) {
	keys := dc.keys[:0]
	n := min(len(dirs), len(s.Units))
	for id := 0; id < n; id++ {
		d := Dir(int8(dirs[id]))
		if d == None || !Legal(s, me, id, d) {
			continue
		}
		var prio int64
		if order != nil {
			prio = int64(int16(binary.LittleEndian.Uint16(order[2*id:])))
		}
		keys = append(keys, prio<<32|int64(id))
	}
	if order != nil {
		slices.Sort(keys)
	}
	for _, k := range keys {
		id := int(k & 0xffffffff)
		o.Command(id, Dir(int8(dirs[id])))
	}
	dc.keys = keys
}
