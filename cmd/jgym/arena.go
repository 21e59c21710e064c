package main

// The arena plays batches of games at engine speed for "jgym eval" and
// "jgym tournament": games run on a pool of goroutines, and each result is
// stored at its game's index, so the results do not depend on the number of
// workers. This file also holds the statistics both commands print.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"jgym/env/crematoria"
)

// arenaBot is a bot the arena can seat.
type arenaBot struct {
	name    string // as given on the command line
	trace   string // name written in traces (at most 12 characters)
	factory crematoria.BotFactory
}

// arenaGame is one game of a batch: its seed and the bot (index into the
// arena's bots) in each seat.
type arenaGame struct {
	Seed  int
	Seats [crematoria.NumPlayers]int
}

// arenaResult is the outcome of one game.
type arenaResult struct {
	Seed   int
	Seats  [crematoria.NumPlayers]int
	Scores [crematoria.NumPlayers]int
}

// arena plays games between a fixed set of bots.
type arena struct {
	cfg      crematoria.Config
	bots     []arenaBot
	workers  int
	traceDir string    // if set, every game's .res goes there
	progress io.Writer // progress bar or final line; nil for none
	closers  []io.Closer
}

// newArena resolves the bot names (registered names or prefix:PATH).
// Close releases what they hold.
func newArena(cfg crematoria.Config, names []string, workers int) (*arena, error) {
	a := &arena{cfg: cfg, workers: max(workers, 1)}
	for _, n := range names {
		f, closer, err := resolveBot(n)
		if err != nil {
			a.Close()
			return nil, fmt.Errorf("bot %s: %w", n, err)
		}
		if closer != nil {
			a.closers = append(a.closers, closer)
		}
		a.bots = append(a.bots, arenaBot{name: n, trace: traceName(n), factory: f})
	}
	return a, nil
}

// Close releases the bots' resources (C++ bot processes, for instance).
func (a *arena) Close() error {
	var errs []error
	for _, c := range a.closers {
		errs = append(errs, c.Close())
	}
	a.closers = nil
	return errors.Join(errs...)
}

// play plays the games on a.workers goroutines and returns their results
// in the order of games. The first error stops the batch.
func (a *arena) play(ctx context.Context, games []arenaGame) ([]arenaResult, error) {
	if a.traceDir != "" {
		if err := os.MkdirAll(a.traceDir, 0o755); err != nil {
			return nil, fmt.Errorf("trace dir: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]arenaResult, len(games))
	bar := newProgress(a.progress, len(games))
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for w := 0; w < a.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r, err := a.playOne(ctx, i, games[i])
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
					continue
				}
				results[i] = r
				bar.add()
			}
		}()
	}
feed:
	for i := range games {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	bar.finish()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// playOne plays game i.
func (a *arena) playOne(ctx context.Context, i int, g arenaGame) (res arenaResult, err error) {
	var bots [crematoria.NumPlayers]crematoria.Bot
	var names [crematoria.NumPlayers]string
	defer func() {
		for _, b := range bots {
			if c, ok := b.(io.Closer); ok {
				c.Close()
			}
		}
	}()
	for p, bi := range g.Seats {
		bots[p] = a.bots[bi].factory(p, g.Seed)
		names[p] = a.bots[bi].trace
	}
	m, err := crematoria.NewMatchWithBots(a.cfg, g.Seed, names, bots)
	if err != nil {
		return res, fmt.Errorf("game %d (seed %d): %w", i, g.Seed, err)
	}
	var f *os.File
	var tw *bufferedFile
	if a.traceDir != "" {
		name := fmt.Sprintf("%04d_s%d_%s.res", i, g.Seed, strings.Join(names[:], "-"))
		if f, err = os.Create(filepath.Join(a.traceDir, name)); err != nil {
			return res, fmt.Errorf("game %d: trace: %w", i, err)
		}
		tw = newBufferedFile(f)
		m.WriteTrace(tw)
	}
	for !m.Done() {
		if err := ctx.Err(); err != nil {
			if f != nil {
				f.Close()
			}
			return res, err
		}
		if err := m.PlayRound(); err != nil {
			if f != nil {
				f.Close()
			}
			return res, fmt.Errorf("game %d (seed %d, %s): %w", i, g.Seed, strings.Join(names[:], " "), err)
		}
	}
	if tw != nil {
		if err := tw.Close(); err != nil {
			return res, fmt.Errorf("game %d: trace: %w", i, err)
		}
	}
	return arenaResult{Seed: g.Seed, Seats: g.Seats, Scores: m.Scores()}, nil
}

// bufferedFile is a file written through a buffer; Close flushes it.
type bufferedFile struct {
	*bufio.Writer
	f *os.File
}

func newBufferedFile(f *os.File) *bufferedFile {
	return &bufferedFile{Writer: bufio.NewWriterSize(f, 1<<16), f: f}
}

func (b *bufferedFile) Close() error {
	err := b.Flush()
	if cerr := b.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rankOf is the competition rank (1..4) of seat p: one plus the number of
// seats with a higher score, so tied seats share the best rank (1, 1, 3, 4).
func rankOf(scores [crematoria.NumPlayers]int, p int) int {
	r := 1
	for q, s := range scores {
		if q != p && s > scores[p] {
			r++
		}
	}
	return r
}

// outcome classifies seat p: 1 it alone has the top score (a win), 0 it
// shares the top score (a tie), -1 otherwise (a loss).
func outcome(scores [crematoria.NumPlayers]int, p int) int {
	if rankOf(scores, p) > 1 {
		return -1
	}
	for q, s := range scores {
		if q != p && s == scores[p] {
			return 0
		}
	}
	return 1
}

// z95 is the 97.5% quantile of the standard normal distribution.
const z95 = 1.959963984540054

// interval is an estimate with a 95% confidence interval.
type interval struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// wilson is the Wilson score interval of a proportion of k successes in n
// trials, at the confidence of the normal quantile z.
func wilson(k, n int, z float64) interval {
	if n == 0 {
		return interval{Lo: 0, Hi: 1}
	}
	p, nn := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nn
	center := (p + z*z/(2*nn)) / den
	half := z / den * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn))
	return interval{Value: p, Lo: math.Max(0, center-half), Hi: math.Min(1, center+half)}
}

// meanInterval is the mean of xs with the 95% Student-t interval
// mean ± t(0.975, n-1)·s/√n (s the sample standard deviation). With one
// sample the interval is the value itself.
func meanInterval(xs []float64) interval {
	n := len(xs)
	if n == 0 {
		return interval{}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	if n == 1 {
		return interval{Value: mean, Lo: mean, Hi: mean}
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := tQuantile975(n-1) * math.Sqrt(ss/float64(n-1)/float64(n))
	return interval{Value: mean, Lo: mean - half, Hi: mean + half}
}

// within clips the interval's bounds to [lo, hi], the range the values
// can take (the t interval knows nothing of it: a mean rank of 1.05 would
// get a lower bound under 1).
func (x interval) within(lo, hi float64) interval {
	x.Lo, x.Hi = max(x.Lo, lo), min(x.Hi, hi)
	return x
}

// tQuantile975 is the 97.5% quantile of Student's t distribution with df
// degrees of freedom: exact values for df < 10, then the Cornish-Fisher
// expansion around the normal quantile (Abramowitz and Stegun 26.7.5; error
// below 2e-5 for df >= 10).
func tQuantile975(df int) float64 {
	switch {
	case df < 1:
		return math.Inf(1)
	case df < 10:
		return [...]float64{12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836,
			2.446911851, 2.364624252, 2.306004135, 2.262157163}[df-1]
	}
	z, n := z95, float64(df)
	z3, z5, z7, z9 := z*z*z, math.Pow(z, 5), math.Pow(z, 7), math.Pow(z, 9)
	return z + (z3+z)/(4*n) + (5*z5+16*z3+3*z)/(96*n*n) +
		(3*z7+19*z5+17*z3-15*z)/(384*n*n*n) +
		(79*z9+776*z7+1482*z5-1920*z3-945*z)/(92160*n*n*n*n)
}

// progress draws a progress bar on a terminal, or prints one line at the
// end otherwise.
type progress struct {
	w     io.Writer
	tty   bool
	total int
	start time.Time
	mu    sync.Mutex
	done  int
	last  time.Time
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, tty: isTerminal(w), total: total, start: time.Now()}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) add() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if p.w == nil || !p.tty {
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond || p.done == p.total {
		p.last = now
		p.draw()
	}
}

func (p *progress) draw() {
	const width = 30
	fill := width * p.done / max(p.total, 1)
	el := time.Since(p.start)
	eta := ""
	if p.done > 0 && p.done < p.total {
		left := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
		eta = " eta " + left.Round(time.Second/10).String()
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d games %s%s   ", strings.Repeat("#", fill), strings.Repeat(".", width-fill),
		p.done, p.total, el.Round(time.Second/10), eta)
}

func (p *progress) finish() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	el := time.Since(p.start)
	if p.tty {
		p.draw()
		fmt.Fprintln(p.w)
		return
	}
	per := time.Duration(0)
	if p.done > 0 {
		per = el / time.Duration(p.done)
	}
	fmt.Fprintf(p.w, "%d/%d games in %s (%s per game)\n", p.done, p.total, el.Round(time.Millisecond), per.Round(10*time.Microsecond))
}
