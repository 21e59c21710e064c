//go:build !linux

package cppbot

import "time"

func treeCPU(int) (user, sys time.Duration, ok bool) { return 0, 0, false }

const supportsTreeCPU = false
