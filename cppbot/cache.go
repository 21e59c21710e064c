package cppbot

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The compiled bots of a cache directory (Options.CacheDir) are kept in
// bots/<key>/<name>, one folder per build, and bounded in bytes
// (Options.CacheBytes): when a new build passes the bound, the builds used
// least recently are removed first. A build is used when it is compiled,
// found in the cache, or starts a process (its file's modification time
// records that, for every process sharing the directory). Builds held by a
// Program of this process, or used in the last freshFor, are kept: the
// bound may be passed by what is in use, never by what is not.

// Defaults of the compiled-bot cache and builds.
const (
	// DefaultCacheBytes bounds the compiled bots kept on disk.
	DefaultCacheBytes = 2 << 30
	// DefaultMaxExecutableBytes bounds a compiled bot (and its object).
	DefaultMaxExecutableBytes = 64 << 20
)

// freshFor is how long after its last use a build is never evicted: from
// its compilation to its Program's first process, and for processes of
// other programs sharing the directory. (A variable for the tests.)
var freshFor = 30 * time.Second

// ErrTooBig is wrapped by the error of a build whose output passes
// Options.MaxExecutableBytes.
var ErrTooBig = errors.New("cppbot: the compiled bot is too large")

// diskCache is the accounting of one cache directory's builds, shared by
// every build of the process that uses the directory.
type diskCache struct {
	dir string

	mu      sync.Mutex
	scanned bool
	entries map[string]*cacheEntry // by folder (bots/<key>)
	total   int64
}

type cacheEntry struct {
	size int64
	used time.Time
	pins int // Programs of this process holding it
}

var (
	cachesMu sync.Mutex
	caches   = map[string]*diskCache{}
)

// cacheOf returns the accounting of the cache directory dir.
func cacheOf(dir string) *diskCache {
	cachesMu.Lock()
	defer cachesMu.Unlock()
	dc, ok := caches[dir]
	if !ok {
		dc = &diskCache{dir: dir, entries: map[string]*cacheEntry{}}
		caches[dir] = dc
	}
	return dc
}

// scan reads the builds already on disk once. Call with dc.mu held.
func (dc *diskCache) scan() {
	if dc.scanned {
		return
	}
	dc.scanned = true
	dirs, _ := os.ReadDir(filepath.Join(dc.dir, "bots"))
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		folder := filepath.Join(dc.dir, "bots", d.Name())
		files, _ := os.ReadDir(folder)
		e := &cacheEntry{}
		for _, f := range files {
			if fi, err := f.Info(); err == nil && fi.Mode().IsRegular() {
				e.size += fi.Size()
				e.used = later(e.used, fi.ModTime())
			}
		}
		dc.entries[folder] = e
		dc.total += e.size
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// hit reports whether the build exe is in the cache, and marks it used.
func (dc *diskCache) hit(exe string) bool {
	fi, err := os.Stat(exe)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	dc.touch(exe)
	return true
}

// holds reports whether exe is a build of the cache (bots/<key>/<name>).
func (dc *diskCache) holds(exe string) bool {
	return filepath.Dir(filepath.Dir(exe)) == filepath.Join(dc.dir, "bots")
}

// touch marks the build exe used, for this process and on disk.
func (dc *diskCache) touch(exe string) {
	if !dc.holds(exe) {
		return
	}
	now := time.Now()
	_ = os.Chtimes(exe, now, now) // best effort: the order of eviction only
	dc.mu.Lock()
	dc.scan()
	if e, ok := dc.entries[filepath.Dir(exe)]; ok {
		e.used = now
	}
	dc.mu.Unlock()
}

// add records a new build of size bytes, then removes the least recently
// used builds (neither pinned nor fresh) until the cache is within limit.
func (dc *diskCache) add(exe string, size, limit int64) {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	dc.scan()
	folder := filepath.Dir(exe)
	if old, ok := dc.entries[folder]; ok {
		dc.total -= old.size
	}
	dc.entries[folder] = &cacheEntry{size: size, used: time.Now()}
	dc.total += size
	for dc.total > limit {
		var oldest string
		var oe *cacheEntry
		for f, e := range dc.entries {
			if e.pins > 0 || time.Since(e.used) < freshFor {
				continue
			}
			if oe == nil || e.used.Before(oe.used) {
				oldest, oe = f, e
			}
		}
		if oe == nil {
			return // everything left is in use
		}
		if err := os.RemoveAll(oldest); err != nil {
			return
		}
		delete(dc.entries, oldest)
		dc.total -= oe.size
	}
}

// pin keeps the build exe from eviction until unpin.
func (dc *diskCache) pin(exe string, delta int) {
	if !dc.holds(exe) {
		return
	}
	dc.mu.Lock()
	defer dc.mu.Unlock()
	dc.scan()
	folder := filepath.Dir(exe)
	e, ok := dc.entries[folder]
	if !ok {
		// Built by another process after the scan.
		fi, err := os.Stat(exe)
		if err != nil {
			return
		}
		e = &cacheEntry{size: fi.Size(), used: time.Now()}
		dc.entries[folder] = e
		dc.total += e.size
	}
	e.pins += delta
}

// usage returns the bytes of builds the cache holds.
func (dc *diskCache) usage() int64 {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	dc.scan()
	return dc.total
}

// CacheUsage returns the bytes of compiled bots kept in the cache
// directory of opts, as this process counts them.
func CacheUsage(opts Options) int64 { return cacheOf(opts.cacheDir()).usage() }

// cappedFile writes at most limit bytes to a file; past them it fails
// with ErrTooBig (the compiler's output pipe is then closed).
type cappedFile struct {
	f     *os.File
	limit int64
	n     int64
	over  bool
}

func (w *cappedFile) Write(p []byte) (int, error) {
	if w.n+int64(len(p)) > w.limit {
		w.over = true
		return 0, fmt.Errorf("%w: over %d bytes", ErrTooBig, w.limit)
	}
	n, err := w.f.Write(p)
	w.n += int64(n)
	return n, err
}

// tempFile makes a file for a build's output in the cache directory (the
// disk of the cache, not memory).
func tempFile(cache string) (*os.File, error) {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, fmt.Errorf("cppbot: cache: %w", err)
	}
	f, err := os.CreateTemp(cache, "tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cppbot: cache: %w", err)
	}
	return f, nil
}

// removeTemp closes and removes a temporary file.
func removeTemp(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}

// rewind makes f readable from its start, for the next stage.
func rewind(f *os.File) error {
	_, err := f.Seek(0, io.SeekStart)
	return err
}
