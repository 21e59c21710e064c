package arena

import "strconv"

// EvalReport is what an evaluation of one player against fixed opponents
// measures (jgym eval; also its --json output).
//
// Game i uses seed seed0+i and puts the player in seat i mod 4; the
// opponents fill the other seats in the order given (EvalSchedule). A win
// is a game where the player's score is the only top score; a tie, one
// where it shares the top score. The rank of the player is one plus the
// number of seats that scored more than it, so tied seats share the best
// rank (competition ranking: 1, 1, 3, 4). Proportions have Wilson score
// intervals and the mean rank (1..4) a Student-t interval. Scores and
// margins can be heavy-tailed (Pandemic's grow exponentially), so their
// means have percentile bootstrap intervals (BootstrapMeanInterval) and
// their medians distribution-free order-statistic intervals
// (MedianInterval); Intervals says so in the report.
type EvalReport struct {
	Bot          string     `json:"bot"`
	Opponents    []string   `json:"opponents"`
	Config       string     `json:"config"`
	Seed0        int        `json:"seed0"`
	Games        int        `json:"games"`
	Wins         int        `json:"wins"`
	Ties         int        `json:"ties"`
	Losses       int        `json:"losses"`
	WinRate      Interval   `json:"win_rate"`
	TieRate      Interval   `json:"tie_rate"`
	MeanScore    Interval   `json:"mean_score"`
	MedianScore  Interval   `json:"median_score"`
	MeanRank     Interval   `json:"mean_rank"`
	MeanMargin   Interval   `json:"mean_margin"` // the player's score minus the best opponent's
	MedianMargin Interval   `json:"median_margin"`
	OppScore     []Interval `json:"opponent_mean_score"`
	// Intervals names the methods of the 95% intervals (EvalIntervals).
	Intervals string     `json:"intervals"`
	PerSeat   []EvalSeat `json:"per_seat"`
	Workers   int        `json:"workers"`
	Seconds   float64    `json:"elapsed_seconds"`
	// Resumed counts the games read from a journal (jgym eval --journal),
	// not played by this run: Seconds is the others'.
	Resumed int        `json:"resumed,omitempty"`
	Results []EvalGame `json:"results"`
}

// EvalIntervals describes the intervals of an EvalReport.
var EvalIntervals = "95% intervals: rates Wilson score; mean rank Student t; " +
	"mean score and margin percentile bootstrap (" + strconv.Itoa(BootstrapResamples) + " resamples); " +
	"median score and margin order statistics (distribution-free)"

// EvalSeat is the player's record in one seat.
type EvalSeat struct {
	Seat    int      `json:"seat"`
	Games   int      `json:"games"`
	Wins    int      `json:"wins"`
	WinRate Interval `json:"win_rate"`
}

// EvalGame is one game of an evaluation.
type EvalGame struct {
	Game    int        `json:"game"`
	Seed    int        `json:"seed"`
	Seat    int        `json:"seat"` // the player's
	Scores  [Seats]int `json:"scores"`
	Rank    int        `json:"rank"`
	Outcome string     `json:"outcome"` // win, tie or loss
}

// EvalSchedule is the schedule of an evaluation: n games from seed seed0,
// player 0 (the one evaluated) in seat i mod 4 of game i, players 1..3
// (the opponents) in the other seats in order.
func EvalSchedule(n, seed0 int) []Seating {
	games := make([]Seating, n)
	for i := range games {
		seat := i % Seats
		g := Seating{Seed: seed0 + i}
		k := 1
		for p := range g.Seats {
			if p == seat {
				g.Seats[p] = 0
			} else {
				g.Seats[p] = k
				k++
			}
		}
		games[i] = g
	}
	return games
}

// Summarize fills the statistics of the report from the results of games
// played by EvalSchedule.
func (r *EvalReport) Summarize(results []Result) {
	n := len(results)
	r.Games, r.Wins, r.Ties, r.Losses = n, 0, 0, 0
	scores := make([]float64, n)
	ranks := make([]float64, n)
	margins := make([]float64, n)
	opp := make([][]float64, Seats-1)
	seatGames := make([]int, Seats)
	seatWins := make([]int, Seats)
	r.Results = make([]EvalGame, n)
	for i, res := range results {
		seat := i % Seats
		best := -1
		for p, s := range res.Scores {
			if p != seat {
				best = max(best, s)
				k := res.Seats[p] - 1
				opp[k] = append(opp[k], float64(s))
			}
		}
		scores[i] = float64(res.Scores[seat])
		ranks[i] = float64(Rank(res.Scores[:], seat))
		margins[i] = float64(res.Scores[seat] - best)
		seatGames[seat]++
		out := "loss"
		switch Outcome(res.Scores[:], seat) {
		case Win:
			r.Wins++
			seatWins[seat]++
			out = "win"
		case Tie:
			r.Ties++
			out = "tie"
		default:
			r.Losses++
		}
		r.Results[i] = EvalGame{Game: i, Seed: res.Seed, Seat: seat, Scores: res.Scores, Rank: int(ranks[i]), Outcome: out}
	}
	r.WinRate = Wilson(r.Wins, n, Z95)
	r.TieRate = Wilson(r.Ties, n, Z95)
	r.MeanScore = BootstrapMeanInterval(scores, BootstrapResamples)
	r.MedianScore = MedianInterval(scores)
	r.MeanRank = MeanInterval(ranks).Within(1, Seats) // ranks are 1..4
	r.MeanMargin = BootstrapMeanInterval(margins, BootstrapResamples)
	r.MedianMargin = MedianInterval(margins)
	r.OppScore = make([]Interval, len(opp))
	for k, xs := range opp {
		r.OppScore[k] = BootstrapMeanInterval(xs, BootstrapResamples)
	}
	r.Intervals = EvalIntervals
	r.PerSeat = make([]EvalSeat, Seats)
	for p := range r.PerSeat {
		r.PerSeat[p] = EvalSeat{Seat: p, Games: seatGames[p], Wins: seatWins[p], WinRate: Wilson(seatWins[p], seatGames[p], Z95)}
	}
}
