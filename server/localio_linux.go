//go:build linux && (amd64 || arm64)

package server

import (
	"io"
	"net"
	"syscall"
	"unsafe"
)

// headerIO reads and writes a local connection's 16-byte headers with
// raw system calls on its non-blocking socket, waiting in the poller
// when there is nothing to read (or no room to write).
//
// Why raw: Go's runtime monitor thread (sysmon) sleeps deeply while
// every P is idle, as the server's are while the client works on a
// batch, and the next ordinary system call (package syscall's Syscall,
// which net.Conn's Read and Write use) wakes it with its shortest
// period: it then ticks every 20 µs for the next millisecond or more,
// through the server's work on the batch, a thread switch each tick, on
// every batch. RawSyscall does not wake it: a non-blocking read or write
// of 16 bytes never blocks, and the monitor has nothing to retake from
// it.
type headerIO struct {
	c  *net.UnixConn
	rc syscall.RawConn
}

func newHeaderIO(c *net.UnixConn) (headerIO, error) {
	rc, err := c.SyscallConn()
	return headerIO{c: c, rc: rc}, err
}

// read fills b, as io.ReadFull.
func (h headerIO) read(b []byte) error {
	n := 0
	var errno syscall.Errno
	eof := false
	err := h.rc.Read(func(fd uintptr) bool {
		for n < len(b) {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch {
			case e == syscall.EINTR:
				continue
			case e == syscall.EAGAIN:
				return false // wait in the poller
			case e != 0:
				errno = e
				return true
			case r == 0:
				eof = true
				return true
			}
			n += int(r)
		}
		return true
	})
	switch {
	case err != nil:
		return err
	case errno != 0:
		return errno
	case eof && n == 0:
		return io.EOF
	case eof:
		return io.ErrUnexpectedEOF
	}
	return nil
}

// write writes all of b.
func (h headerIO) write(b []byte) error {
	n := 0
	var errno syscall.Errno
	err := h.rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch {
			case e == syscall.EINTR:
				continue
			case e == syscall.EAGAIN:
				return false
			case e != 0:
				errno = e
				return true
			}
			n += int(r)
		}
		return true
	})
	if err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}
