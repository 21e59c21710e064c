package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Seating is one game of a batch: its seed and the player in each seat
// (an index into the batch's Players).
type Seating struct {
	Seed  int
	Seats [Seats]int
}

// Result is the outcome of one game of a batch.
type Result struct {
	Seed   int
	Seats  [Seats]int
	Scores [Seats]int
}

// Batch plays games of one game and configuration between a fixed set of
// players, on a pool of goroutines. Each result is stored at its game's
// index and every player depends only on (seed, seat), so the results do
// not depend on the number of workers.
type Batch struct {
	Game    Game
	Config  Config
	Players []Player
	// Workers is the number of games played at once (at least 1).
	Workers int
	// TraceDir, if not empty, receives every game's trace as
	// NNNN_sSEED_P0-P1-P2-P3.res (game number, seed, trace names).
	TraceDir string
	// Progress, if not nil, shows a progress bar on a terminal, or one
	// line at the end otherwise.
	Progress io.Writer
	// Done, if not nil, holds results known already (a Journal's), by
	// game index: Play returns them without playing those games.
	Done map[int]Result
	// OnResult, if not nil, gets each game played as it ends, one call
	// at a time (a Journal's Add); an error stops the batch as a game's.
	OnResult func(Result) error
}

// NewBatch resolves the players' names with g.NewPlayer, their files
// loaded by l. Close releases what they hold.
func NewBatch(g Game, cfg Config, names []string, l Loader) (*Batch, error) {
	b := &Batch{Game: g, Config: cfg, Workers: 1}
	for _, n := range names {
		p, err := g.NewPlayer(n, l)
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("bot %s: %w", n, err)
		}
		b.Players = append(b.Players, p)
	}
	return b, nil
}

// Close releases the players (C++ bots' processes, for instance).
func (b *Batch) Close() error {
	var errs []error
	for _, p := range b.Players {
		errs = append(errs, p.Close())
	}
	b.Players = nil
	return errors.Join(errs...)
}

// Play plays the games and returns their results in the order of games.
// The first error stops the batch and is returned, with no results.
func (b *Batch) Play(ctx context.Context, games []Seating) ([]Result, error) {
	for i, g := range games {
		for s, p := range g.Seats {
			if p < 0 || p >= len(b.Players) {
				return nil, fmt.Errorf("game %d: seat %d: no player %d (%d players)", i, s, p, len(b.Players))
			}
		}
	}
	if b.TraceDir != "" {
		if err := os.MkdirAll(b.TraceDir, 0o755); err != nil {
			return nil, fmt.Errorf("trace dir: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]Result, len(games))
	todo := make([]int, 0, len(games))
	for i, g := range games {
		if r, ok := b.Done[i]; ok && r.Seed == g.Seed && r.Seats == g.Seats {
			results[i] = r
			continue
		}
		todo = append(todo, i)
	}
	bar := newProgress(b.Progress, len(todo))
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for range max(b.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if ctx.Err() != nil {
					continue // stopped: start no other game
				}
				r, err := b.playOne(ctx, i, games[i])
				if err == nil && b.OnResult != nil {
					mu.Lock()
					err = b.OnResult(r)
					mu.Unlock()
				}
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
	for _, i := range todo {
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
func (b *Batch) playOne(ctx context.Context, i int, g Seating) (Result, error) {
	res := Result{Seed: g.Seed, Seats: g.Seats}
	t := &Table{Config: b.Config, Seed: g.Seed, Players: make([]Player, Seats)}
	for s, p := range g.Seats {
		t.Players[s] = b.Players[p]
	}
	names := t.TraceNames()
	var f *os.File
	if b.TraceDir != "" {
		name := fmt.Sprintf("%04d_s%d_%s.res", i, g.Seed, strings.Join(names, "-"))
		var err error
		if f, err = os.Create(filepath.Join(b.TraceDir, name)); err != nil {
			return res, fmt.Errorf("game %d: trace: %w", i, err)
		}
		t.Trace = f
	}
	err := b.Game.Play(ctx, t)
	if f != nil {
		if cerr := f.Close(); cerr != nil && err == nil {
			return res, fmt.Errorf("game %d: trace: %w", i, cerr)
		}
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
			return res, err
		}
		return res, fmt.Errorf("game %d (seed %d, %s): %w", i, g.Seed, strings.Join(names, " "), err)
	}
	if len(t.Scores) != Seats {
		return res, fmt.Errorf("game %d (seed %d): %s gave %d scores", i, g.Seed, b.Game.Name(), len(t.Scores))
	}
	copy(res.Scores[:], t.Scores)
	return res, nil
}
