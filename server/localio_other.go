//go:build !(linux && (amd64 || arm64))

package server

import (
	"io"
	"net"
)

// headerIO reads and writes a local connection's headers (see
// localio_linux.go; this platform has no local channel).
type headerIO struct{ c *net.UnixConn }

func newHeaderIO(c *net.UnixConn) (headerIO, error) { return headerIO{c: c}, nil }

func (h headerIO) read(b []byte) error {
	_, err := io.ReadFull(h.c, b)
	return err
}

func (h headerIO) write(b []byte) error {
	_, err := h.c.Write(b)
	return err
}
