//go:build !(linux && (amd64 || arm64))

package server

import "errors"

// memfd is the shared memory of the local channel, which this platform
// does not have (see region_linux.go).
type memfd struct {
	file interface{ Fd() uintptr }
	mem  []byte
}

func newMemfd(string, int, bool) (*memfd, error) {
	return nil, errors.New("the local channel needs Linux (memfd) on amd64 or arm64")
}

func (m *memfd) closeFile() {}
func (m *memfd) unmap()     {}

// localSupported reports whether this platform has the local channel.
const localSupported = false
