package main

import (
	"io"
	"path/filepath"
	"strings"

	"jgym/env/crematoria"
)

// botPrefix resolves bot names of the form prefix:PATH (exported policies,
// C++ bots).
type botPrefix struct {
	prefix string
	help   string
	open   func(path string) (crematoria.BotFactory, io.Closer, error)
}

var botPrefixes []botPrefix

// resolveBot turns a seat name into a bot factory: a registered bot name, or
// prefix:PATH. The closer, if any, releases what the bot holds.
func resolveBot(name string) (crematoria.BotFactory, io.Closer, error) {
	for _, p := range botPrefixes {
		if path, ok := strings.CutPrefix(name, p.prefix+":"); ok {
			return p.open(path)
		}
	}
	f, err := crematoria.LookupBot(name)
	return f, nil, err
}

// traceName is the name written in the trace for a seat: the bot name, or
// the file's base name without extension for prefix:PATH seats.
func traceName(name string) string {
	if i := strings.Index(name, ":"); i >= 0 {
		base := filepath.Base(name[i+1:])
		base = strings.TrimSuffix(base, filepath.Ext(base))
		base = strings.TrimPrefix(base, "AI")
		if len(base) > 12 {
			base = base[:12]
		}
		return base
	}
	return name
}
