package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"jgym/arena"
)

func init() {
	register(&command{
		name:  "match",
		usage: "[--game NAME] P0 P1 P2 P3 -s SEED [-i CONFIG] [-o OUT] [--commands OUT.cmd] [-q]",
		short: "play one game and write its .res trace, like the kit's Game program",
		run:   runMatch,
	})
	register(&command{
		name:  "list",
		usage: "[--game NAME]",
		short: "list the games and the bots that can take a seat",
		run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			fs := newFlagSet(commands["list"], stderr)
			gameName := gameFlag(fs)
			pos, err := parseArgs(fs, args)
			if err != nil {
				return err
			}
			if len(pos) > 0 {
				return usageErr("unexpected arguments %q", pos)
			}
			if *gameName != "" {
				g, err := findGame(*gameName)
				if err != nil {
					return err
				}
				printGame(stdout, g, g.Name()+":")
				return nil
			}
			printGames(stdout)
			return nil
		},
	})
}

// printGames prints every game, then its bots and its prefix seats, one
// a line.
func printGames(w io.Writer) {
	for i, g := range gameList() {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if i == 0 {
			printGame(w, g, g.Name()+" (default):")
		} else {
			printGame(w, g, fmt.Sprintf("%s (--game %s):", g.Name(), strings.ToLower(g.Name())))
		}
	}
}

// printGame prints a heading, then the game's bots and prefix seats.
func printGame(w io.Writer, g tableGame, heading string) {
	fmt.Fprintln(w, heading)
	for _, n := range g.Bots() {
		fmt.Fprintln(w, n)
	}
	for _, p := range arena.Prefixes {
		fmt.Fprintf(w, "%s:PATH\t%s\n", p, prefixHelp[p])
	}
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

// newPlayers resolves the seat names of a game; close releases them.
func newPlayers(g arena.Game, names []string) (players []arena.Player, close func(), err error) {
	close = func() {
		for _, p := range players {
			p.Close()
		}
	}
	for p, n := range names {
		pl, err := g.NewPlayer(n, cliLoader)
		if err != nil {
			close()
			return nil, nil, fmt.Errorf("player %d: %w", p, err)
		}
		players = append(players, pl)
	}
	return players, close, nil
}

func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["match"]
	fs := newFlagSet(c, stderr)
	gameName := gameFlag(fs)
	seed := fs.String("s", "", "game seed (required), a non-negative integer")
	fs.StringVar(seed, "seed", "", "same as -s")
	cfgPath := fs.String("i", "", "configuration file (default: the game's embedded default.cnf)")
	fs.StringVar(cfgPath, "input", "", "same as -i")
	out := fs.String("o", "", "trace file (default: standard output)")
	fs.StringVar(out, "output", "", "same as -o")
	cmdOut := fs.String("commands", "", "also write the players' command lists to this file (one line per round and player;\n"+
		"the format is in docs/rules/<game>.md)")
	quiet := fs.Bool("q", false, "do not print the results")
	names, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	g, err := findGame(*gameName)
	if err != nil {
		return err
	}
	if len(names) != arena.Seats {
		return usageErr("want %d players, got %d", arena.Seats, len(names))
	}
	sd, err := parseSeed(*seed)
	if err != nil {
		return err
	}
	cfg, err := loadGameConfig(g, *cfgPath)
	if err != nil {
		return err
	}
	for _, n := range names {
		if len(n) > 12 && !strings.Contains(n, ":") {
			return usageErr("player name %q too long (max 12 characters)", n)
		}
	}
	players, closePlayers, err := newPlayers(g, names)
	if err != nil {
		return err
	}
	defer closePlayers()
	t := &arena.Table{Config: cfg, Seed: sd, Players: players, Trace: stdout}
	var outFile *os.File
	if *out != "" {
		if outFile, err = os.Create(*out); err != nil {
			return fmt.Errorf("output: %w", err)
		}
		defer outFile.Close() // after an error; see below
		t.Trace = outFile
	}
	var cmds bytes.Buffer
	if *cmdOut != "" {
		t.Commands = &cmds
	}
	if err := g.Play(ctx, t); err != nil {
		return err
	}
	if outFile != nil {
		if err := outFile.Close(); err != nil {
			return fmt.Errorf("output: %w", err)
		}
	}
	if *cmdOut != "" {
		if err := os.WriteFile(*cmdOut, cmds.Bytes(), 0o666); err != nil {
			return fmt.Errorf("commands: %w", err)
		}
	}
	if !*quiet {
		arena.PrintResults(stderr, t.TraceNames(), t.Scores)
	}
	return nil
}
