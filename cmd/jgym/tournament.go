package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"jgym/arena"
)

func init() {
	register(&command{
		name:  "tournament",
		usage: "[--game NAME] BOT1 BOT2 ... [-n GAMES] [--seed0 1] [-i CONFIG] [-j WORKERS] [--json] [--plot out.svg]",
		short: "rate bots by TrueSkill over games of 4 drawn from the pool",
		run:   runTournament,
	})
}

func runTournament(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["tournament"]
	fs := newFlagSet(c, stderr)
	gameName := gameFlag(fs)
	n := fs.Int("n", 200, "games to play")
	seed0 := fs.Int("seed0", 1, "seed of the first game; game i uses seed0+i")
	cfgPath := fs.String("i", "", "configuration file (default: the game's embedded default)")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "games played in parallel; the results do not depend on it")
	asJSON := fs.Bool("json", false, "print the report as JSON, with every game's seats and scores")
	plot := fs.String("plot", "", "write an SVG plot of the ratings with 95% error bars to this file")
	names, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	g, err := findGame(*gameName)
	if err != nil {
		return err
	}
	if len(names) < 2 {
		return usageErr("want at least 2 bots, got %d", len(names))
	}
	if *n < 1 || *workers < 1 {
		return usageErr("-n and -j must be at least 1")
	}
	if *seed0 < 0 || *seed0+*n-1 > 1<<31-1 {
		return usageErr("seeds %d..%d out of range 0..2147483647", *seed0, *seed0+*n-1)
	}
	cfg, err := loadGameConfig(g, *cfgPath)
	if err != nil {
		return err
	}
	b, err := arena.NewBatch(g, cfg, names, cliLoader)
	if err != nil {
		return err
	}
	defer b.Close()
	b.Workers, b.Progress = *workers, stderr
	start := time.Now()
	results, err := b.Play(ctx, arena.TournamentSchedule(len(names), *n, *seed0))
	if err != nil {
		return err
	}
	rep := arena.TournamentReport{Config: "default", Seed0: *seed0, Games: *n, TS: arena.DefaultTrueSkill, Workers: *workers}
	if *cfgPath != "" {
		rep.Config = *cfgPath
	}
	rep.Bots = arena.RateTournament(names, results, arena.DefaultTrueSkill)
	rep.Seconds = time.Since(start).Seconds()
	for _, res := range results {
		var seat [arena.Seats]string
		for s, b := range res.Seats {
			seat[s] = names[b]
		}
		rep.Schedule = append(rep.Schedule, seat)
		rep.Scores = append(rep.Scores, res.Scores)
	}
	if *plot != "" {
		if err := writePlot(*plot, &rep); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(&rep)
	}
	printTournament(stdout, &rep)
	return nil
}

func printTournament(w io.Writer, r *arena.TournamentReport) {
	fmt.Fprintf(w, "tournament: %d bots, %d games, seeds %d..%d, config %s\n", len(r.Bots), r.Games, r.Seed0, r.Seed0+r.Games-1, r.Config)
	fmt.Fprintf(w, "TrueSkill: mu0 %.3g, sigma0 %.4g, beta %.4g, tau %.3g, draw probability %.2f; ± is 1.96 sigma\n",
		r.TS.Mu, r.TS.Sigma, r.TS.Beta, r.TS.Tau, r.TS.DrawProb)
	width := 4
	for _, b := range r.Bots {
		width = max(width, len(b.Name))
	}
	fmt.Fprintf(w, "%-4s %-*s %7s %6s %6s %6s %6s  %-22s %s\n", "rank", width, "bot", "rating", "±", "sigma", "games", "seats", "win rate (95% CI)", "mean score (95% CI)")
	for i, b := range r.Bots {
		fmt.Fprintf(w, "%-4d %-*s %7.2f %6.2f %6.2f %6d %6d  %5.1f%% [%4.1f%%, %5.1f%%]  %.1f [%.1f, %.1f]\n",
			i+1, width, b.Name, b.Mu, b.CI95, b.Sigma, b.Games, b.Seats,
			100*b.WinRate.Value, 100*b.WinRate.Lo, 100*b.WinRate.Hi, b.MeanScore.Value, b.MeanScore.Lo, b.MeanScore.Hi)
	}
	fmt.Fprintf(w, "time %.2fs wall, %d workers\n", r.Seconds, r.Workers)
}

// writePlot draws the ratings as dots with 95% error bars, best on top.
func writePlot(path string, r *arena.TournamentReport) error {
	const rowH, right, top, plotW = 30, 30, 40, 480
	// The names sit left of the plot, right-aligned: make room for the
	// longest (about 7 px a character at 12 px, sans-serif).
	left := 150
	for _, b := range r.Bots {
		left = max(left, 7*utf8.RuneCountInString(b.Name)+20)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range r.Bots {
		lo, hi = math.Min(lo, b.Mu-b.CI95), math.Max(hi, b.Mu+b.CI95)
	}
	step := niceStep((hi - lo) / 6)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi <= lo {
		hi = lo + step
	}
	x := func(v float64) float64 { return float64(left) + plotW*(v-lo)/(hi-lo) }
	h := top + rowH*len(r.Bots) + 40
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", left+plotW+right, h)
	fmt.Fprintf(&sb, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&sb, `<text x="%d" y="20" font-size="14">TrueSkill ratings, %d games (dot: mu, bar: 95%%)</text>`+"\n", left, r.Games)
	axisY := top + rowH*len(r.Bots)
	for v := lo; v <= hi+step/2; v += step {
		fmt.Fprintf(&sb, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x(v), top-10, x(v), axisY)
		fmt.Fprintf(&sb, `<text x="%.1f" y="%d" text-anchor="middle">%g</text>`+"\n", x(v), axisY+16, math.Round(v*100)/100)
	}
	for i, b := range r.Bots {
		y := top + rowH*i + rowH/2
		fmt.Fprintf(&sb, `<text x="%d" y="%d" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-10, y, svgEscape(b.Name))
		x0, x1 := x(b.Mu-b.CI95), x(b.Mu+b.CI95)
		fmt.Fprintf(&sb, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#1f77b4" stroke-width="2"/>`+"\n", x0, y, x1, y)
		for _, xe := range []float64{x0, x1} {
			fmt.Fprintf(&sb, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#1f77b4" stroke-width="2"/>`+"\n", xe, y-6, xe, y+6)
		}
		fmt.Fprintf(&sb, `<circle cx="%.1f" cy="%d" r="4" fill="#d62728"/>`+"\n", x(b.Mu), y)
		fmt.Fprintf(&sb, `<text x="%.1f" y="%d" font-size="10">%.2f ± %.2f</text>`+"\n", x(b.Mu)+6, y-8, b.Mu, b.CI95)
	}
	sb.WriteString("</svg>\n")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// niceStep rounds a step up to 1, 2 or 5 times a power of ten.
func niceStep(s float64) float64 {
	if s <= 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(s)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= s {
			return m * p
		}
	}
	return 10 * p
}

func svgEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
