package moria

import "jgym/env"

// Per-unit credit (game.Def.Credit): what each of a clan's dwarves earned
// in the round just played, read from the engine's state before the
// round, its state after it and the clan's commands of the round
// (docs/training.md, "Per-unit credit").

// wCapture is the index of the capture weight in creditWeights.
const wCapture = 0

// creditWeights are the weights of Moria's per-unit credit, named and
// with the defaults of the trainer that introduced them.
var creditWeights = []env.Weight{
	{Name: "capture", Default: 5, Description: "a dwarf that attacked a dwarf or wizard of another clan that is the clan's after the round"},
}

// credit writes into dst (len U, the dwarf and wizard slots, zeroed) what
// each unit of clan p earned in the round g just played, before being the
// state at its start:
//
//   - a dwarf that is p's before and after the round and moved onto a
//     cell that was a Cave at the start earns 1 when p did not own it then
//     (the cell), plus the treasure value when it held a treasure;
//   - a dwarf of p's whose command of the round targets a cell where a
//     dwarf or wizard of another clan stood at the start earns w[capture]
//     when that unit is p's after the round.
//
// Wizards earn nothing. The remainder, the part of p's score change no
// unit earned, is the cells p lost (to other clans' dwarves, orcs and
// trolls) plus what p won otherwise than by a dwarf still standing on the
// cell: a dwarf killed later in the round, a dwarf reborn as p's, a cave
// dug open in the round and conquered in it.
func credit(before *State, g *Game, p int, w []float64, dst []float32) float32 {
	after := &g.State
	value := after.Cfg.TreasureValue
	earned := 0
	for id := range dst {
		b, a := &before.Units[id], &after.Units[id]
		if b.Type != Dwarf || b.Player != p || a.Player != p || a.Pos == b.Pos {
			continue
		}
		c := before.Cell(a.Pos)
		if c.Type != Cave {
			continue
		}
		var r float32
		if int(c.Owner) != p {
			r, earned = 1, earned+1
		}
		if c.Treasure {
			r, earned = r+float32(value), earned+value
		}
		dst[id] = r
	}
	for _, c := range g.round.queues[p] {
		u := &before.Units[c.ID]
		if c.ID >= len(dst) || u.Type != Dwarf {
			continue
		}
		t := u.Pos.Add(c.Dir)
		if !t.OnBoard() {
			continue
		}
		if v := int(before.Cell(t).ID); v >= 0 && v < len(dst) && before.Units[v].Player != p && after.Units[v].Player == p {
			dst[c.ID] = float32(float64(dst[c.ID]) + w[wCapture])
		}
	}
	return float32(after.Score(p) - before.Score(p) - earned)
}
