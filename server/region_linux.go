//go:build linux && (amd64 || arm64)

package server

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// Flags and seals of memfd_create(2) and fcntl(2) that package syscall
// does not name.
const (
	mfdCloexec       = 0x1
	mfdAllowSealing  = 0x2
	fAddSeals        = 1033
	fSealSeal        = 0x1
	fSealShrink      = 0x2
	fSealGrow        = 0x4
	fSealFutureWrite = 0x10
)

// memfd is one anonymous shared-memory file: its descriptor (handed to
// the client, then closed) and the server's mapping of it.
type memfd struct {
	file *os.File
	mem  []byte
}

// newMemfd makes an anonymous file of size bytes (nothing on disk: it
// lives while a descriptor or a mapping of it does), maps it and seals its
// size, so that a client cannot shrink it under the server's mapping (an
// access past the end would kill the server). readOnly also seals future
// writable mappings: the client can map it for reading only, while the
// server's own mapping stays writable.
func newMemfd(name string, size int, readOnly bool) (*memfd, error) {
	if size < 1 {
		size = 1
	}
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return nil, err
	}
	fd, _, errno := syscall.Syscall(sysMemfdCreate, uintptr(unsafe.Pointer(p)), mfdCloexec|mfdAllowSealing, 0)
	if errno != 0 {
		return nil, fmt.Errorf("memfd_create: %w", errno)
	}
	f := os.NewFile(fd, name)
	if err := f.Truncate(int64(size)); err != nil {
		f.Close()
		return nil, fmt.Errorf("sizing the shared memory: %w", err)
	}
	mem, err := syscall.Mmap(int(fd), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("mapping the shared memory: %w", err)
	}
	seals := fSealShrink | fSealGrow | fSealSeal
	if readOnly {
		seals |= fSealFutureWrite
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, fAddSeals, uintptr(seals)); errno != 0 {
		syscall.Munmap(mem)
		f.Close()
		return nil, fmt.Errorf("sealing the shared memory: %w", errno)
	}
	return &memfd{file: f, mem: mem}, nil
}

// closeFile closes the server's descriptor (once handed over).
func (m *memfd) closeFile() {
	if m.file != nil {
		m.file.Close()
		m.file = nil
	}
}

// unmap releases the server's mapping and descriptor.
func (m *memfd) unmap() {
	m.closeFile()
	if m.mem != nil {
		syscall.Munmap(m.mem)
		m.mem = nil
	}
}

// localSupported reports whether this platform has the local channel.
const localSupported = true
