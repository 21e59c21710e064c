package arena_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"jgym/arena"
	"jgym/env/crematoria"
)

// fakeGame scores a game from its seed and players' names and writes a
// one-line trace; it fails the game with seed failSeed, and if failSeed is
// positive the games of later seeds wait for the batch to stop.
type fakeGame struct {
	failSeed int
	played   atomic.Int64
}

type fakeConfig struct{}

func (fakeConfig) Rounds() int { return 1 }

type fakePlayer string

func (p fakePlayer) Name() string { return string(p) }
func (fakePlayer) Close() error   { return nil }

func (*fakeGame) Name() string                                { return "Fake" }
func (*fakeGame) Bots() []string                              { return []string{"A", "B", "C"} }
func (*fakeGame) DefaultConfig() arena.Config                 { return fakeConfig{} }
func (*fakeGame) ParseConfig(io.Reader) (arena.Config, error) { return fakeConfig{}, nil }
func (*fakeGame) Verify([]byte, []byte, arena.Config) error   { return nil }

func (*fakeGame) NewPlayer(name string, _ arena.Loader) (arena.Player, error) {
	if name == "Nobody" {
		return nil, errors.New("unknown bot")
	}
	return fakePlayer(name), nil
}

func (g *fakeGame) Play(ctx context.Context, t *arena.Table) error {
	g.played.Add(1)
	switch {
	case t.Seed == g.failSeed:
		return errors.New("boom")
	case g.failSeed > 0 && t.Seed > g.failSeed:
		<-ctx.Done()
		return ctx.Err()
	}
	t.Scores = make([]int, len(t.Players))
	for p, pl := range t.Players {
		t.Scores[p] = (t.Seed*7 + int(pl.Name()[0])*(p+1)) % 10
	}
	if t.Trace != nil {
		fmt.Fprintf(t.Trace, "%d %v\n", t.Seed, t.TraceNames())
	}
	return ctx.Err()
}

func TestBatchSameResultsForAnyWorkers(t *testing.T) {
	games := arena.TournamentSchedule(3, 40, 5)
	var want []arena.Result
	for _, workers := range []int{1, 2, 7} {
		b, err := arena.NewBatch(&fakeGame{failSeed: -1}, fakeConfig{}, []string{"A", "B", "C"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b.Workers = workers
		got, err := b.Play(context.Background(), games)
		if err != nil {
			t.Fatalf("-j %d: %v", workers, err)
		}
		for i, r := range got {
			if r.Seed != games[i].Seed || r.Seats != games[i].Seats {
				t.Fatalf("-j %d: result %d = %+v, for game %+v", workers, i, r, games[i])
			}
		}
		if want == nil {
			want = got
		} else if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("-j %d: results differ from -j 1:\n%v\n%v", workers, got, want)
		}
	}
}

func TestBatchFirstErrorStops(t *testing.T) {
	g := &fakeGame{failSeed: 3}
	b, err := arena.NewBatch(g, fakeConfig{}, []string{"A", "B"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Workers = 2
	var progress bytes.Buffer
	b.Progress = &progress
	res, err := b.Play(context.Background(), arena.TournamentSchedule(2, 10000, 1))
	if res != nil || err == nil || err.Error() != "game 2 (seed 3, A B A B): boom" {
		t.Fatalf("Play = %d results, %v; want game 2's error", len(res), err)
	}
	// Games 0..2, then at most a game per worker started before the stop
	// and a few in the instant of it.
	if n := g.played.Load(); n > 10 {
		t.Errorf("%d games played, want the batch to stop after game 2", n)
	}
	if !strings.Contains(progress.String(), "/10000 games in ") {
		t.Errorf("progress line %q", progress.String())
	}
}

func TestBatchBadSchedule(t *testing.T) {
	b, err := arena.NewBatch(&fakeGame{failSeed: -1}, fakeConfig{}, []string{"A", "B"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Play(context.Background(), arena.TournamentSchedule(3, 3, 1)); err == nil {
		t.Error("a seating with player 2 of 2 was played")
	}
}

func TestNewBatchUnknownBot(t *testing.T) {
	_, err := arena.NewBatch(&fakeGame{}, fakeConfig{}, []string{"A", "Nobody"}, nil)
	if err == nil || err.Error() != "bot Nobody: unknown bot" {
		t.Errorf("NewBatch = %v, want bot Nobody: unknown bot", err)
	}
}

func TestBatchStopsOnCancel(t *testing.T) {
	b, err := arena.NewBatch(crematoria.Def.Arena(), crematoria.DefaultConfig(), []string{"Demo", "Null"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Workers = 2
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Play(ctx, arena.TournamentSchedule(2, 50, 1)); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestBatchTraces plays Crematoria games into a trace directory: the
// traces are the course engine's.
func TestBatchTraces(t *testing.T) {
	b, err := arena.NewBatch(crematoria.Def.Arena(), crematoria.DefaultConfig(), []string{"Demo", "Null"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Workers, b.TraceDir = 2, filepath.Join(t.TempDir(), "traces")
	games := []arena.Seating{{Seed: 4, Seats: [4]int{0, 1, 0, 1}}, {Seed: 2, Seats: [4]int{0, 1, 0, 1}}}
	res, err := b.Play(context.Background(), games)
	if err != nil {
		t.Fatal(err)
	}
	// index.tsv of the reference traces: seed 4 scores 235 29 357 33.
	if res[0].Scores != [4]int{235, 29, 357, 33} {
		t.Errorf("seed 4: scores %v, want [235 29 357 33]", res[0].Scores)
	}
	for i, g := range games {
		got, err := os.ReadFile(filepath.Join(b.TraceDir, fmt.Sprintf("%04d_s%d_Demo-Null-Demo-Null.res", i, g.Seed)))
		if err != nil {
			t.Fatal(err)
		}
		want := gunzip(t, fmt.Sprintf("../testdata/crematoria/traces/crematoria_s%d_Demo-Null-Demo-Null.res.gz", g.Seed))
		if !bytes.Equal(got, want) {
			t.Errorf("game %d: trace differs from the course engine's", i)
		}
	}
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
