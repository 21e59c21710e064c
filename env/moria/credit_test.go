package moria

import (
	"testing"

	"jgym/game/gametest"
)

// TestCredit checks the per-unit credit against the trainer's numpy credit
// on recorded games, and that it splits the score: without the capture
// reward, the units' credits and the remainder add up to the score change,
// the remainder being creditRemainder's.
func TestCredit(t *testing.T) {
	gametest.Credit(t, Def, gametest.CreditCase[*Game, State]{
		Fixture:   "../../testdata/credit/moria.json.gz",
		Pure:      map[string]float64{"capture": 0},
		Remainder: creditRemainder,
	})
}

// creditRemainder is what no unit of p's earned in the round g just
// played: the cells p won that no dwarf of p's stands on after moving
// onto a cell that was a Cave at the start of the round (the dwarf was
// killed later in the round, a dwarf reborn as p's took it, or the cave
// was a rock dug open in the round), minus the cells p lost, plus the
// treasures p won that no such dwarf stands on.
func creditRemainder(before *State, g *Game, p int) int {
	after := &g.State
	standing := map[Pos]bool{}
	for id := range before.Units {
		b, a := &before.Units[id], &after.Units[id]
		if b.Type == Dwarf && b.Player == p && a.Player == p && a.Pos != b.Pos && before.Cell(a.Pos).Type == Cave {
			standing[a.Pos] = true
		}
	}
	won, lost, treasures := 0, 0, 0
	for idx := range after.Cells {
		was, is := int(before.Cells[idx].Owner) == p, int(after.Cells[idx].Owner) == p
		switch {
		case is && !was && !standing[PosOf(idx)]:
			won++
		case was && !is:
			lost++
		}
	}
	for pos := range standing {
		if before.Cell(pos).Treasure {
			treasures++
		}
	}
	return won - lost + after.Cfg.TreasureValue*(after.NbTreasures[p]-before.NbTreasures[p]-treasures)
}
