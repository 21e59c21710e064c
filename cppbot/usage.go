package cppbot

import (
	"sync/atomic"
	"time"
)

// Usage is what a bot's own processes used in one game, measured from
// /proc when the game ended (Process.Finish): from the start of the
// process, so the construction of the player and the loading of its data
// count, to its answer to the last round. The sandbox's processes around
// the bot do not count.
type Usage struct {
	// User and Sys are the CPU time in user and in kernel mode, in
	// multiples of the kernel's clock tick (10 ms on Linux).
	User, Sys time.Duration
	// PeakRSS is the peak resident set size in bytes (VmHWM).
	PeakRSS int64
}

// CPU returns the CPU time, user and system.
func (u Usage) CPU() time.Duration { return u.User + u.Sys }

// cpuUser and cpuSys add up the CPU time of the bots that finished their
// game (Process.Finish), each bot's whole process tree, sandbox included,
// in nanoseconds.
var cpuUser, cpuSys atomic.Int64

// FinishedCPU returns the CPU time used by the bots of this process that
// finished their game, each bot's whole process tree (the sandbox's
// processes included) measured when its game ended (from /proc; ok is
// false where the system does not tell). The difference over a game is
// what its bots used.
func FinishedCPU() (user, sys time.Duration, ok bool) {
	return time.Duration(cpuUser.Load()), time.Duration(cpuSys.Load()), supportsTreeCPU
}

// MeasuresUsage reports whether this system tells what bots use (Usages
// is empty where it does not).
func MeasuresUsage() bool { return supportsTreeCPU }

// keptUsages is how many usages a Program keeps: the most recent ones,
// so that a program that plays for ever holds bounded memory.
const keptUsages = 64

// Usages returns what each bot of the program whose game ended used, in
// the order the games ended: the last 64 at most (none where the system
// does not tell). A bot that failed before the end of its game has no
// entry.
func (p *Program) Usages() []Usage {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Usage(nil), p.usages...)
}

// record adds the usage of a bot whose game ended.
func (p *Program) record(u Usage) {
	p.mu.Lock()
	if len(p.usages) == keptUsages {
		p.usages = append(p.usages[:0], p.usages[1:]...)
	}
	p.usages = append(p.usages, u)
	p.mu.Unlock()
}
