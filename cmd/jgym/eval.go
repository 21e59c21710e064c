package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"jgym/arena"
	"jgym/game"
)

func init() {
	register(&command{
		name:  "eval",
		usage: "[--game NAME] BOT [--opponents Demo,Demo,Demo] [-n 200] [--seed0 1] [-i CONFIG] [-j WORKERS] [--json] [--trace-dir DIR] [--journal FILE]",
		short: "measure a bot against fixed opponents: win rate, mean and median score, rank, with 95% confidence intervals",
		run:   runEval,
	})
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["eval"]
	fs := newFlagSet(c, stderr)
	gameName := gameFlag(fs)
	oppList := fs.String("opponents", "Demo,Demo,Demo", "the three opponents, comma separated (one name fills all three seats)")
	n := fs.Int("n", 200, "games to play")
	seed0 := fs.Int("seed0", 1, "seed of the first game; game i uses seed0+i")
	cfgPath := fs.String("i", "", "configuration file (default: the game's embedded default)")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "games played in parallel; the results do not depend on it")
	asJSON := fs.Bool("json", false, "print the report as JSON, with every game's scores")
	traceDir := fs.String("trace-dir", "", "write each game's .res trace into this directory")
	journal := fs.String("journal", "", "append each game's result to FILE as it ends (JSON lines); run the same command again to play only the games FILE lacks")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	g, err := findGame(*gameName)
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
	if len(opps) != arena.Seats-1 {
		return usageErr("--opponents needs 1 or %d names, got %d", arena.Seats-1, len(opps))
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
	b, err := arena.NewBatch(g, cfg, append([]string{pos[0]}, opps...), cliLoader)
	if err != nil {
		return err
	}
	defer b.Close()
	b.Workers, b.TraceDir, b.Progress = *workers, *traceDir, stderr
	games := arena.EvalSchedule(*n, *seed0)
	if *journal != "" {
		h, err := journalHeader(g, b, *cfgPath)
		if err != nil {
			return err
		}
		j, done, err := arena.OpenJournal(*journal, h, games)
		if err != nil {
			return err
		}
		defer j.Close()
		b.Done, b.OnResult = done, j.Add
		if len(done) > 0 {
			fmt.Fprintf(stderr, "%s: %d of the %d games done already, playing the other %d\n", *journal, len(done), len(games), len(games)-len(done))
		}
	}
	start := time.Now()
	results, err := b.Play(ctx, games)
	if err != nil {
		return err
	}
	rep := arena.EvalReport{Bot: pos[0], Opponents: opps, Config: "default", Seed0: *seed0, Workers: *workers, Resumed: len(b.Done)}
	if *cfgPath != "" {
		rep.Config = *cfgPath
	}
	rep.Summarize(results)
	rep.Seconds = time.Since(start).Seconds()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(&rep)
	}
	printEval(stdout, &rep)
	return nil
}

// journalHeader is what an eval's journal records of its games: the game,
// the players, the configuration's digest, the digests of the files the
// players' names load and JGYM_SEARCH (the search bot's sizes). It does
// not know the jgym build: after rebuilding jgym with other bots, start
// another file (docs/cli.md).
func journalHeader(g arena.Game, b *arena.Batch, cfgPath string) (arena.JournalHeader, error) {
	h := arena.JournalHeader{Game: g.Name(), Config: "default", Extra: map[string]string{}}
	digest := func(path string) (string, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("sha256:%x", sha256.Sum256(data)), nil
	}
	if cfgPath != "" {
		d, err := digest(cfgPath)
		if err != nil {
			return h, fmt.Errorf("config: %w", err)
		}
		h.Config = d
	}
	for _, p := range b.Players {
		name := p.Name()
		h.Players = append(h.Players, name)
		if _, path, ok := strings.Cut(name, ":"); ok {
			if d, err := digest(path); err == nil {
				h.Extra[name] = d
			}
		}
	}
	if v := os.Getenv(game.SearchEnv); v != "" {
		h.Extra[game.SearchEnv] = v
	}
	return h, nil
}

// printEval prints the report as text.
func printEval(w io.Writer, r *arena.EvalReport) {
	pct := func(x arena.Interval) string {
		return fmt.Sprintf("%6.1f%%   95%% CI [%.1f%%, %.1f%%]", 100*x.Value, 100*x.Lo, 100*x.Hi)
	}
	num := func(x arena.Interval, prec int) string {
		return fmt.Sprintf("%7.*f   95%% CI [%.*f, %.*f]", prec, x.Value, prec, x.Lo, prec, x.Hi)
	}
	fmt.Fprintf(w, "%s vs %s: %d games, seeds %d..%d, %s rotating seats, config %s\n",
		r.Bot, strings.Join(r.Opponents, ", "), r.Games, r.Seed0, r.Seed0+r.Games-1, r.Bot, r.Config)
	line := func(label, value, note string) {
		fmt.Fprintf(w, "  %-13s %s%s\n", label, value, note)
	}
	line("win rate", pct(r.WinRate), fmt.Sprintf("   %d wins, %d ties, %d losses", r.Wins, r.Ties, r.Losses))
	line("tie rate", pct(r.TieRate), "")
	line("mean score", num(r.MeanScore, 1), "   (bootstrap)")
	line("median score", num(r.MedianScore, 1), "   (order statistics)")
	line("mean rank", num(r.MeanRank, 3), "   (1..4, tied seats share the best rank)")
	line("mean margin", num(r.MeanMargin, 1), "   (score minus the best opponent's; bootstrap)")
	line("median margin", num(r.MedianMargin, 1), "   (order statistics)")
	fmt.Fprint(w, "  opponents    ")
	for k, o := range r.Opponents {
		fmt.Fprintf(w, " %s %.1f [%.1f, %.1f];", o, r.OppScore[k].Value, r.OppScore[k].Lo, r.OppScore[k].Hi)
	}
	fmt.Fprintln(w, "  (mean score; bootstrap)")
	fmt.Fprint(w, "  per seat     ")
	for _, s := range r.PerSeat {
		fmt.Fprintf(w, " %d: %d/%d %.1f%% [%.1f%%, %.1f%%];", s.Seat, s.Wins, s.Games, 100*s.WinRate.Value, 100*s.WinRate.Lo, 100*s.WinRate.Hi)
	}
	fmt.Fprintln(w, "  (wins)")
	per := 0.0
	if r.Games > 0 {
		per = 1000 * r.Seconds / float64(r.Games)
	}
	line("intervals", r.Intervals, "")
	if r.Resumed > 0 {
		per = 0
		if played := r.Games - r.Resumed; played > 0 {
			per = 1000 * r.Seconds / float64(played)
		}
		fmt.Fprintf(w, "  time          %.2fs wall for the %d games played now, %.1f ms per game, %d workers (%d games from the journal)\n",
			r.Seconds, r.Games-r.Resumed, per, r.Workers, r.Resumed)
		return
	}
	fmt.Fprintf(w, "  time          %.2fs wall, %.1f ms per game, %d workers\n", r.Seconds, per, r.Workers)
}
