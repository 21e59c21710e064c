package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// benchCourse times the course engine: the Game program of the course's
// kit in dir plays games seed0..seed0+n-1 with the four players, one
// after the other, writing each trace (to the null device), with the
// configuration cfgPath (empty: the kit's default.cnf). It builds Game
// with the kit's "make all" when dir has none. The players must be
// players of the kit (Null and Demo are).
func benchCourse(ctx context.Context, dir, cfgPath string, players []string, n, seed0 int) (time.Duration, error) {
	game := filepath.Join(dir, "Game")
	if _, err := os.Stat(game); errors.Is(err, os.ErrNotExist) {
		make := exec.CommandContext(ctx, "make", "-C", dir, "all")
		if out, err := make.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("course kit %s: make all: %w\n%s", dir, err, tail(out))
		}
	}
	cfg := cfgPath
	if cfg == "" {
		cfg = filepath.Join(dir, "default.cnf")
	}
	cfg, err := filepath.Abs(cfg)
	if err != nil {
		return 0, err
	}
	if _, err := os.Stat(cfg); err != nil {
		return 0, fmt.Errorf("course kit: configuration: %w (give -i CONFIG)", err)
	}
	start := time.Now()
	for i := range n {
		args := append(append([]string(nil), players...), "-s", strconv.Itoa(seed0+i), "-i", cfg, "-o", os.DevNull)
		cmd := exec.CommandContext(ctx, "./Game", args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("course engine: %s %s: %w\n%s", game, strings.Join(args, " "), err, tail(stderr.Bytes()))
		}
	}
	return time.Since(start), nil
}

// tail returns the last lines of a program's output, for an error.
func tail(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.Join(lines[max(0, len(lines)-10):], "\n")
}
