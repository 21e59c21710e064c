package pandemic

import "jgym/env"

// Per-unit credit (game.Def.Credit): what each of a player's units earned
// in the round just played, read from the engine's state before the
// round, its state after it and the player's commands of the round
// (docs/training.md, "Per-unit credit").

// wCapture is the index of the capture weight in creditWeights.
const wCapture = 0

// creditWeights are the weights of Pandemic's per-unit credit, named and
// with the defaults of the trainer that introduced them.
var creditWeights = []env.Weight{
	{Name: "capture", Default: 5, Description: "a unit that attacked a unit of another player that is the player's after the round"},
}

// credit writes into dst (len U, every unit id, zeroed) what each unit of
// player p earned in the round g just played, before being the state at
// its start:
//
//   - each city and each path p owns after the round pays its points of
//     the round (its cells times the bonus per cell) to p's units standing
//     on it after the round, in equal parts;
//   - a unit of p's whose command of the round targets a cell where a unit
//     of another player stood at the start earns w[capture] when that
//     unit is p's after the round.
//
// The remainder, the part of p's score change no unit earned, is the
// points of the cities and paths p owns with none of its units on them
// (an owner keeps a city until another player holds the majority there)
// and the round's connected-components bonus.
func credit(before *State, g *Game, p int, w []float64, dst []float32) float32 {
	after := &g.State
	cfg := after.Cfg
	nc := len(after.Cities)
	// on[k] counts p's units on city k (k < nc) or path k-nc.
	on := make([]int, nc+len(after.Paths))
	region := func(u *Unit) int {
		idx := after.Idx(u.Pos)
		if c := after.CityOf[idx]; c >= 0 && after.CityOwner[c] == p {
			return int(c)
		}
		if k := after.PathOf[idx]; k >= 0 && after.PathOwner[k] == p {
			return nc + int(k)
		}
		return -1
	}
	points := func(k int) int {
		if k < nc {
			return cfg.BonusPerCityCell * len(after.Cities[k])
		}
		return cfg.BonusPerPathCell * len(after.Paths[k-nc].Cells)
	}
	for id := range dst {
		if u := &after.Units[id]; u.Player == p && after.OnBoard(u.Pos) {
			if k := region(u); k >= 0 {
				on[k]++
			}
		}
	}
	earned := 0
	for k, n := range on {
		if n > 0 {
			earned += points(k)
		}
	}
	for id := range dst {
		if u := &after.Units[id]; u.Player == p && after.OnBoard(u.Pos) {
			if k := region(u); k >= 0 {
				dst[id] = float32(float64(points(k)) / float64(on[k]))
			}
		}
	}
	for _, c := range g.valid {
		u := &before.Units[c.ID]
		if c.ID >= len(dst) || u.Player != p {
			continue
		}
		t := u.Pos.Add(c.Dir)
		if !before.OnBoard(t) {
			continue
		}
		if v := int(before.UnitAt[before.Idx(t)]); v >= 0 && v < len(dst) && before.Units[v].Player != p && after.Units[v].Player == p {
			dst[c.ID] = float32(float64(dst[c.ID]) + w[wCapture])
		}
	}
	return float32(after.Scores[p] - before.Scores[p] - earned)
}
