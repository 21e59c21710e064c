package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"

	"jgym/viewer"
)

func init() {
	register(&command{
		name:  "view",
		usage: "[TRACE] [--addr 127.0.0.1:8080] [--open]",
		short: "replay a .res trace (plain or gzipped) in the browser",
		run:   runView,
	})
}

func runView(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["view"]
	fs := newFlagSet(c, stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to serve the viewer on; use 127.0.0.1:0 for any free port")
	open := fs.Bool("open", false, "open the page in the default browser (xdg-open)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageErr("want at most one trace, got %d", len(pos))
	}
	var trace []byte
	name := ""
	if len(pos) == 1 {
		if trace, err = viewer.LoadTrace(pos[0]); err != nil {
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
	})
}
