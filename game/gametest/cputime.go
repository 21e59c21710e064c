package gametest

import "syscall"

// cpuTime is the CPU time the process has used (user and system), in
// nanoseconds: on a busy machine a benchmark's wall time per operation
// is not its cost, this is (the garbage collector's share included).
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
