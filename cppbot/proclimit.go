package cppbot

import (
	"fmt"
	"sync/atomic"
)

// running counts the bot processes of this package that are running.
var running atomic.Int64

// Running returns how many bot processes are running in this process, for
// metrics.
func Running() int { return int(running.Load()) }

// ProcessLimit caps the bot processes running at once over every program
// that shares it (Options.Processes): a server's cap. It is safe for
// concurrent use.
type ProcessLimit struct {
	max int64
	n   atomic.Int64
}

// NewProcessLimit returns a cap of max processes.
func NewProcessLimit(max int) *ProcessLimit { return &ProcessLimit{max: int64(max)} }

// Max returns the cap.
func (l *ProcessLimit) Max() int { return int(l.max) }

// InUse returns the processes counted against the cap.
func (l *ProcessLimit) InUse() int { return int(l.n.Load()) }

// acquire counts one process, or fails when the cap is reached.
func (l *ProcessLimit) acquire() error {
	if l == nil {
		return nil
	}
	if l.n.Add(1) > l.max {
		l.n.Add(-1)
		return fmt.Errorf("the limit of %d C++ bot processes running at once is reached", l.max)
	}
	return nil
}

func (l *ProcessLimit) release() {
	if l != nil {
		l.n.Add(-1)
	}
}
