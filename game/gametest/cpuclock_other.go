//go:build !linux

package gametest

import "time"

var clockStart = time.Now()

// threadCPU returns the wall time since the package started: where no
// thread CPU clock is read, the benchmarks measure wall time.
func threadCPU() time.Duration { return time.Since(clockStart) }
