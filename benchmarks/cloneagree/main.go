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
// The measure is written once over a game's definition (measure.go); a
// game gives only its unit kinds (games.go).
package main

import (
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"jgym/game"
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

// dirOf is the direction of unit id's first command in cmds, and whether
// the list commands it.
func dirOf[D game.Dir](cmds []game.Command[D], id int) (D, bool) {
	for _, c := range cmds {
		if c.ID == id {
			return c.Dir, true
		}
	}
	return 0, false
}

// frac is a/b, 0 when b is 0.
func frac(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// readGz reads a whole gzipped file.
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

// mean is the mean of v.
func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// median is the median of v.
func median(v []float64) float64 {
	w := slices.Clone(v)
	sort.Float64s(w)
	if len(w)%2 == 1 {
		return w[len(w)/2]
	}
	return (w[len(w)/2-1] + w[len(w)/2]) / 2
}
