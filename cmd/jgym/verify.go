package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"jgym/arena"
)

func init() {
	register(&command{
		name:  "verify",
		usage: "[--commands FILE|DIR]... [-i CONFIG] TRACE...",
		short: "check .res traces: replay them with their recorded commands, or check every round against the rules",
		run:   runVerify,
	})
}

// maxCommandFile bounds the decompressed size of a command file (a default
// Crematoria game's is about 50 KB).
const maxCommandFile = 64 << 20

// maxTraceFile bounds the decompressed size of a trace (a default
// Crematoria game's is about 1 MB; its parser takes at most about 170 MB).
const maxTraceFile = 256 << 20

// repeated is a flag that may be given several times.
type repeated []string

func (r *repeated) String() string { return strings.Join(*r, ",") }

func (r *repeated) Set(s string) error {
	*r = append(*r, s)
	return nil
}

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["verify"]
	fs := newFlagSet(c, stderr)
	var cmdArgs repeated
	fs.Var(&cmdArgs, "commands", "command file of the trace as jgym match --commands writes it (plain or gzipped; the format\n"+
		"is in docs/rules/<game>.md), given once per trace, or a directory holding <base>.cmd.gz for\n"+
		"each trace <base>.res[.gz]; without it, every round is checked against the rules")
	cfgPath := fs.String("i", "", "configuration the games were played with (default: each trace's header settings,\n"+
		"with the map regenerated from the seed, or FIXED as the first state shows it)")
	fs.StringVar(cfgPath, "input", "", "same as -i")
	traces, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(traces) == 0 {
		return usageErr("no trace given")
	}
	sources, err := commandSources(cmdArgs, traces)
	if err != nil {
		return err
	}
	var cfg *gameConfig
	if *cfgPath != "" {
		g, err := configGame(*cfgPath)
		if err != nil {
			return err
		}
		c, err := loadGameConfig(g, *cfgPath)
		if err != nil {
			return err
		}
		cfg = &gameConfig{game: g, cfg: c, path: *cfgPath}
	}
	failed := 0
	for i, path := range traces {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := verifyFile(path, sources[i], cfg); err != nil {
			failed++
			fmt.Fprintf(stdout, "FAIL %s: %v\n", path, err)
			continue
		}
		fmt.Fprintf(stdout, "OK %s\n", path)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d traces failed", failed, len(traces))
	}
	return nil
}

// commandSource is where the commands of one trace come from: a file, none
// (rules check), or an error to report for that trace.
type commandSource struct {
	path string
	err  error
}

// commandSources pairs the --commands arguments with the traces: none, one
// per trace, or a single directory.
func commandSources(args, traces []string) ([]commandSource, error) {
	out := make([]commandSource, len(traces))
	switch {
	case len(args) == 0:
		return out, nil
	case len(args) == 1 && len(traces) > 1:
		if fi, err := os.Stat(args[0]); err != nil || !fi.IsDir() {
			return nil, usageErr("--commands %s given once for %d traces: give one per trace, or a directory", args[0], len(traces))
		}
	case len(args) != len(traces):
		return nil, usageErr("%d --commands for %d traces: give one per trace, or a single directory", len(args), len(traces))
	}
	for i, trace := range traces {
		arg := args[min(i, len(args)-1)]
		fi, err := os.Stat(arg)
		switch {
		case err != nil:
			out[i].err = fmt.Errorf("commands: %w", err)
		case !fi.IsDir():
			out[i].path = arg
		default:
			out[i] = lookupCommands(arg, trace)
		}
	}
	return out, nil
}

// lookupCommands finds <base>.cmd.gz (or <base>.cmd) in dir for the trace
// <base>.res.gz (or <base>.res).
func lookupCommands(dir, trace string) commandSource {
	base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(trace), ".gz"), ".res")
	for _, name := range []string{base + ".cmd.gz", base + ".cmd"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return commandSource{path: p}
		}
	}
	return commandSource{err: fmt.Errorf("commands: no %s.cmd.gz or %s.cmd in %s", base, base, dir)}
}

// gameConfig is the configuration of -i and its game.
type gameConfig struct {
	game tableGame
	cfg  arena.Config
	path string
}

// verifyFile verifies one trace file with the game it is a trace of.
func verifyFile(path string, cmds commandSource, cfg *gameConfig) error {
	if cmds.err != nil {
		return cmds.err
	}
	trace, err := readTrace(path)
	if err != nil {
		return err
	}
	g, err := traceGame(trace)
	if err != nil {
		return err
	}
	var c arena.Config
	if cfg != nil {
		if cfg.game.Name() != g.Name() {
			return fmt.Errorf("a %s trace, and -i %s is a %s configuration", g.Name(), cfg.path, cfg.game.Name())
		}
		c = cfg.cfg
	}
	var log []byte
	if cmds.path != "" {
		if log, err = readCommandFile(cmds.path); err != nil {
			return err
		}
	}
	err = g.Verify(trace, log, c)
	if ce := (*arena.CommandsError)(nil); errors.As(err, &ce) {
		return fmt.Errorf("commands %s: %w", cmds.path, ce.Err)
	}
	return err
}

// traceGame returns the game of a trace: the one its header names. A file
// that does not begin as a trace goes to the default game, whose parser
// says what is wrong with it.
func traceGame(trace []byte) (tableGame, error) {
	word := arena.GameOf(trace[:min(len(trace), 4096)])
	if g, ok := lookupGame(word); ok {
		return g, nil
	}
	if bytes.HasPrefix(trace, []byte("Game\n")) && word != "" {
		return tableGame{}, fmt.Errorf("a trace of %.40q, a game jgym does not play (games: %s)", word, gameNames())
	}
	return defaultGame(), nil
}

// readTrace reads a trace file, plain or gzipped.
func readTrace(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readMaybeGzip(f, maxTraceFile)
	if err != nil {
		return nil, fmt.Errorf("bad trace: %w", err)
	}
	return data, nil
}

// readCommandFile reads a command file, plain or gzipped.
func readCommandFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("commands: %w", err)
	}
	defer f.Close()
	data, err := readMaybeGzip(f, maxCommandFile)
	if err != nil {
		return nil, fmt.Errorf("commands %s: %w", path, err)
	}
	return data, nil
}

// readMaybeGzip reads r, gunzipped if it is gzipped, up to limit bytes.
func readMaybeGzip(r io.Reader, limit int64) ([]byte, error) {
	br := bufio.NewReader(r)
	r = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err // "gzip: invalid header"
		}
		defer zr.Close()
		r = zr
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	switch {
	case err != nil:
		return nil, err
	case int64(len(data)) > limit:
		return nil, fmt.Errorf("larger than %d MB", limit>>20)
	}
	return data, nil
}
