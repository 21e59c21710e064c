package cppbot

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"jgym/env"
)

// ErrBusy is wrapped by the error of a build that found every compile slot
// of its CompileLimit taken for too long; it wraps env.ErrBusy.
var ErrBusy = fmt.Errorf("cppbot: %w: every compile slot is taken", env.ErrBusy)

// CompileLimit caps the compilers that run at once, over every build that
// shares it (Options.Compiles): jgym serve gives one to all its clients,
// so that uploads cannot take every core and the memory of many
// compilers. A build waits for a slot at most Wait, in a queue of at most
// four builds per slot; past either it fails with ErrBusy. Builds found in
// the cache take no slot. It is safe for concurrent use.
type CompileLimit struct {
	slots   chan struct{}
	wait    time.Duration
	waiting atomic.Int32
}

// NewCompileLimit returns a limit of n compilers at once (at least 1),
// with builds waiting at most wait for a slot.
func NewCompileLimit(n int, wait time.Duration) *CompileLimit {
	return &CompileLimit{slots: make(chan struct{}, max(n, 1)), wait: wait}
}

// Running returns the builds holding a slot.
func (l *CompileLimit) Running() int {
	if l == nil {
		return 0
	}
	return len(l.slots)
}

// acquire takes a slot (a nil limit has all the slots), and returns the
// function that gives it back.
func (l *CompileLimit) acquire(ctx context.Context) (release func(), err error) {
	if l == nil {
		return func() {}, nil
	}
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	default:
	}
	if int(l.waiting.Add(1)) > 4*cap(l.slots) {
		l.waiting.Add(-1)
		return nil, fmt.Errorf("%w (%d compiling, %d more waiting): try again later", ErrBusy, cap(l.slots), 4*cap(l.slots))
	}
	defer l.waiting.Add(-1)
	t := time.NewTimer(l.wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	case <-t.C:
		return nil, fmt.Errorf("%w (%d compiling) for %v: try again later", ErrBusy, cap(l.slots), l.wait)
	case <-ctx.Done():
		return nil, fmt.Errorf("cppbot: waiting for a compile slot: %w", ctx.Err())
	}
}

func (l *CompileLimit) release() { <-l.slots }
