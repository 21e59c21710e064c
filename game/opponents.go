package game

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"

	"jgym/policy"
)

// opponentOrder returns the relabelling of the opponents' order named o
// (Def.OpponentOrders), nil for seat order ("" or policy.OpponentsBySeat),
// as the env's option opponent_order, a model's metadata and jgym
// dataset --opponent-order name it: the one lookup the env's tables, the
// policy bot and dataset replay share. An order the game does not offer
// is an error that lists those it does.
func (d *Def[C, G, S, D]) opponentOrder(o string) (func(obs [][]byte), error) {
	if o == "" || o == policy.OpponentsBySeat {
		return nil, nil
	}
	if f := d.OpponentOrders[o]; f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("%s has no opponent order %q (offers %q and %v)", d.Name, clip(o),
		policy.OpponentsBySeat, slices.Sorted(maps.Keys(d.OpponentOrders)))
}

// Relabel is a new labelling of the players in one seat's encoded
// observation: Relabel[r] is the new relative index of the player the
// encoder shows at relative index r (0, the seat itself, stays 0). A
// game's order of the opponents (Def.OpponentOrders) computes one and
// rewrites, in place, every code, column and per-player block of its
// tensors that holds a relative index.
type Relabel [NumSeats]uint8

// ScoreOrder returns the relabelling of the opponents by decreasing score,
// policy.OpponentsByScore: the scores are the float32 values
// (little-endian) globals[4*(at+r)] of relative indices r = 0..3; the
// opponents, 1, 2 and 3, are sorted by decreasing score, ties by
// increasing index, and the one at position k of that order becomes 1+k.
// identity reports that no index moves (the scores are in that order
// already, as when they tie); so does a globals tensor too short to hold
// the scores (one not encoded).
func ScoreOrder(globals []byte, at int) (r Relabel, identity bool) {
	r = Relabel{0, 1, 2, 3}
	if len(globals) < 4*(at+NumSeats) {
		return r, true
	}
	var s [NumSeats]float32
	for i := range s {
		s[i] = math.Float32frombits(binary.LittleEndian.Uint32(globals[4*(at+i):]))
	}
	// Insertion sort of the opponents, a strict comparison keeping the
	// ties in increasing index.
	order := [NumSeats - 1]uint8{1, 2, 3}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && s[order[j]] > s[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	identity = true
	for k, old := range order {
		r[old] = uint8(1 + k)
		identity = identity && old == uint8(1+k)
	}
	return r, identity
}

// Code relabels one code that holds a relative index as base+r (r =
// 0..3): it returns base+r' for the new index r', and c itself when c is
// not in base..base+3 (another code, or no player). base is at most 252.
func (r *Relabel) Code(c, base uint8) uint8 {
	if c-base < NumSeats { // c < base wraps to 252 or more
		return base + r[c-base]
	}
	return c
}

// Plane relabels, in place, every code base+r of a plane (Code).
func (r *Relabel) Plane(plane []byte, base uint8) {
	for i, c := range plane {
		plane[i] = r.Code(c, base)
	}
}

// Column relabels, in place, the codes base+r of column col of a table
// of rows of width bytes (Code): a units tensor's owner column, say.
func (r *Relabel) Column(table []byte, width, col int, base uint8) {
	for at := col; at < len(table); at += width {
		table[at] = r.Code(table[at], base)
	}
}

// Floats moves, in place, the per-player block of four float32 values
// globals[4*(at+i)] (little-endian), i = 0..3: the value of relative index
// i goes to index r[i]. A globals tensor too short to hold the block is
// left as it is.
func (r *Relabel) Floats(globals []byte, at int) {
	if len(globals) < 4*(at+NumSeats) {
		return
	}
	var v [NumSeats][4]byte
	for i := range v {
		copy(v[i][:], globals[4*(at+i):])
	}
	for i := range v {
		copy(globals[4*(at+int(r[i])):], v[i][:])
	}
}
