package dominator

import "jgym/game"

// Indices of the per-player blocks of the globals tensor: entry at+r is
// the value of relative index r.
const (
	globLand    = 2  // land / non-wall cells
	globScores  = 6  // total score / its maximum
	globFarmers = 10 // farmers / U
	globKnights = 14 // knights / U
)

// OrderOpponentsByScore relabels the three opponents of one seat's encoded
// observation by decreasing score, in place: the transform of a policy
// whose metadata opponent_order is "score" (policy.OpponentsByScore,
// docs/observation.md). board (uint8 [6, rows, cols]), units (uint8
// [U, 8]) and globals (float32 [18], little-endian) are the encoder's
// tensors (a nil one is not touched); action_mask and move_mask hold no
// relative index and stay as they are, and so does the rotation of the
// view, which is the seat's.
//
// The scores are the float32 values globals[6+r], the total scores. The
// opponents, relative indices 1, 2 and 3, are ordered by decreasing
// score, ties by increasing index, and the one at position k of that
// order becomes relative index 1+k; the seat itself stays 0
// (game.ScoreOrder). The new labels replace the old ones in board plane 1
// (owner 1+r), plane 2 (unit 1+3r+type), column 1 of units (the rel
// owner) and the four per-player blocks of globals: land (2..5), total
// score (6..9), farmers (10..13) and knights (14..17). When the
// opponents' scores are in that order already, as when they tie, nothing
// changes. The exported C++ player does the same (CppTarget).
func OrderOpponentsByScore(board, units, globals []byte) {
	nr, identity := game.ScoreOrder(globals, globScores)
	if identity {
		return
	}
	cells := len(board) / BoardPlanes
	nr.Plane(board[PlaneOwner*cells:(PlaneOwner+1)*cells], 1)
	unit := board[PlaneUnit*cells : (PlaneUnit+1)*cells]
	for i, c := range unit {
		if c >= 1 && c <= 3*NumPlayers {
			unit[i] = 1 + 3*nr[(c-1)/3] + (c-1)%3
		}
	}
	nr.Column(units, UnitFeatures, 1, 0)
	for _, at := range [...]int{globLand, globScores, globFarmers, globKnights} {
		nr.Floats(globals, at)
	}
}

// orderOpponents is OrderOpponentsByScore on one seat's encoded tensors
// (Def.OpponentOrders).
func orderOpponents(obs [][]byte) { OrderOpponentsByScore(obs[0], obs[1], obs[2]) }
