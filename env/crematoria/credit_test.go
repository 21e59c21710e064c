package crematoria

import (
	"testing"

	"jgym/game/gametest"
)

// TestCredit checks the per-unit credit against the trainer's numpy credit
// on recorded games, and that it splits the score: with the gem at its
// score value and no shaping, the units' credits and the remainder add up
// to the score change, the remainder being creditRemainder's.
func TestCredit(t *testing.T) {
	gametest.Credit(t, Def, gametest.CreditCase[*Game, State]{
		Fixture:   "../../testdata/credit/crematoria.json.gz",
		Pure:      map[string]float64{"gem_value": float64(DefaultConfig().GemValue), "capture": 0, "steal": 0, "loss": 0},
		Remainder: creditRemainder,
	})
}

// creditRemainder is what no unit of p's earned in the round g just
// played: the caves p won that no Pioneer of p's stands on after moving
// there (it died later in the round, or a Pioneer reborn as p's landed
// there), minus the caves p lost, plus the gems p won that no such
// Pioneer stands on (it picked one and died in the round).
func creditRemainder(before *State, g *Game, p int) int {
	after := &g.State
	standing := map[Pos]bool{}
	for id := range before.Units {
		b, a := &before.Units[id], &after.Units[id]
		if b.Type == Pioneer && b.Player == p && a.Player == p && a.Pos != b.Pos {
			standing[a.Pos] = true
		}
	}
	won, lost, gems := 0, 0, 0
	for idx := range LevelCells {
		was, is := int(before.Cells[idx].Owner) == p, int(after.Cells[idx].Owner) == p
		switch {
		case is && !was && !standing[PosOf(idx)]:
			won++
		case was && !is:
			lost++
		}
	}
	for pos := range standing {
		if pos.K == 1 && before.Cell(pos).Gem {
			gems++
		}
	}
	return won - lost + after.Cfg.GemValue*(after.NbGems[p]-before.NbGems[p]-gems)
}
