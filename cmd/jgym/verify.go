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

	"jgym/env/crematoria"
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
// game's is about 50 KB).
const maxCommandFile = 64 << 20

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
	fs.Var(&cmdArgs, "commands", "command file of the trace (SPEC §15.4 format, plain or gzipped), given once per trace,\n"+
		"or a directory holding <base>.cmd.gz for each trace <base>.res[.gz]; without it, every round\n"+
		"is checked against the rules")
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
	var cfg *crematoria.Config
	if *cfgPath != "" {
		c, err := loadConfig(*cfgPath)
		if err != nil {
			return err
		}
		cfg = &c
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

// verifyFile verifies one trace file.
func verifyFile(path string, cmds commandSource, cfg *crematoria.Config) error {
	if cmds.err != nil {
		return cmds.err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tr, err := crematoria.ParseTrace(f)
	if err != nil {
		return err
	}
	var log *crematoria.CommandLog
	if cmds.path != "" {
		if log, err = readCommandLog(cmds.path); err != nil {
			return err
		}
	}
	return crematoria.VerifyWith(tr, crematoria.VerifyOptions{Config: cfg, Commands: log})
}

// readCommandLog reads a command file, plain or gzipped.
func readCommandLog(path string) (*crematoria.CommandLog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("commands: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("commands %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	data, err := io.ReadAll(io.LimitReader(r, maxCommandFile+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("commands %s: %w", path, err)
	case len(data) > maxCommandFile:
		return nil, fmt.Errorf("commands %s: %w", path, errors.New("larger than 64 MB"))
	}
	log, err := crematoria.ParseCommandLog(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("commands %s: %w", path, err)
	}
	return log, nil
}
