package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"jgym/env/crematoria"
)

// courseRoundsPerSecond is the course engine's speed writing the trace with
// four Null players on the reference machine (about 1.6 ms per round).
const courseRoundsPerSecond = 630

func init() {
	register(&command{
		name:  "bench",
		usage: "[--bots P0,P1,P2,P3] [--games N] [--trace] [-j WORKERS] [-i CONFIG]",
		short: "measure engine throughput in rounds per second",
		run:   runBench,
	})
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["bench"]
	fs := newFlagSet(c, stderr)
	botList := fs.String("bots", "Null,Null,Null,Null", "the four seats, comma separated")
	games := fs.Int("games", 200, "games to play")
	trace := fs.Bool("trace", false, "also write each trace (to a discarding writer, through a buffered writer as jgym match does)")
	workers := fs.Int("j", 1, "parallel games (goroutines); rounds/s per core is reported too")
	cfgPath := fs.String("i", "", "configuration file (default: the embedded default)")
	seed0 := fs.Int("seed0", 1, "seed of the first game; game i uses seed0+i")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	names := strings.Split(*botList, ",")
	if len(names) != crematoria.NumPlayers {
		return usageErr("--bots needs 4 names, got %d", len(names))
	}
	if *games < 1 || *workers < 1 {
		return usageErr("--games and -j must be at least 1")
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	var factories [crematoria.NumPlayers]crematoria.BotFactory
	var seat [crematoria.NumPlayers]string
	for p, n := range names {
		f, closer, err := resolveBot(n)
		if err != nil {
			return fmt.Errorf("player %d: %w", p, err)
		}
		if closer != nil {
			defer closer.Close()
		}
		factories[p], seat[p] = f, traceName(n)
	}
	jobs := make(chan int)
	errs := make(chan error, *workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if err := benchGame(cfg, *seed0+i, seat, factories, *trace); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
feed:
	for i := 0; i < *games; i++ {
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
	select {
	case err := <-errs:
		return err
	default:
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	el := time.Since(start)
	rounds := *games * cfg.NbRounds
	rps := float64(rounds) / el.Seconds()
	cores := min(*workers, runtime.NumCPU())
	fmt.Fprintf(stdout, "bots %s, %d games x %d rounds, trace %v, %d workers on %d CPUs\n", *botList, *games, cfg.NbRounds, *trace, *workers, runtime.NumCPU())
	fmt.Fprintf(stdout, "elapsed %.3fs  %.0f rounds/s  %.0f rounds/s per core  %.1f us/round/core\n",
		el.Seconds(), rps, rps/float64(cores), 1e6*float64(cores)/rps)
	if *trace {
		fmt.Fprintf(stdout, "%.0fx the course engine (%d rounds/s writing the trace)\n", rps/float64(cores)/courseRoundsPerSecond, courseRoundsPerSecond)
	}
	return nil
}

func benchGame(cfg crematoria.Config, seed int, seat [crematoria.NumPlayers]string, fs [crematoria.NumPlayers]crematoria.BotFactory, trace bool) error {
	var bots [crematoria.NumPlayers]crematoria.Bot
	for p, f := range fs {
		bots[p] = f(p, seed)
	}
	m, err := crematoria.NewMatchWithBots(cfg, seed, seat, bots)
	if err != nil {
		return err
	}
	var bw *bufio.Writer
	if trace {
		bw = bufio.NewWriterSize(io.Discard, 1<<16)
		m.WriteTrace(bw)
	}
	if err := m.Run(); err != nil {
		return fmt.Errorf("seed %d: %w", seed, err)
	}
	if bw != nil {
		return bw.Flush()
	}
	return nil
}
