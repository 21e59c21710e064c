package pandemic

import "jgym/game"

// Indices of the per-player blocks of the globals tensor: entry at+r is
// the value of relative index r.
const (
	globScores = 3  // ln(1 + score) / 16
	globCities = 7  // cities owned / cities
	globPaths  = 11 // paths owned / paths
	globUnits  = 15 // units / all units
	globIncome = 19 // ln(1 + income) / 16
)

// OrderOpponentsByScore relabels the three opponents of one seat's encoded
// observation by decreasing score, in place: the transform of a policy
// whose metadata opponent_order is "score" (policy.OpponentsByScore,
// docs/observation.md). board (uint8 [6, rows, cols]), units (uint8
// [U, 13]) and globals (float32 [24], little-endian) are the encoder's
// tensors (a nil one is not touched); action_mask holds no relative
// index and stays as it is.
//
// The scores are the float32 values globals[3+r] (ln(1 + score) / 16,
// increasing with the score). The opponents, relative indices 1, 2 and
// 3, are ordered by decreasing score, ties by increasing index, and the
// one at position k of that order becomes relative index 1+k; the seat
// itself stays 0 (game.ScoreOrder). The new labels replace the old ones
// in board planes 2 (unit 1+r) and 4 (conquest 1+r), columns 1 (the rel
// owner) and 11 (conquest 1+r) of units, and the five per-player blocks
// of globals: scores (3..6), cities (7..10), paths (11..14), units
// (15..18) and income (19..22). When the opponents' scores are in that
// order already, as when they tie, nothing changes. The exported C++
// player does the same (CppTarget).
func OrderOpponentsByScore(board, units, globals []byte) {
	nr, identity := game.ScoreOrder(globals, globScores)
	if identity {
		return
	}
	cells := len(board) / BoardPlanes
	nr.Plane(board[PlaneUnit*cells:(PlaneUnit+1)*cells], 1)
	nr.Plane(board[PlaneConquest*cells:(PlaneConquest+1)*cells], 1)
	nr.Column(units, UnitFeatures, UnitOwner, 0)
	nr.Column(units, UnitFeatures, UnitConquest, 1)
	for _, at := range [...]int{globScores, globCities, globPaths, globUnits, globIncome} {
		nr.Floats(globals, at)
	}
}

// orderOpponents is OrderOpponentsByScore on one seat's encoded tensors
// (Def.OpponentOrders).
func orderOpponents(obs [][]byte) { OrderOpponentsByScore(obs[0], obs[1], obs[2]) }
