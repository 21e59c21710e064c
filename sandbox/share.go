package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// shareDir holds the files that sandboxes bind read-only (File.Shared):
// a directory of jgym's, mode 0711, that the sandbox's user may cross
// but not list, with one hard link (or, where a link cannot be made, one
// copy) per file, under a random name, kept while a sandbox uses it. Every
// process of a bot maps the same pages: nothing is copied per process.
type shareDir struct {
	mu    sync.Mutex
	dir   string
	files map[fileKey]*sharedFile
}

type fileKey struct{ dev, ino uint64 }

type sharedFile struct {
	path string
	refs int
}

var shares = &shareDir{files: map[fileKey]*sharedFile{}}

// acquire returns the path of f in the share directory, readable and
// executable as mode says by any user, and the function that releases it.
func (s *shareDir) acquire(f *os.File, mode os.FileMode) (string, func(), error) {
	fi, err := f.Stat()
	if err != nil {
		return "", nil, fmt.Errorf("sandbox: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return "", nil, fmt.Errorf("sandbox: %s is not a regular file", f.Name())
	}
	key := fileKey{uint64(st.Dev), uint64(st.Ino)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sf, ok := s.files[key]; ok {
		sf.refs++
		return sf.path, s.releaser(key), nil
	}
	if s.dir == "" {
		removeStaleShares()
		d, err := os.MkdirTemp("", fmt.Sprintf("jgym-share-%d-", os.Getpid()))
		if err != nil {
			return "", nil, fmt.Errorf("sandbox: %w", err)
		}
		if err := os.Chmod(d, 0o711); err != nil {
			os.Remove(d)
			return "", nil, fmt.Errorf("sandbox: %w", err)
		}
		s.dir = d
	}
	var rnd [12]byte
	rand.Read(rnd[:])
	dst := filepath.Join(s.dir, hex.EncodeToString(rnd[:]))
	if err := linkOrCopy(f, fi, dst, mode.Perm()); err != nil {
		return "", nil, err
	}
	s.files[key] = &sharedFile{path: dst, refs: 1}
	return dst, s.releaser(key), nil
}

// linkOrCopy makes dst the file f: a hard link when f's own mode grants
// perm, else a copy with mode perm.
func linkOrCopy(f *os.File, fi os.FileInfo, dst string, perm os.FileMode) error {
	if fi.Mode().Perm()&perm == perm && f.Name() != "" {
		if err := os.Link(f.Name(), dst); err == nil {
			// The name may have been replaced since f was opened: the link
			// must be f's file.
			if li, err := os.Stat(dst); err == nil && os.SameFile(li, fi) {
				return nil
			}
			os.Remove(dst)
		}
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	_, err = io.Copy(out, io.NewSectionReader(f, 0, fi.Size()))
	if err == nil {
		err = out.Chmod(perm)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
		return fmt.Errorf("sandbox: copy a shared file: %w", err)
	}
	return nil
}

// removeStaleShares removes the share directories of jgym processes
// that are gone.
func removeStaleShares() {
	ents, _ := os.ReadDir(os.TempDir())
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "jgym-share-")
		pid, _, ok2 := strings.Cut(rest, "-")
		n, err := strconv.Atoi(pid)
		if ok && ok2 && err == nil && n > 0 && e.IsDir() && syscall.Kill(n, 0) == syscall.ESRCH {
			os.RemoveAll(filepath.Join(os.TempDir(), e.Name()))
		}
	}
}

func (s *shareDir) releaser(key fileKey) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			sf := s.files[key]
			if sf == nil {
				return
			}
			if sf.refs--; sf.refs == 0 {
				os.Remove(sf.path)
				delete(s.files, key)
			}
		})
	}
}

// remove removes the share directory if no file is shared.
func (s *shareDir) remove() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.files) > 0 {
		return false
	}
	if s.dir != "" {
		if err := os.Remove(s.dir); err != nil && !errors.Is(err, os.ErrNotExist) {
			return false
		}
		s.dir = ""
	}
	return true
}
