package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"jgym/arena"
	"jgym/cppbot"
)

// defaultCPUBudget is the CPU time per match jgym aims at for an exported
// player: half of the one limit the course's rule sheets state (see
// sheetLimits), so that a slower judge still fits.
const defaultCPUBudget = 500 * time.Millisecond

// maxBenchSeeds bounds the games of one --bench: fewer than the usages a
// cppbot.Program keeps, so that each game's can be read.
const maxBenchSeeds = 50

// sheetLimits is what the course's rule sheets (seeds/<game>.txt) say of
// a player's limits.
const sheetLimits = "the course's rule sheets say that a player's CPU time and memory are limited; " +
	"only Pandemic's gives a figure, 1 s of CPU for the whole match; none limits the source size"

// programLoader is a Loader that remembers the last C++ program it
// compiled, to read what its bots used.
type programLoader struct {
	arena.Loader

	mu   sync.Mutex
	prog *cppbot.Program
}

// Cpp compiles the bot as the wrapped loader does and keeps the program.
func (l *programLoader) Cpp(ref string, k *cppbot.Kit) (*cppbot.Program, error) {
	p, err := l.Loader.Cpp(ref, k)
	if err == nil {
		l.mu.Lock()
		l.prog = p
		l.mu.Unlock()
	}
	return p, err
}

// program returns the last program compiled, or nil.
func (l *programLoader) program() *cppbot.Program {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.prog
}

// benchSpec is what export-cpp --bench measures.
type benchSpec struct {
	game   tableGame
	cfg    arena.Config
	seeds  []int
	name   string // the player's name in the traces
	src    string // its C++ file
	player arena.Player
	demo   arena.Player
	prog   func() *cppbot.Program
	budget time.Duration
}

// benchPlayer plays one whole game per seed with the player in seat
// seed mod 4 and Demos elsewhere, one game at a time, and reports what
// the player's own process used in each (CPU time from its start to its
// last answer, peak resident memory), the worst and the mean, the size of
// its source, and whether the worst CPU time is within the budget.
func benchPlayer(ctx context.Context, w io.Writer, b benchSpec) error {
	if !cppbot.MeasuresUsage() {
		return fmt.Errorf("bench: this system does not report the CPU time of processes (/proc)")
	}
	fi, err := os.Stat(b.src)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	prog := b.prog()
	if prog == nil {
		return fmt.Errorf("bench: the player %s is not a compiled C++ program", b.src)
	}
	var games []cppbot.Usage
	for _, sd := range b.seeds {
		if err := ctx.Err(); err != nil {
			return err
		}
		seat := sd % arena.Seats
		t0 := time.Now()
		n0 := len(prog.Usages())
		if _, err := exportGame(ctx, b.game, b.cfg, sd, seat, b.name, b.player, b.demo); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		wall := time.Since(t0)
		us := prog.Usages()
		if len(us) != n0+1 {
			return fmt.Errorf("bench: seed %d: the player's process was not measured", sd)
		}
		u := us[n0] // the game just played: games are played one at a time
		cpu := u.CPU()
		fmt.Fprintf(w, "bench: seed %d, seat %d, %d rounds against three Demos: the player's process used %.2f s of CPU (user %.2f s, system %.2f s), %.2f ms per round, peak RSS %s; game wall time %.2f s\n",
			sd, seat, b.cfg.Rounds(), cpu.Seconds(), u.User.Seconds(), u.Sys.Seconds(), cpu.Seconds()*1000/float64(b.cfg.Rounds()),
			mib(u.PeakRSS), wall.Seconds())
		games = append(games, u)
	}
	benchSummary(w, b.src, fi.Size(), games, b.budget)
	return nil
}

// benchSummary writes the worst and mean CPU time per match of games, the
// worst peak memory, the source size, and whether the worst CPU time is
// within budget.
func benchSummary(w io.Writer, src string, size int64, games []cppbot.Usage, budget time.Duration) {
	var worst, total time.Duration
	var peak int64
	for _, u := range games {
		worst = max(worst, u.CPU())
		total += u.CPU()
		peak = max(peak, u.PeakRSS)
	}
	n := max(len(games), 1)
	plural := "s"
	if len(games) == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "bench: %s: CPU per match at most %.2f s, mean %.2f s (%d game%s); peak RSS at most %s; source %d bytes (%.0f KiB)\n",
		src, worst.Seconds(), total.Seconds()/float64(n), len(games), plural, mib(peak), size, float64(size)/1024)
	if worst <= budget {
		fmt.Fprintf(w, "bench: within %g s of CPU per match: yes (%s)\n", budget.Seconds(), sheetLimits)
	} else {
		fmt.Fprintf(w, "bench: within %g s of CPU per match: NO, %.2f s in the worst game (%s)\n", budget.Seconds(), worst.Seconds(), sheetLimits)
	}
}

// mib formats a number of bytes in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
