package dominator

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
		Fixture:   "../../testdata/credit/dominator.json.gz",
		Pure:      map[string]float64{"capture": 0},
		Remainder: creditRemainder,
	})
}

// creditRemainder is what no unit of p's earned in the round g just
// played: the cells of p's colour at the start that still are (a round
// scores all the land held after it), plus the cells p won that no farmer
// of p's stands on after moving there (it was captured later in the
// round, or a farmer reborn as p's painted it).
func creditRemainder(before *State, g *Game, p int) int {
	after := &g.State
	standing := map[Pos]bool{}
	for id := range before.Units {
		b, a := &before.Units[id], &after.Units[id]
		if b.Type == Farmer && b.Player == p && a.Player == p && before.onGrid(id) && after.onGrid(id) && a.Pos != b.Pos {
			standing[a.Pos] = true
		}
	}
	kept, won := 0, 0
	for idx := range after.Grid {
		was, is := int(before.Grid[idx].Owner) == p, int(after.Grid[idx].Owner) == p
		switch {
		case was && is:
			kept++
		case is && !standing[Pos{idx / after.Cols(), idx % after.Cols()}]:
			won++
		}
	}
	return kept + won
}
