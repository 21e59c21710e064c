package cppbot

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// The kit files: a copy of kit/crematoria (headers and runner) kept in sync
// by TestEmbeddedKitMatchesRepository.
//
//go:generate sh -c "cp ../../../kit/crematoria/*.hh ../../../kit/crematoria/runner.cc kit/"
//go:embed kit/*.hh kit/runner.cc
var kitFS embed.FS

// kitFile is one embedded kit file.
type kitFile struct {
	name string
	data []byte
}

var (
	kitOnce  sync.Once
	kitFiles []kitFile
	kitSum   string
)

// kit returns the embedded kit files, sorted by name, and their hash.
func kit() ([]kitFile, string) {
	kitOnce.Do(func() {
		ents, err := fs.ReadDir(kitFS, "kit")
		if err != nil {
			panic(err) // embedded: cannot fail
		}
		h := sha256.New()
		for _, e := range ents {
			b, err := kitFS.ReadFile("kit/" + e.Name())
			if err != nil {
				panic(err)
			}
			kitFiles = append(kitFiles, kitFile{e.Name(), b})
		}
		sort.Slice(kitFiles, func(a, b int) bool { return kitFiles[a].name < kitFiles[b].name })
		for _, f := range kitFiles {
			fmt.Fprintf(h, "%s %d\n", f.name, len(f.data))
			h.Write(f.data)
		}
		kitSum = hex.EncodeToString(h.Sum(nil))
	})
	return kitFiles, kitSum
}

// KitFiles returns the names of the kit files embedded in the package.
func KitFiles() []string {
	fs, _ := kit()
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	return names
}

// ensureKit writes the kit files to cache/kit-<hash> (once; concurrent
// callers and processes are safe) and returns the directory.
func ensureKit(cache string) (string, error) {
	files, sum := kit()
	dir := filepath.Join(cache, "kit-"+sum[:16])
	if _, err := os.Stat(filepath.Join(dir, "runner.cc")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("cppbot: cache: %w", err)
	}
	tmp, err := os.MkdirTemp(cache, "tmp-kit-")
	if err != nil {
		return "", fmt.Errorf("cppbot: cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(tmp, f.name), f.data, 0o644); err != nil {
			return "", fmt.Errorf("cppbot: write kit: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have written it first.
		if _, serr := os.Stat(filepath.Join(dir, "runner.cc")); serr == nil {
			return dir, nil
		}
		return "", fmt.Errorf("cppbot: write kit: %w", err)
	}
	return dir, nil
}
