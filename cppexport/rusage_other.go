//go:build !unix

package cppexport

import "time"

// ChildrenCPU reports ok = false: this system has no getrusage.
func ChildrenCPU() (user, sys time.Duration, ok bool) { return 0, 0, false }
