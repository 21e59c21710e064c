package arena

import "sort"

// TournamentSchedule is the schedule of a tournament of k players: n
// games from seed seed0. With k <= 4 players, game i seats player
// (i+s) mod k in seat s, so every player sits in every seat equally often
// over k games (with fewer than 4 players, some sit twice at a table).
// With k > 4, the games go through the 4-player subsets in lexicographic
// order, one per game, and each pass over the subsets rotates the seats by
// one.
func TournamentSchedule(k, n, seed0 int) []Seating {
	games := make([]Seating, n)
	var combos [][Seats]int
	if k > Seats {
		for a := 0; a < k; a++ {
			for b := a + 1; b < k; b++ {
				for c := b + 1; c < k; c++ {
					for d := c + 1; d < k; d++ {
						combos = append(combos, [Seats]int{a, b, c, d})
					}
				}
			}
		}
	}
	for i := range games {
		g := Seating{Seed: seed0 + i}
		for s := range g.Seats {
			if combos == nil {
				g.Seats[s] = (i + s) % k
			} else {
				rot := i / len(combos)
				g.Seats[s] = combos[i%len(combos)][(s+rot)%Seats]
			}
		}
		games[i] = g
	}
	return games
}

// Standing is one player's line of a tournament's table.
type Standing struct {
	Name      string   `json:"name"`
	Mu        float64  `json:"mu"`
	Sigma     float64  `json:"sigma"`
	CI95      float64  `json:"ci95"` // 1.96 sigma
	Games     int      `json:"games"`
	Seats     int      `json:"seats"`
	Wins      int      `json:"wins"` // seats with the only top score
	WinRate   Interval `json:"win_rate"`
	MeanScore Interval `json:"mean_score"`
}

// TournamentReport is what a tournament measures (jgym tournament; also
// its --json output).
type TournamentReport struct {
	Config   string          `json:"config"`
	Seed0    int             `json:"seed0"`
	Games    int             `json:"games"`
	TS       TrueSkill       `json:"trueskill"`
	Bots     []Standing      `json:"bots"` // best first
	Workers  int             `json:"workers"`
	Seconds  float64         `json:"elapsed_seconds"`
	Schedule [][Seats]string `json:"seats"`
	Scores   [][Seats]int    `json:"scores"`
}

// RateTournament rates the players from the results, in game order (so
// the ratings do not depend on the order the games were played in), and
// returns their standings, best rating first. A game is a free-for-all
// ranked by score, equal scores a draw.
func RateTournament(names []string, results []Result, p TrueSkill) []Standing {
	r := make([]Skill, len(names))
	for i := range r {
		r[i] = Skill{p.Mu, p.Sigma}
	}
	bots := make([]Standing, len(names))
	scores := make([][]float64, len(names))
	for _, res := range results {
		var ranks [Seats]int
		seen := map[int]bool{}
		for s, b := range res.Seats {
			ranks[s] = Rank(res.Scores[:], s)
			scores[b] = append(scores[b], float64(res.Scores[s]))
			bots[b].Seats++
			if Outcome(res.Scores[:], s) == Win {
				bots[b].Wins++
			}
			if !seen[b] {
				seen[b] = true
				bots[b].Games++
			}
		}
		p.Rate(r, res.Seats[:], ranks[:])
	}
	for i := range bots {
		bots[i].Name = names[i]
		bots[i].Mu, bots[i].Sigma, bots[i].CI95 = r[i].Mu, r[i].Sigma, Z95*r[i].Sigma
		bots[i].WinRate = Wilson(bots[i].Wins, bots[i].Seats, Z95)
		bots[i].MeanScore = MeanInterval(scores[i])
	}
	sort.SliceStable(bots, func(a, b int) bool { return bots[a].Mu > bots[b].Mu })
	return bots
}
