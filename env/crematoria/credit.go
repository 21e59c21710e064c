package crematoria

import "jgym/env"

// Per-unit credit (game.Def.Credit): what each of a player's Pioneers and
// Furyans earned in the round just played, read from the engine's state
// before the round, its state after it and the player's commands of the
// round (docs/training.md, "Per-unit credit").

// The weights of the credit, in the order of creditWeights.
const (
	wGemValue = iota
	wCapture
	wSteal
	wLoss
)

// creditWeights are the weights of Crematoria's per-unit credit, named
// and with the defaults of the trainer that introduced them.
var creditWeights = []env.Weight{
	{Name: "gem_value", Default: 30, Description: "a Pioneer that steps onto a gem (a cave cell it conquers earns 1)"},
	{Name: "capture", Default: 5, Description: "a Furyan that attacked a unit of another group that is the player's after the round"},
	{Name: "steal", Default: 0, Description: "extra for a cave a Pioneer takes from another group"},
	{Name: "loss", Default: 0, Description: "penalty (subtracted) of a unit of the player's that another group gets: it died"},
}

// credit writes into dst (len U, the Pioneer and Furyan slots, zeroed)
// what each unit of player p earned in the round g just played, before
// being the state at its start:
//
//   - a Pioneer that is p's before and after the round and moved onto a
//     level-0 Cave p did not own at the start of the round earns 1 (the
//     cell), plus w[steal] when another group owned it; onto a level-1
//     cell that held a gem at the start, w[gem_value];
//   - a unit of p's that another group holds after the round (it died:
//     its killer's group, or one drawn at random) loses w[loss];
//   - a Furyan of p's whose command of the round targets a cell where a
//     Pioneer or Furyan of another group stood at the start earns
//     w[capture] when that unit is p's after the round.
//
// It returns the part of p's score change that no unit earned (the cells
// and gems above counted at their score value): cells p lost to others,
// cells p won without a surviving Pioneer standing on them (its Pioneer
// died later in the round, or a unit reborn as p's landed there), gems of
// Pioneers that died in the round.
func credit(before *State, g *Game, p int, w []float64, dst []float32) float32 {
	after := &g.State
	earned := 0
	for id := range dst {
		b, a := &before.Units[id], &after.Units[id]
		if b.Player != p {
			continue
		}
		var r float64
		if a.Player == p && b.Type == Pioneer && a.Pos != b.Pos {
			c := before.Cell(a.Pos)
			switch {
			case a.Pos.K == 0 && c.Type == Cave && int(c.Owner) != p:
				r, earned = 1, earned+1
				if c.Owner >= 0 {
					r += w[wSteal]
				}
			case a.Pos.K == 1 && c.Gem:
				r, earned = w[wGemValue], earned+after.Cfg.GemValue
			}
		}
		v := float32(r)
		if a.Player != p {
			v = float32(float64(v) - w[wLoss])
		}
		dst[id] = v
	}
	for _, c := range g.queues[p] {
		u := &before.Units[c.ID]
		if c.ID >= len(dst) || u.Type != Furyan {
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
