package cppbot

import (
	"path/filepath"
	"strings"
	"sync"
)

// Program is a compiled C++ bot. Each seat it takes gets its own Bot and
// process.
type Program struct {
	// Path is the bot's executable.
	Path string
	// Name names the bot in errors: the file name without "AI" and the
	// extension (AIMine.cc: Mine).
	Name string
	// Src is the file the bot was built from.
	Src string

	kit  *Kit
	opts Options

	mu     sync.Mutex
	live   map[*Process]struct{}
	closed bool
	usages []Usage // of the last bots whose game ended, in that order (usage.go)
}

// Open compiles src (AI<Name>.cc, or a prebuilt AI<Name>.o) with the
// game's kit and returns the program.
func Open(src string, k *Kit, opts Options) (*Program, error) {
	exe, err := Compile(src, k, opts)
	if err != nil {
		return nil, err
	}
	return NewProgram(exe, src, k, opts), nil
}

// NewProgram returns the program of an executable already built by Compile
// (or any program that speaks the runner's protocol of kit k).
// A program built in the cache keeps its executable from eviction until
// it is closed.
func NewProgram(exe, src string, k *Kit, opts Options) *Program {
	cacheOf(opts.cacheDir()).pin(exe, 1)
	return &Program{Path: exe, Name: BotName(src), Src: src, kit: k, opts: opts, live: map[*Process]struct{}{}}
}

// BotName returns the name of the bot in file path: the base name without
// the extension and without the "AI" prefix.
func BotName(path string) string {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	if n := strings.TrimPrefix(base, "AI"); n != "" {
		return n
	}
	return base
}

// Start starts the bot for seat me of a game with the given seed. The
// process starts at once; a failure to start is reported by Err.
func (p *Program) Start(me, seed int) *Process {
	b := newProcess(p, me, seed)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		b.Close()
		return b
	}
	p.live[b] = struct{}{}
	p.mu.Unlock()
	cacheOf(p.opts.cacheDir()).touch(p.Path)
	b.start()
	return b
}

// forget removes a closed bot from the live set.
func (p *Program) forget(b *Process) {
	p.mu.Lock()
	delete(p.live, b)
	p.mu.Unlock()
}

// Close kills the processes of every bot of the program still running.
// Bots created afterwards are closed at once.
func (p *Program) Close() error {
	p.mu.Lock()
	if !p.closed {
		cacheOf(p.opts.cacheDir()).pin(p.Path, -1)
	}
	p.closed = true
	bots := make([]*Process, 0, len(p.live))
	for b := range p.live {
		bots = append(bots, b)
	}
	p.mu.Unlock()
	for _, b := range bots {
		b.Close()
	}
	return nil
}
