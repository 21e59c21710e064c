package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"jgym/arena"
)

func init() {
	register(&command{
		name:  "bench",
		usage: "[--game NAME] [--bots P0,P1,P2,P3] [--games N] [--trace] [-j WORKERS] [-i CONFIG] [--course-kit DIR [--course-games N]]",
		short: "measure engine throughput in rounds per second",
		run:   runBench,
	})
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["bench"]
	fs := newFlagSet(c, stderr)
	gameName := gameFlag(fs)
	botList := fs.String("bots", "Null,Null,Null,Null", "the four seats, comma separated")
	nGames := fs.Int("games", 200, "games to play")
	trace := fs.Bool("trace", false, "also write each trace (to a discarding writer, through a buffered writer as jgym match does)")
	workers := fs.Int("j", 1, "parallel games (goroutines); rounds/s per core is reported too")
	cfgPath := fs.String("i", "", "configuration file (default: the game's embedded default)")
	seed0 := fs.Int("seed0", 1, "seed of the first game; game i uses seed0+i")
	kitDir := fs.String("course-kit", "", "the course's kit of the game, built (its Game program; make all): time it too on the first games, writing the trace, and print how many times faster jgym is (needs --trace); without it nothing is compared")
	courseGames := fs.Int("course-games", 20, "games the course engine plays (with --course-kit)")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if *kitDir != "" && !*trace {
		return usageErr("--course-kit compares the engines writing the trace, as the course engine always does: add --trace")
	}
	if *courseGames < 1 {
		return usageErr("--course-games must be at least 1")
	}
	g, err := findGame(*gameName)
	if err != nil {
		return err
	}
	names := strings.Split(*botList, ",")
	if len(names) != arena.Seats {
		return usageErr("--bots needs %d names, got %d", arena.Seats, len(names))
	}
	if *nGames < 1 || *workers < 1 {
		return usageErr("--games and -j must be at least 1")
	}
	cfg, err := loadGameConfig(g, *cfgPath)
	if err != nil {
		return err
	}
	players, closePlayers, err := newPlayers(g, names)
	if err != nil {
		return err
	}
	defer closePlayers()
	jobs := make(chan int)
	errs := make(chan error, *workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if err := benchGame(ctx, g, cfg, *seed0+i, players, *trace); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
feed:
	for i := 0; i < *nGames; i++ {
		select {
		case jobs <- i:
		case err := <-errs:
			close(jobs)
			wg.Wait()
			return err
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case err := <-errs:
		return err
	default:
	}
	el := time.Since(start)
	rounds := *nGames * cfg.Rounds()
	rps := float64(rounds) / el.Seconds()
	cores := min(*workers, runtime.NumCPU())
	fmt.Fprintf(stdout, "bots %s, %d games x %d rounds, trace %v, %d workers on %d CPUs\n", *botList, *nGames, cfg.Rounds(), *trace, *workers, runtime.NumCPU())
	fmt.Fprintf(stdout, "elapsed %.3fs  %.0f rounds/s  %.0f rounds/s per core  %.1f us/round/core\n",
		el.Seconds(), rps, rps/float64(cores), 1e6*float64(cores)/rps)
	if *kitDir == "" {
		return nil
	}
	n := min(*courseGames, *nGames)
	course, err := benchCourse(ctx, *kitDir, *cfgPath, names, n, *seed0)
	if err != nil {
		return err
	}
	crps := float64(n*cfg.Rounds()) / course.Seconds()
	fmt.Fprintf(stdout, "course engine %s: %d games, elapsed %.3fs  %.0f rounds/s writing the trace, one process at a time\n", filepath.Join(*kitDir, "Game"), n, course.Seconds(), crps)
	fmt.Fprintf(stdout, "jgym: %.1fx the course engine per core (both measured now, writing the trace)\n", rps/float64(cores)/crps)
	return nil
}

// benchGame plays one game, its trace written to a discarding writer if
// trace is set.
func benchGame(ctx context.Context, g arena.Game, cfg arena.Config, seed int, players []arena.Player, trace bool) error {
	t := &arena.Table{Config: cfg, Seed: seed, Players: players}
	if trace {
		t.Trace = io.Discard
	}
	if err := g.Play(ctx, t); err != nil {
		return fmt.Errorf("seed %d: %w", seed, err)
	}
	return nil
}
