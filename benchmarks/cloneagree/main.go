// Command cloneagree measures how faithfully a scripted clone of the
// course's Dummy plays, on games of four course Dummies (their traces and
// command files, as in ../shared/<game>/dummy-games):
//
//   - per-unit agreement: every round, each seat's state is rebuilt from
//     the command file and the clone, fed every earlier round the same
//     way, gives its orders; for every unit the seat owns or either
//     player commands, the clone agrees when both command it in the same
//     direction or neither commands it. Also the fraction of (round,
//     seat) whose whole command list equals the Dummy's, in order;
//
//   - self-play: four clones play each game's seed; their mean final
//     score per seat against the course games', and how many traces equal
//     the course's byte for byte.
//
//     go run ./benchmarks/cloneagree -game dominator -dir ../shared/dominator/dummy-games -seeds 1000071-1000100
//
// The games are named through their packages (see games); a game without
// a clone yet is refused.
package main

import (
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// tally counts agreements.
type tally struct {
	units     map[string][2]int // per unit type: agreeing, total
	lists, ok int               // (round, seat) pairs, and those whose lists are equal
}

func (t *tally) unit(kind string, agree bool) {
	if t.units == nil {
		t.units = map[string][2]int{}
	}
	c := t.units[kind]
	if agree {
		c[0]++
	}
	c[1]++
	t.units[kind] = c
}

func (t *tally) add(o tally) {
	for k, c := range o.units {
		if t.units == nil {
			t.units = map[string][2]int{}
		}
		x := t.units[k]
		x[0] += c[0]
		x[1] += c[1]
		t.units[k] = x
	}
	t.lists += o.lists
	t.ok += o.ok
}

// game is what cloneagree needs of a game with a Dummy clone.
type game interface {
	// agree replays the game of seed from its command file (cmd) and
	// counts the clone bot's agreement with every seat.
	agree(cmd []byte, seed int, bot string) (tally, error)
	// selfPlay plays four clone bots on seed and returns their final
	// scores, those of the course trace res, and whether the traces are
	// equal byte for byte (the clones named as the trace names its
	// players).
	selfPlay(res []byte, seed int, bot string) (clone, course []int, same bool, err error)
}

// games are the games with a Dummy clone, by name.
var games = map[string]game{
	"dominator": dominatorGame{},
}

func main() {
	name := flag.String("game", "dominator", "game")
	dir := flag.String("dir", "", "folder of the Dummy games (default ../shared/<game>/dummy-games)")
	seeds := flag.String("seeds", "1000071-1000100", "seed range first-last")
	bot := flag.String("bot", "DummyClone", "the clone: a bot of the game")
	flag.Parse()
	if err := run(*name, *dir, *seeds, *bot, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cloneagree:", err)
		os.Exit(1)
	}
}

func run(name, dir, seeds, bot string, w io.Writer) error {
	g, ok := games[name]
	if !ok {
		var known []string
		for k := range games {
			known = append(known, k)
		}
		sort.Strings(known)
		return fmt.Errorf("no Dummy clone for game %q (known: %s)", name, strings.Join(known, ", "))
	}
	if dir == "" {
		dir = filepath.Join("..", "shared", name, "dummy-games")
	}
	first, last, err := seedRange(seeds)
	if err != nil {
		return err
	}
	var all tally
	var cloneSum, courseSum float64
	n, same, seats := 0, 0, 0
	for seed := first; seed <= last; seed++ {
		stem := filepath.Join(dir, fmt.Sprintf("%s_s%d_Dummy-Dummy-Dummy-Dummy", name, seed))
		cmd, err := readGz(stem + ".cmd.gz")
		if err != nil {
			return err
		}
		res, err := readGz(stem + ".res.gz")
		if err != nil {
			return err
		}
		t, err := g.agree(cmd, seed, bot)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		all.add(t)
		clone, course, eq, err := g.selfPlay(res, seed, bot)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		for p := range clone {
			cloneSum += float64(clone[p])
			courseSum += float64(course[p])
		}
		seats += len(clone)
		if eq {
			same++
		}
		n++
	}
	fmt.Fprintf(w, "game %s, clone %s, %d games of four Dummies (seeds %d-%d) from %s\n", name, bot, n, first, last, dir)
	fmt.Fprintln(w, "per-unit agreement (same direction, or neither commands the unit):")
	var kinds []string
	var agree, total int
	for k := range all.units {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		c := all.units[k]
		agree += c[0]
		total += c[1]
		fmt.Fprintf(w, "  %-8s %9d / %9d  %8.4f%%\n", k, c[0], c[1], pct(c[0], c[1]))
	}
	fmt.Fprintf(w, "  %-8s %9d / %9d  %8.4f%%\n", "all", agree, total, pct(agree, total))
	fmt.Fprintf(w, "(round, seat) with the whole command list equal, in order: %d / %d  %.4f%%\n", all.ok, all.lists, pct(all.ok, all.lists))
	cm, um := cloneSum/float64(seats), courseSum/float64(seats)
	fmt.Fprintf(w, "self-play, mean final score per seat and game: clones %.1f, course Dummies %.1f (%+.2f%%)\n", cm, um, 100*(cm-um)/um)
	fmt.Fprintf(w, "self-play traces equal to the course's byte for byte: %d / %d\n", same, n)
	return nil
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func seedRange(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	first, err1 := strconv.Atoi(a)
	last, err2 := strconv.Atoi(b)
	if err := errors.Join(err1, err2); err != nil || first > last {
		return 0, 0, fmt.Errorf("bad seed range %q: want first-last", s)
	}
	return first, last, nil
}

func readGz(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(z)
}
