package cppbot

import (
	"path/filepath"
	"strings"
	"sync"

	"jgym/env/crematoria"
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

	opts Options

	mu     sync.Mutex
	live   map[*Bot]struct{}
	closed bool
}

// Open compiles src (AI<Name>.cc, or a prebuilt AI<Name>.o) and returns the
// program.
func Open(src string, opts Options) (*Program, error) {
	exe, err := Compile(src, opts)
	if err != nil {
		return nil, err
	}
	return NewProgram(exe, src, opts), nil
}

// NewProgram returns the program of an executable already built by Compile
// (or any program that speaks the runner's protocol).
func NewProgram(exe, src string, opts Options) *Program {
	return &Program{Path: exe, Name: BotName(src), Src: src, opts: opts, live: map[*Bot]struct{}{}}
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

// NewBot starts the bot for seat me of a game with the given seed. The
// process starts at once; a failure to start is reported by Err.
func (p *Program) NewBot(me, seed int) *Bot {
	b := newBot(p, me, seed)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		b.Close()
		return b
	}
	p.live[b] = struct{}{}
	p.mu.Unlock()
	b.start()
	return b
}

// Factory returns a crematoria.BotFactory that starts a new Bot for each
// seat.
func (p *Program) Factory() crematoria.BotFactory {
	return func(me, seed int) crematoria.Bot { return p.NewBot(me, seed) }
}

// forget removes a closed bot from the live set.
func (p *Program) forget(b *Bot) {
	p.mu.Lock()
	delete(p.live, b)
	p.mu.Unlock()
}

// Close kills the processes of every bot of the program still running.
// Bots created afterwards are closed at once.
func (p *Program) Close() error {
	p.mu.Lock()
	p.closed = true
	bots := make([]*Bot, 0, len(p.live))
	for b := range p.live {
		bots = append(bots, b)
	}
	p.mu.Unlock()
	for _, b := range bots {
		b.Close()
	}
	return nil
}
