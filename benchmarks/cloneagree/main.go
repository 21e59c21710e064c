// Command cloneagree measures how faithfully a game's Dummy clone plays the
// course's Dummy, on recorded games of four Dummies (each a .res.gz trace
// with its .cmd.gz command file):
//
//   - command agreement: for every round and seat, the clone is given the
//     true state before the round (the game replayed from the command file;
//     the clone's memory is fed the true history in the same way) and its
//     command for each unit is compared with Dummy's (the direction, and
//     whether the unit is commanded at all); also the fraction of (round,
//     seat) whose whole command list matches, in order;
//
//   - scores: four clones play the seeds of the games, and their mean and
//     median scores per player are compared with the recorded games'.
//
//     go run ./benchmarks/cloneagree --game pandemic --dir DIR --from 1000071 --to 1000100
//     go run ./benchmarks/cloneagree --game moria --dir DIR --from 1000072 --to 1000101
//
// Each game registers its measure in a file of its own (pandemic.go,
// moria.go).
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

// measure runs one game's measure on the games of dir with seeds from..to
// and prints its figures.
type measure func(dir string, from, to int) error

var games = map[string]measure{}

func main() {
	game := flag.String("game", "", "game whose Dummy clone is measured ("+strings.Join(names(), ", ")+")")
	dir := flag.String("dir", "", "directory of the recorded games of four Dummies")
	from := flag.Int("from", 0, "first seed")
	to := flag.Int("to", 0, "last seed")
	flag.Parse()
	m, ok := games[*game]
	if !ok || *dir == "" || *from > *to {
		fmt.Fprintln(os.Stderr, "usage: cloneagree --game GAME --dir DIR --from SEED --to SEED; games:", strings.Join(names(), ", "))
		os.Exit(2)
	}
	if err := m(*dir, *from, *to); err != nil {
		fmt.Fprintln(os.Stderr, "cloneagree:", err)
		os.Exit(1)
	}
}

func names() []string {
	var out []string
	for n := range games {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
