package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"jgym/env/crematoria"
)

func init() {
	register(&command{
		name:  "eval",
		usage: "BOT [--opponents Demo,Demo,Demo] [-n 200] [--seed0 1] [-i CONFIG] [-j WORKERS] [--json] [--trace-dir DIR]",
		short: "measure a bot against fixed opponents: win rate, score and rank with 95% confidence intervals",
		run:   runEval,
	})
}

// evalReport is what jgym eval measures; it is also its --json output.
//
// Game i uses seed seed0+i and puts BOT in seat i mod 4; the opponents
// fill the other seats in the order given. A win is a game where BOT's score
// is the only top score; a tie, one where BOT shares the top score. The rank
// of BOT is one plus the number of seats that scored more than it, so tied
// seats share the best rank (competition ranking: 1, 1, 3, 4). Proportions
// have Wilson score intervals; means have Student-t intervals.
type evalReport struct {
	Bot        string         `json:"bot"`
	Opponents  []string       `json:"opponents"`
	Config     string         `json:"config"`
	Seed0      int            `json:"seed0"`
	Games      int            `json:"games"`
	Wins       int            `json:"wins"`
	Ties       int            `json:"ties"`
	Losses     int            `json:"losses"`
	WinRate    interval       `json:"win_rate"`
	TieRate    interval       `json:"tie_rate"`
	MeanScore  interval       `json:"mean_score"`
	MeanRank   interval       `json:"mean_rank"`
	MeanMargin interval       `json:"mean_margin"` // BOT's score minus the best opponent's
	OppScore   []interval     `json:"opponent_mean_score"`
	PerSeat    []evalSeat     `json:"per_seat"`
	Workers    int            `json:"workers"`
	Seconds    float64        `json:"elapsed_seconds"`
	Results    []evalGameJSON `json:"results"`
}

// evalSeat is BOT's record in one seat.
type evalSeat struct {
	Seat    int      `json:"seat"`
	Games   int      `json:"games"`
	Wins    int      `json:"wins"`
	WinRate interval `json:"win_rate"`
}

// evalGameJSON is one game in the --json output.
type evalGameJSON struct {
	Game    int                        `json:"game"`
	Seed    int                        `json:"seed"`
	Seat    int                        `json:"seat"`
	Scores  [crematoria.NumPlayers]int `json:"scores"`
	Rank    int                        `json:"rank"`
	Outcome string                     `json:"outcome"` // win, tie or loss
}

// evalGames is the schedule of jgym eval: bot 0 is BOT, bots 1..3 the
// opponents in order.
func evalGames(n, seed0 int) []arenaGame {
	games := make([]arenaGame, n)
	for i := range games {
		seat := i % crematoria.NumPlayers
		g := arenaGame{Seed: seed0 + i}
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

// summarizeEval computes the report of results played by evalGames.
func summarizeEval(results []arenaResult, rep *evalReport) {
	n := len(results)
	rep.Games = n
	scores := make([]float64, n)
	ranks := make([]float64, n)
	margins := make([]float64, n)
	opp := make([][]float64, crematoria.NumPlayers-1)
	seatGames := make([]int, crematoria.NumPlayers)
	seatWins := make([]int, crematoria.NumPlayers)
	rep.Results = make([]evalGameJSON, n)
	for i, r := range results {
		seat := i % crematoria.NumPlayers
		best := -1
		for p, s := range r.Scores {
			if p != seat {
				best = max(best, s)
				k := r.Seats[p] - 1
				opp[k] = append(opp[k], float64(s))
			}
		}
		scores[i] = float64(r.Scores[seat])
		ranks[i] = float64(rankOf(r.Scores, seat))
		margins[i] = float64(r.Scores[seat] - best)
		seatGames[seat]++
		out := "loss"
		switch outcome(r.Scores, seat) {
		case 1:
			rep.Wins++
			seatWins[seat]++
			out = "win"
		case 0:
			rep.Ties++
			out = "tie"
		default:
			rep.Losses++
		}
		rep.Results[i] = evalGameJSON{Game: i, Seed: r.Seed, Seat: seat, Scores: r.Scores, Rank: int(ranks[i]), Outcome: out}
	}
	rep.WinRate = wilson(rep.Wins, n, z95)
	rep.TieRate = wilson(rep.Ties, n, z95)
	rep.MeanScore = meanInterval(scores)
	rep.MeanRank = meanInterval(ranks).within(1, crematoria.NumPlayers) // ranks are 1..4
	rep.MeanMargin = meanInterval(margins)
	rep.OppScore = make([]interval, len(opp))
	for k, xs := range opp {
		rep.OppScore[k] = meanInterval(xs)
	}
	rep.PerSeat = make([]evalSeat, crematoria.NumPlayers)
	for p := range rep.PerSeat {
		rep.PerSeat[p] = evalSeat{Seat: p, Games: seatGames[p], Wins: seatWins[p], WinRate: wilson(seatWins[p], seatGames[p], z95)}
	}
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["eval"]
	fs := newFlagSet(c, stderr)
	oppList := fs.String("opponents", "Demo,Demo,Demo", "the three opponents, comma separated (one name fills all three seats)")
	n := fs.Int("n", 200, "games to play")
	seed0 := fs.Int("seed0", 1, "seed of the first game; game i uses seed0+i")
	cfgPath := fs.String("i", "", "configuration file (default: the embedded default)")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "games played in parallel; the results do not depend on it")
	asJSON := fs.Bool("json", false, "print the report as JSON, with every game's scores")
	traceDir := fs.String("trace-dir", "", "write each game's .res trace into this directory")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("want one bot to evaluate, got %d", len(pos))
	}
	opps := strings.Split(*oppList, ",")
	if len(opps) == 1 {
		opps = []string{opps[0], opps[0], opps[0]}
	}
	if len(opps) != crematoria.NumPlayers-1 {
		return usageErr("--opponents needs 1 or 3 names, got %d", len(opps))
	}
	if *n < 1 || *workers < 1 {
		return usageErr("-n and -j must be at least 1")
	}
	if *seed0 < 0 || *seed0+*n-1 > 1<<31-1 {
		return usageErr("seeds %d..%d out of range 0..2147483647", *seed0, *seed0+*n-1)
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	ar, err := newArena(cfg, append([]string{pos[0]}, opps...), *workers)
	if err != nil {
		return err
	}
	defer ar.Close()
	ar.traceDir = *traceDir
	ar.progress = stderr
	start := time.Now()
	results, err := ar.play(ctx, evalGames(*n, *seed0))
	if err != nil {
		return err
	}
	rep := evalReport{Bot: pos[0], Opponents: opps, Config: "default", Seed0: *seed0, Workers: *workers}
	if *cfgPath != "" {
		rep.Config = *cfgPath
	}
	summarizeEval(results, &rep)
	rep.Seconds = time.Since(start).Seconds()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(&rep)
	}
	printEval(stdout, &rep)
	return nil
}

// printEval prints the report as text.
func printEval(w io.Writer, r *evalReport) {
	pct := func(x interval) string {
		return fmt.Sprintf("%6.1f%%   95%% CI [%.1f%%, %.1f%%]", 100*x.Value, 100*x.Lo, 100*x.Hi)
	}
	num := func(x interval, prec int) string {
		return fmt.Sprintf("%7.*f   95%% CI [%.*f, %.*f]", prec, x.Value, prec, x.Lo, prec, x.Hi)
	}
	fmt.Fprintf(w, "%s vs %s: %d games, seeds %d..%d, %s rotating seats, config %s\n",
		r.Bot, strings.Join(r.Opponents, ", "), r.Games, r.Seed0, r.Seed0+r.Games-1, r.Bot, r.Config)
	fmt.Fprintf(w, "  win rate    %s   %d wins, %d ties, %d losses\n", pct(r.WinRate), r.Wins, r.Ties, r.Losses)
	fmt.Fprintf(w, "  tie rate    %s\n", pct(r.TieRate))
	fmt.Fprintf(w, "  mean score  %s\n", num(r.MeanScore, 1))
	fmt.Fprintf(w, "  mean rank   %s   (1..4, tied seats share the best rank)\n", num(r.MeanRank, 3))
	fmt.Fprintf(w, "  mean margin %s   (score minus the best opponent's)\n", num(r.MeanMargin, 1))
	fmt.Fprint(w, "  opponents  ")
	for k, o := range r.Opponents {
		fmt.Fprintf(w, " %s %.1f [%.1f, %.1f];", o, r.OppScore[k].Value, r.OppScore[k].Lo, r.OppScore[k].Hi)
	}
	fmt.Fprintln(w, "  (mean score)")
	fmt.Fprint(w, "  per seat   ")
	for _, s := range r.PerSeat {
		fmt.Fprintf(w, " %d: %d/%d %.1f%% [%.1f%%, %.1f%%];", s.Seat, s.Wins, s.Games, 100*s.WinRate.Value, 100*s.WinRate.Lo, 100*s.WinRate.Hi)
	}
	fmt.Fprintln(w, "  (wins)")
	per := 0.0
	if r.Games > 0 {
		per = 1000 * r.Seconds / float64(r.Games)
	}
	fmt.Fprintf(w, "  time        %.2fs wall, %.1f ms per game, %d workers\n", r.Seconds, per, r.Workers)
}
