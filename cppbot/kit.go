package cppbot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"jgym/sandbox"
)

// Kit is a game's implementation of the course kit that bots compile
// against: the headers of the player API and runner.cc, the program that
// connects a player to jgym (package kit holds them, one folder per game).
// The game's package makes it with NewKit and gives it to Compile.
type Kit struct {
	// Game names the game in messages ("Crematoria").
	Game string
	// Errors maps the kinds of the runner's "error <kind> <text>" lines to
	// the game's sentinel errors (e.g. "too-many-commands").
	Errors map[string]error

	files []kitFile
	sum   string
}

// kitFile is one file of a kit.
type kitFile struct {
	name string
	data []byte
}

// NewKit reads a kit from fsys: its headers (*.hh) and runner.cc. errs
// maps the runner's error kinds to the game's errors.
func NewKit(game string, fsys fs.FS, errs map[string]error) (*Kit, error) {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("cppbot: kit of %s: %w", game, err)
	}
	k := &Kit{Game: game, Errors: errs}
	h := sha256.New()
	runner := false
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".hh") || name == "runner.cc") {
			continue
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("cppbot: kit of %s: %w", game, err)
		}
		runner = runner || name == "runner.cc"
		k.files = append(k.files, kitFile{name, b})
	}
	if !runner {
		return nil, errors.New("cppbot: kit of " + game + " has no runner.cc")
	}
	sort.Slice(k.files, func(a, b int) bool { return k.files[a].name < k.files[b].name })
	for _, f := range k.files {
		fmt.Fprintf(h, "%s %d\n", f.name, len(f.data))
		h.Write(f.data)
	}
	k.sum = hex.EncodeToString(h.Sum(nil))
	return k, nil
}

// Files returns the names of the kit's files.
func (k *Kit) Files() []string {
	names := make([]string, len(k.files))
	for i, f := range k.files {
		names[i] = f.name
	}
	return names
}

// sandboxFiles are the kit's files under /kit in the sandbox.
func (k *Kit) sandboxFiles() []sandbox.File {
	out := make([]sandbox.File, len(k.files))
	for i, f := range k.files {
		out[i] = sandbox.File{Path: path.Join("/kit", f.name), Data: f.data}
	}
	return out
}
