package dominator

import "jgym/env"

// Per-unit credit (game.Def.Credit): what each of a player's units earned
// in the round just played, read from the engine's state before the
// round, its state after it and the player's commands of the round
// (docs/training.md, "Per-unit credit").

// wCapture is the index of the capture weight in creditWeights.
const wCapture = 0

// creditWeights are the weights of Dominator's per-unit credit, named and
// with the defaults of the trainer that introduced them.
var creditWeights = []env.Weight{
	{Name: "capture", Default: 5, Description: "a knight that attacked a unit of another player that is the player's after the round"},
}

// credit writes into dst (len U, every unit id, zeroed) what each unit of
// player p earned in the round g just played, before being the state at
// its start:
//
//   - a farmer that is p's, on the board, before and after the round and
//     moved onto a cell that was not p's colour at the start earns 1 (the
//     cell it painted);
//   - a knight of p's on the board whose command of the round targets a
//     cell where a unit of another player stood at the start earns
//     w[capture] when that unit is p's after the round.
//
// Witches earn nothing. A round adds the land held after it to the score,
// so the remainder, the part of p's score change no unit earned, is the
// land p held at the start and kept (every cell of p's colour scores
// again each round), plus the cells p painted otherwise than by a farmer
// still standing on them (a farmer captured later in the round, a farmer
// reborn as p's).
func credit(before *State, g *Game, p int, w []float64, dst []float32) float32 {
	after := &g.State
	earned := 0
	for id := range dst {
		b, a := &before.Units[id], &after.Units[id]
		if b.Type != Farmer || b.Player != p || a.Player != p || !before.onGrid(id) || !after.onGrid(id) || a.Pos == b.Pos {
			continue
		}
		if int(before.Cell(a.Pos).Owner) != p {
			dst[id], earned = 1, earned+1
		}
	}
	for _, c := range g.valid {
		u := &before.Units[c.ID]
		if c.ID >= len(dst) || u.Player != p || u.Type != Knight || !before.onGrid(c.ID) {
			continue
		}
		t := u.Pos.Add(c.Dir)
		if !before.OnBoard(t) {
			continue
		}
		if v := int(before.Grid[before.Index(t)].ID); v >= 0 && v < len(dst) && before.onGrid(v) &&
			before.Units[v].Player != p && after.Units[v].Player == p {
			dst[c.ID] = float32(float64(dst[c.ID]) + w[wCapture])
		}
	}
	return float32(after.Score(p) - before.Score(p) - earned)
}
