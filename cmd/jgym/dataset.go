package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"jgym/arena"
	"jgym/dataset"
	"jgym/env"
	"jgym/policy"
)

func init() {
	register(&command{
		name:  "dataset",
		usage: "[--game NAME] [-i CONFIG] [--players NAME,...|--seats 0,1,..] [--expert BOT] [--opponent-order seat|score] [--tensors NAME,...] [--shard-size N] -o DIR TRACE|DIR...",
		short: "turn .res traces into training data: observations, move labels and rewards (docs/learning-from-traces.md)",
		run:   runDataset,
	})
}

func runDataset(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["dataset"]
	fs := newFlagSet(c, stderr)
	gameName := gameFlag(fs)
	cfgPath := fs.String("i", "", "configuration the games were played with (default: each trace's header settings, as jgym verify)")
	fs.StringVar(cfgPath, "input", "", "same as -i")
	out := fs.String("o", "", "the dataset directory to write (created; must hold no dataset yet)")
	fs.StringVar(out, "out", "", "same as -o")
	players := fs.String("players", "", "comma-separated player names: the seats of each trace whose name is one of them")
	seatList := fs.String("seats", "", "comma-separated seats 0..3 (default: all four)")
	shardSize := fs.Int("shard-size", dataset.DefaultShardSize, "most samples per shard")
	expert := fs.String("expert", "", "label with the commands this registered bot gives in each chosen seat's place, not with the trace's moves (DAgger; docs/learning-from-traces.md)")
	opponents := fs.String("opponent-order", policy.OpponentsBySeat, "the opponents' order in the observations, as the env's option opponent_order: seat, or an order the game offers (score: the leader first); recorded in the manifest")
	tensors := fs.String("tensors", "", "comma-separated observation tensors to write, as the env's option tensors: the masks are kept, and opt-in tensors (Pandemic's expert) are written only when named (default: the whole observation); recorded in the manifest")
	traces, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *out == "":
		return usageErr("no output directory: give -o DIR")
	case len(traces) == 0:
		return usageErr("no trace given")
	case *players != "" && *seatList != "":
		return usageErr("give --players or --seats, not both")
	case *shardSize <= 0:
		return usageErr("--shard-size %d: want a positive number", *shardSize)
	}
	seats, err := parseSeats(*seatList)
	if err != nil {
		return err
	}
	if traces, err = expandTraces(traces); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(*out, dataset.ManifestFile)); err == nil {
		return fmt.Errorf("%s already holds a dataset", *out)
	}
	var g *tableGame
	if *gameName != "" {
		fg, err := findGame(*gameName)
		if err != nil {
			return err
		}
		g = &fg
	}
	var cfg arena.Config
	if *cfgPath != "" {
		cg, err := configGame(*cfgPath)
		if err != nil {
			return err
		}
		if g != nil && cg.Name() != g.Name() {
			return usageErr("-i %s is a %s configuration, and --game is %s", *cfgPath, cg.Name(), g.Name())
		}
		g = &cg
		if cfg, err = loadGameConfig(cg, *cfgPath); err != nil {
			return err
		}
	}
	d := &datasetRun{game: g, cfg: cfg, seats: seats, expert: *expert, opponents: *opponents, stdout: stdout}
	if *tensors != "" {
		d.tensors = strings.Split(*tensors, ",")
	}
	if *players != "" {
		d.players = strings.Split(*players, ",")
	}
	start := time.Now()
	failed := 0
	for _, path := range traces {
		if err := ctx.Err(); err != nil {
			d.abort()
			return err
		}
		if err := d.add(path, *out, *shardSize); err != nil {
			if errors.Is(err, dataset.ErrOpponentOrder) || errors.Is(err, env.ErrBadSetup) { // every trace would fail alike
				d.abort()
				return err
			}
			if errors.Is(err, dataset.ErrSpec) || d.w == nil {
				fmt.Fprintf(stdout, "FAIL %s: %v\n", path, err)
			} else {
				fmt.Fprintf(stdout, "FAIL %s: %v (the rounds before it are in the dataset)\n", path, err)
			}
			failed++
		}
	}
	if d.w == nil {
		return fmt.Errorf("no sample written: %d of %d traces failed", failed, len(traces))
	}
	m, err := d.w.Close()
	if err != nil {
		return err
	}
	printSummary(stdout, *out, m, time.Since(start))
	if failed > 0 {
		return fmt.Errorf("%d of %d traces failed", failed, len(traces))
	}
	return nil
}

// datasetRun is one jgym dataset: the game (fixed by --game, -i or the
// first trace), the writer (opened with the first trace) and the seats.
type datasetRun struct {
	game      *tableGame
	cfg       arena.Config
	seats     []int
	players   []string
	expert    string   // --expert: the bot whose commands are the labels
	opponents string   // --opponent-order: the opponents' order in the observations
	tensors   []string // --tensors: the observation tensors written, nil: all
	w         *dataset.Writer
	stdout    io.Writer
}

// add writes the samples of one trace.
func (d *datasetRun) add(path, out string, shardSize int) error {
	trace, err := readTrace(path)
	if err != nil {
		return err
	}
	g, err := traceGame(trace)
	if err != nil {
		return err
	}
	if d.game == nil {
		d.game = &g
	} else if g.Name() != d.game.Name() {
		return fmt.Errorf("a %s trace, and the dataset is of %s", g.Name(), d.game.Name())
	}
	src := d.game.Dataset()
	if src == nil {
		return fmt.Errorf("jgym dataset does not read %s traces yet", g.Name())
	}
	rep, err := src.Open(trace, d.cfg)
	if err != nil {
		return err
	}
	labels := "moves"
	if d.expert != "" {
		ex, ok := rep.(dataset.Expert)
		if !ok {
			return fmt.Errorf("--expert: jgym dataset cannot label %s traces with a bot's commands yet", d.game.Name())
		}
		if err := ex.UseExpert(d.expert); err != nil {
			return fmt.Errorf("--expert: %w", err)
		}
		labels = "expert:" + d.expert
	}
	seats := d.seats
	if d.players != nil {
		seats = nil
		for s, name := range rep.Names() {
			if slices.Contains(d.players, name) {
				seats = append(seats, s)
			}
		}
		if len(seats) == 0 {
			fmt.Fprintf(d.stdout, "SKIP %s: no seat of %s (names %s)\n", path, strings.Join(d.players, ","), strings.Join(rep.Names(), " "))
			return nil
		}
	}
	if err := dataset.OrderOpponents(rep, d.opponents); err != nil {
		return err // before the writer makes the directory
	}
	if err := dataset.SelectTensors(rep, d.tensors); err != nil {
		return fmt.Errorf("--tensors: %w", err) // env.ErrBadSetup: every trace would fail alike
	}
	if d.w == nil {
		if d.w, err = dataset.NewWriter(out, dataset.Options{Game: d.game.Name(), ShardSize: shardSize, LabelsFrom: labels,
			OpponentOrder: d.opponents, Tensors: d.tensors}); err != nil {
			return err
		}
	}
	tr, err := d.w.AddTrace(path, rep, seats)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.stdout, "OK %s: %d rounds, seats %v, %d samples, labels: %d moves, %d none, %d illegal\n",
		path, tr.Rounds, tr.Seats, tr.Samples, tr.Labels.Moves, tr.Labels.None, tr.Labels.Illegal)
	for _, ex := range tr.Illegal {
		fmt.Fprintf(d.stdout, "  illegal: %s\n", ex)
	}
	return nil
}

func (d *datasetRun) abort() {
	if d.w != nil {
		d.w.Abort()
	}
}

func printSummary(w io.Writer, dir string, m *dataset.Manifest, took time.Duration) {
	var size int64
	for _, s := range m.Shards {
		size += s.Bytes
	}
	view := m.ObservationVersion
	if m.OpponentOrder != policy.OpponentsBySeat {
		view += ", opponents by " + m.OpponentOrder
	}
	fmt.Fprintf(w, "%s: %s (%s), %d traces, %d samples in %d shards, %.1f MB (%.0f bytes a sample), "+
		"labels: %d moves, %d none, %d illegal; %.1f s, %.0f samples/s\n",
		dir, m.Game, view, len(m.Traces), m.Samples, len(m.Shards), float64(size)/1e6,
		float64(size)/float64(max(m.Samples, 1)), m.Labels.Moves, m.Labels.None, m.Labels.Illegal,
		took.Seconds(), float64(m.Samples)/max(took.Seconds(), 1e-9))
}

// parseSeats parses --seats: empty is all four seats.
func parseSeats(list string) ([]int, error) {
	if list == "" {
		return []int{0, 1, 2, 3}, nil
	}
	var seats []int
	for _, f := range strings.Split(list, ",") {
		s, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || s < 0 || s > 3 {
			return nil, usageErr("--seats %s: want seats 0..3 separated by commas", list)
		}
		if !slices.Contains(seats, s) {
			seats = append(seats, s)
		}
	}
	slices.Sort(seats)
	return seats, nil
}

// expandTraces replaces each directory by its .res and .res.gz files,
// sorted.
func expandTraces(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, err
		}
		n := len(out)
		for _, e := range entries {
			if name := e.Name(); !e.IsDir() && (strings.HasSuffix(name, ".res") || strings.HasSuffix(name, ".res.gz")) {
				out = append(out, filepath.Join(a, name))
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: no .res or .res.gz file", a)
		}
	}
	return out, nil
}
