package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"

	"jgym/server"
	"jgym/viewer"
)

func init() {
	register(&command{
		name:  "view",
		usage: "[TRACE] [--addr 127.0.0.1:8080] [--open] [--max-trace-bytes 256MiB] [--allow-host NAME] [--insecure]",
		short: "replay a .res trace (plain or gzipped) in the browser",
		run:   runView,
	})
}

func runView(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["view"]
	fs := newFlagSet(c, stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to serve the viewer on; use 127.0.0.1:0 for any free port")
	open := fs.Bool("open", false, "open the page in the default browser (xdg-open)")
	maxBytes := fs.String("max-trace-bytes", "256MiB", "largest trace read, as a file and decompressed (K, M, G suffixes)")
	var hosts []string
	fs.Var(stringsFlag{&hosts}, "allow-host", "also answer requests whose Host header is NAME (repeatable; the viewer answers only its own address and localhost, against DNS rebinding)")
	insecure := fs.Bool("insecure", false, "allow --addr beyond loopback: the viewer has no token or TLS, whoever reaches it reads the trace")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageErr("want at most one trace, got %d", len(pos))
	}
	limit, err := server.ParseBytes(*maxBytes)
	if err != nil || limit < 1 {
		return usageErr("bad --max-trace-bytes %q: want a size such as 256MiB", *maxBytes)
	}
	if !viewer.IsLoopback(*addr) && !*insecure {
		return usageErr("listening on %s, beyond loopback, needs --insecure: the viewer has no token or TLS, so anyone who reaches the address reads the trace (docs/viewer.md)", *addr)
	}
	opts := []viewer.Option{viewer.WithAllowedHosts(hosts...)}
	if *insecure {
		opts = append(opts, viewer.WithInsecure())
	}
	var trace []byte
	name := ""
	if len(pos) == 1 {
		if trace, err = viewer.LoadTraceLimit(pos[0], limit); err != nil {
			return err
		}
		name = filepath.Base(pos[0])
	}
	return viewer.Serve(ctx, *addr, trace, name, func(url string) {
		fmt.Fprintf(stdout, "jgym viewer: %s (Ctrl-C to stop)\n", url)
		if *open {
			if err := exec.Command("xdg-open", url).Start(); err != nil {
				fmt.Fprintf(stderr, "jgym view: cannot open a browser: %v\n", err)
			}
		}
	}, opts...)
}
