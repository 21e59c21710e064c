package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"jgym/env/crematoria"
)

func init() {
	register(&command{
		name:  "match",
		usage: "P0 P1 P2 P3 -s SEED [-i CONFIG] [-o OUT] [--commands OUT.cmd]",
		short: "play one game and write its .res trace, like the kit's Game program",
		run:   runMatch,
	})
	register(&command{
		name:  "list",
		usage: "",
		short: "list the bots that can take a seat",
		run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			for _, n := range crematoria.BotNames() {
				fmt.Fprintln(stdout, n)
			}
			for _, p := range botPrefixes {
				fmt.Fprintf(stdout, "%s:PATH\t%s\n", p.prefix, p.help)
			}
			return nil
		},
	})
}

// loadConfig reads a configuration file, or returns the embedded default
// when path is empty.
func loadConfig(path string) (crematoria.Config, error) {
	if path == "" {
		return crematoria.DefaultConfig(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return crematoria.Config{}, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	cfg, err := crematoria.ParseConfig(f)
	if err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// parseSeed parses a seed as the kit requires it: a non-negative integer.
func parseSeed(s string) (int, error) {
	if s == "" {
		return 0, usageErr("missing seed: give -s SEED")
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < 0 {
		return 0, usageErr("bad seed %q: want an integer from 0 to 2147483647", s)
	}
	return int(n), nil
}

func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["match"]
	fs := newFlagSet(c, stderr)
	seed := fs.String("s", "", "game seed (required), a non-negative integer")
	fs.StringVar(seed, "seed", "", "same as -s")
	cfgPath := fs.String("i", "", "configuration file (default: the embedded default.cnf)")
	fs.StringVar(cfgPath, "input", "", "same as -i")
	out := fs.String("o", "", "trace file (default: standard output)")
	fs.StringVar(out, "output", "", "same as -o")
	cmdOut := fs.String("commands", "", "also write the players' command lists to this file (SPEC §15.4 format)")
	quiet := fs.Bool("q", false, "do not print the results")
	names, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(names) != crematoria.NumPlayers {
		return usageErr("want 4 players, got %d", len(names))
	}
	sd, err := parseSeed(*seed)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	var bots [crematoria.NumPlayers]crematoria.Bot
	var seat [crematoria.NumPlayers]string
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	for p, n := range names {
		if len(n) > 12 && !strings.Contains(n, ":") {
			return usageErr("player name %q too long (max 12 characters)", n)
		}
		f, closer, err := resolveBot(n)
		if err != nil {
			return fmt.Errorf("player %d: %w", p, err)
		}
		if closer != nil {
			closers = append(closers, closer)
		}
		bots[p] = f(p, sd)
		seat[p] = traceName(n)
	}
	m, err := crematoria.NewMatchWithBots(cfg, sd, seat, bots)
	if err != nil {
		return err
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fmt.Errorf("output: %w", err)
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	m.WriteTrace(bw)
	var log crematoria.CommandLog
	for !m.Done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := m.PlayRound(); err != nil {
			bw.Flush()
			return err
		}
		if *cmdOut != "" {
			var cmds [crematoria.NumPlayers][]crematoria.Command
			for p := range cmds {
				cmds[p] = m.Orders(p)
			}
			log.Record(&cmds)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write trace: %w", err)
	}
	if *cmdOut != "" {
		f, err := os.Create(*cmdOut)
		if err != nil {
			return fmt.Errorf("commands: %w", err)
		}
		if err := log.Write(f); err != nil {
			f.Close()
			return fmt.Errorf("commands: %w", err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("commands: %w", err)
		}
	}
	if !*quiet {
		printResults(stderr, &m.State, seat)
	}
	return nil
}

// printResults prints the final scores as the kit does (SPEC §9).
func printResults(w io.Writer, s *crematoria.State, names [crematoria.NumPlayers]string) {
	for g := 0; g < crematoria.NumPlayers; g++ {
		fmt.Fprintf(w, "info: player %s got score %d\n", names[g], s.Score(g))
	}
	fmt.Fprint(w, "info: player(s)")
	for _, g := range s.Winners() {
		fmt.Fprintf(w, " %s", names[g])
	}
	fmt.Fprintln(w, " got top score")
	fmt.Fprintln(w, "info: game played")
}
