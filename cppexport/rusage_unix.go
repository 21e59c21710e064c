//go:build unix

package cppexport

import (
	"syscall"
	"time"
)

// ChildrenCPU returns the CPU time, user and system, used so far by the
// child processes of this process that have ended and been waited for
// (getrusage RUSAGE_CHILDREN). The difference of two calls around a game
// whose only child is a C++ bot is that bot's CPU time, start-up included.
// ok is false on systems without getrusage.
func ChildrenCPU() (user, sys time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0, 0, false
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano()), true
}
