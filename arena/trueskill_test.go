package arena

import "testing"

// The expected ratings are the published results of the TrueSkill
// algorithm with the default settings (draw probability 10%, tau included),
// as given by the reference implementations' test suites.
func TestTrueSkill(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ranks []int
		want  []Skill
	}{
		{"1 vs 1 win", []int{1, 2}, []Skill{{29.396, 7.171}, {20.604, 7.171}}},
		{"1 vs 1 draw", []int{1, 1}, []Skill{{25.000, 6.457}, {25.000, 6.457}}},
		{"4-player free-for-all", []int{1, 2, 3, 4}, []Skill{{33.207, 6.348}, {27.401, 5.787}, {22.599, 5.787}, {16.793, 6.348}}},
		{"order of seats does not matter", []int{3, 1, 4, 2}, []Skill{{22.599, 5.787}, {33.207, 6.348}, {16.793, 6.348}, {27.401, 5.787}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.ranks)
			r := make([]Skill, n)
			seats := make([]int, n)
			for i := range r {
				r[i] = Skill{DefaultTrueSkill.Mu, DefaultTrueSkill.Sigma}
				seats[i] = i
			}
			DefaultTrueSkill.Rate(r, seats, tc.ranks)
			for i, w := range tc.want {
				if !near(r[i].Mu, w.Mu, 1e-3) || !near(r[i].Sigma, w.Sigma, 1e-3) {
					t.Errorf("player %d: %.3f ± %.3f, want %.3f ± %.3f", i, r[i].Mu, r[i].Sigma, w.Mu, w.Sigma)
				}
			}
		})
	}
}

func TestTrueSkillSharedSeats(t *testing.T) {
	// Players 0 and 1 hold two seats each and 0 beats 1 with both seats.
	// The winner goes up, the loser down, symmetrically, and both become
	// more certain than after a 1 vs 1 game (every seat counts as
	// evidence, see TrueSkill.Rate).
	one := []Skill{{25, 25.0 / 3}, {25, 25.0 / 3}}
	DefaultTrueSkill.Rate(one, []int{0, 1}, []int{1, 2})
	two := []Skill{{25, 25.0 / 3}, {25, 25.0 / 3}}
	DefaultTrueSkill.Rate(two, []int{0, 1, 0, 1}, []int{1, 3, 1, 3})
	if !(two[0].Mu > 25 && two[1].Mu < 25 && near(two[0].Mu-25, 25-two[1].Mu, 1e-9) &&
		near(two[0].Sigma, two[1].Sigma, 1e-9) && two[0].Sigma < one[0].Sigma) {
		t.Errorf("one seat each: %+v; two seats each: %+v", one, two)
	}
}
