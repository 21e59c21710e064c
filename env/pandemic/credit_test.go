package pandemic

import (
	"testing"

	"jgym/game/gametest"
)

// TestCredit checks the per-unit credit against the trainer's numpy credit
// on recorded games, and that it splits the score: without the capture
// reward, the units' credits and the remainder add up to the score change
// (within float32 rounding: a city's points are split in equal parts),
// the remainder being creditRemainder's.
func TestCredit(t *testing.T) {
	gametest.Credit(t, Def, gametest.CreditCase[*Game, State]{
		Fixture:   "../../testdata/credit/pandemic.json.gz",
		Pure:      map[string]float64{"capture": 0},
		Remainder: creditRemainder,
	})
}

// creditRemainder is what no unit of p's earned in the round g just
// played: the points of the cities and paths p owns after it with none of
// its units on them, and the round's connected-components bonus.
func creditRemainder(_ *State, g *Game, p int) int {
	s := &g.State
	cfg := s.Cfg
	manned := map[[2]int]bool{} // {0, city} or {1, path} with a unit of p's on it
	for _, u := range s.Units {
		if u.Player != p || !s.OnBoard(u.Pos) {
			continue
		}
		idx := s.Idx(u.Pos)
		if c := s.CityOf[idx]; c >= 0 {
			manned[[2]int{0, int(c)}] = true
		}
		if k := s.PathOf[idx]; k >= 0 {
			manned[[2]int{1, int(k)}] = true
		}
	}
	unmanned := 0
	for k, city := range s.Cities {
		if s.CityOwner[k] == p && !manned[[2]int{0, k}] {
			unmanned += cfg.BonusPerCityCell * len(city)
		}
	}
	for k, path := range s.Paths {
		if s.PathOwner[k] == p && !manned[[2]int{1, k}] {
			unmanned += cfg.BonusPerPathCell * len(path.Cells)
		}
	}
	bonus := 0
	for _, size := range s.Components(p, nil, nil) {
		bonus += ComponentPoints(cfg.FactorConnectedComponent, size)
	}
	return unmanned + bonus
}
