package moria

import "jgym/game"

// Indices of the per-clan blocks of the globals tensor: entry at+r is the
// value of relative index r.
const (
	globScores    = 2  // score / 1000
	globCells     = 6  // nb_cells / 1000
	globTreasures = 10 // nb_treasures / 80
	globUnits     = 14 // dwarves and wizards / (nb_dwarves + nb_wizards)
)

// OrderOpponentsByScore relabels the three opponents of one seat's encoded
// observation by decreasing score, in place: the transform of a policy
// whose metadata opponent_order is "score" (policy.OpponentsByScore,
// docs/observation.md). board (uint8 [7, 60, 60]), units (uint8 [U, 10])
// and globals (float32 [24], little-endian) are the encoder's tensors
// (a nil one is not touched); action_mask holds no relative index and
// stays as it is.
//
// The scores are the float32 values globals[2+r]. The opponents, relative
// indices 1, 2 and 3, are ordered by decreasing score, ties by increasing
// index, and the one at position k of that order becomes relative index
// 1+k; the clan itself stays 0 (game.ScoreOrder). The new labels replace
// the old ones in board plane 1 (owner 1+r), the dwarves and wizards of
// plane 4 (unit codes 1+r and 5+r), column 1 of units (the rel owner) and
// the four per-clan blocks of globals: scores (2..5), cells (6..9),
// treasures (10..13) and units (14..17). When the opponents' scores are
// in that order already, as when they tie, nothing changes. The exported
// C++ player does the same (CppTarget).
func OrderOpponentsByScore(board, units, globals []byte) {
	nr, identity := game.ScoreOrder(globals, globScores)
	if identity {
		return
	}
	if len(board) >= BoardBytes {
		nr.Plane(board[planeOwner*NumCells:(planeOwner+1)*NumCells], 1)
		unit := board[planeUnit*NumCells : (planeUnit+1)*NumCells]
		for i, c := range unit {
			unit[i] = nr.Code(nr.Code(c, unitCodeDwarf), unitCodeWizard)
		}
	}
	nr.Column(units, UnitFeatures, 1, 0)
	for _, at := range [...]int{globScores, globCells, globTreasures, globUnits} {
		nr.Floats(globals, at)
	}
}

// orderOpponents is OrderOpponentsByScore on one seat's encoded tensors
// (Def.OpponentOrders).
func orderOpponents(obs [][]byte) { OrderOpponentsByScore(obs[0], obs[1], obs[2]) }

// attacksFirst is the priority of a command of policy.OrderAttacksFirst
// (Def.ActionOrders): 0 for an attack (Attacks), 1 for another move.
func attacksFirst(s *State, me, id int, d Dir) int {
	if Attacks(s, &s.Units[id], d) {
		return 0
	}
	return 1
}

// Attacks reports whether moving u in direction d attacks another clan's
// dwarf or wizard: u is a dwarf and the cell one step away in d holds, at
// the start of the round, a dwarf or wizard (a unit slot) of another
// clan. The commands of policy.OrderAttacksFirst, in the policy bot, the
// env and the exported C++ player, put these first: each clan's commands
// run in the order given, interleaved with the others' by a draw per
// command (SPEC §8.3), and an attack executed early meets its target
// before it moves away and before the attacker can be killed. Attacks on
// orcs and trolls are not among them: Sauron's units move only after
// every clan command of the round.
func Attacks(s *State, u *Unit, d Dir) bool {
	if u.Type != Dwarf || d == None || !d.Valid() {
		return false
	}
	t := u.Pos.Add(d)
	if !t.OnBoard() {
		return false
	}
	id := int(s.Cells[t.Index()].ID)
	return id >= 0 && id < NumSlots(s.Cfg) && s.Units[id].Player != u.Player
}
