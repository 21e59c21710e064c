package crematoria

import (
	"jgym/game"
	"jgym/policy"
)

// Indices of the per-group entries of the globals tensor: entry base+r is
// the value of relative index r.
const (
	globScores = 3  // score / 1000
	globCells  = 7  // nb_cells / 1000
	globGems   = 11 // nb_gems / 10
)

// OrderOpponentsByScore relabels the three opponents of one seat's encoded
// observation by decreasing score, in place: the transform of a policy
// whose metadata opponent_order is "score" (policy.OpponentsByScore,
// docs/observation.md). board (uint8 [3, 40, 80]), units (uint8 [U, 8])
// and globals (float32 [16], little-endian) are the encoder's tensors (a
// nil one is not touched); the others hold no relative index of an opponent and stay as they are.
//
// The scores are the float32 values globals[3+r]. The opponents, relative
// indices 1, 2 and 3, are ordered by decreasing score, ties by increasing
// index, and the one at position k of that order becomes relative index
// 1+k; the seat itself stays 0. The new labels replace the old ones in the
// owned caves of board plane 0 (terrain 3..6), the Pioneers and Furyans of
// planes 0 and 1 (unit codes 1..4 and 5..8), column 1 of units (the rel
// owner) and globals 3..14 (scores, cells and gems of each rel). When the
// opponents' scores are already in that order, as when they tie, nothing
// changes. The exported C++ player does the same (CppTarget).
func OrderOpponentsByScore(board, units, globals []byte) {
	nr, identity := game.ScoreOrder(globals, globScores)
	if identity {
		return
	}
	// Code tables of planes 0 and 1: terrain in bits 0-2 (owned caves on
	// level 0 only), the unit in bits 3-6, bit 7 kept.
	var lut0, lut1 [256]uint8
	for c := range lut0 {
		t, u, high := uint8(c)&7, uint8(c)>>3&15, uint8(c)&0x80
		u = nr.Code(nr.Code(u, unitPioneer), unitFuryan)
		lut1[c] = high | u<<3 | t
		lut0[c] = high | u<<3 | nr.Code(t, codeOwnedCave)
	}
	if len(board) >= BoardBytes {
		level0 := board[:LevelCells:LevelCells]
		for i, c := range level0 {
			level0[i] = lut0[c]
		}
		level1 := board[LevelCells : 2*LevelCells : 2*LevelCells]
		for i, c := range level1 {
			level1[i] = lut1[c]
		}
	}
	nr.Column(units, UnitFeatures, 1, 0)
	for _, at := range [...]int{globScores, globCells, globGems} {
		nr.Floats(globals, at)
	}
}

// orderOpponents is OrderOpponentsByScore on one seat's encoded tensors
// (Def.OpponentOrders): board, units and globals, which every observation
// version has.
func orderOpponents(obs [][]byte) { OrderOpponentsByScore(obs[0], obs[1], obs[2]) }

// signature is what a Crematoria policy takes and gives
// (docs/export.md): the observation of docs/observation.md
// (crematoria-obs-3, or the first five or four tensors for a policy
// trained on crematoria-obs-2 or crematoria-obs-1) with any multiple of 4
// unit slots, and logits [1, U, 11].
func signature() policy.Signature {
	spec, _ := specFor(&defaultConfig)
	sig := policy.SignatureOf(&spec)
	sig.SlotsMultiple = NumPlayers
	v2 := sig
	v2.ObservationVersion = ObservationVersion2
	v2.Inputs = sig.Inputs[:5] // board, units, globals, action_mask, paths
	v1 := sig
	v1.ObservationVersion = ObservationVersion1
	v1.Inputs = sig.Inputs[:4] // board, units, globals, action_mask
	sig.Older = []policy.Signature{v2, v1}
	return sig
}

// attacksFirst is the priority of a command of policy.OrderAttacksFirst
// (Def.ActionOrders): 0 for an attack (Attacks), 1 for another move.
func attacksFirst(s *State, me, id int, d Dir) int {
	if Attacks(s, &s.Units[id], d) {
		return 0
	}
	return 1
}

// Attacks reports whether moving u in direction d attacks another player's
// unit: u is a Furyan and the cell one step away in d (columns wrapping,
// Up and Down changing the level) holds, at the start of the round, a
// Pioneer or a Furyan (a unit slot) of another player. The commands of
// policy.OrderAttacksFirst, in the policy bot, the exported C++ player and
// the trainer (python-client/examples/ppo.py), put these first.
func Attacks(s *State, u *Unit, d Dir) bool {
	if u.Type != Furyan || d == None || !d.Valid() {
		return false
	}
	t := u.Pos.Add(d)
	if !t.OnBoard() {
		return false
	}
	id := s.Cells[t.Index()].ID
	return id >= 0 && int(id) < NumSlots(s.Cfg) && s.Units[id].Player != u.Player
}
