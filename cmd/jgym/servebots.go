package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"

	"jgym/cppbot"
	"jgym/env/crematoria"
	"jgym/policy"
	"jgym/server"
)

// serveBots is what jgym serve seats besides the built-in bots: files of
// the operator's bots directories ("policy:NAME", "cpp:NAME", NAME a file
// name, never a path) and the clients' uploads ("policy:@HASH/NAME").
// Nothing a request names is a path on the host: names are looked up in
// each directory through an os.Root, so that no symbolic link leads out of
// it, and only regular files of bounded size are read.
type serveBots struct {
	dirs  []string
	store *server.BotStore
	cpp   cppbot.Options

	mu     sync.Mutex
	models map[[32]byte]*policy.Model // by content hash
}

// seatPrefixes are the "prefix:NAME" seats jgym serve accepts.
var seatPrefixes = []string{"cpp", "policy"}

func newServeBots(dirs []string, store *server.BotStore, cpp cppbot.Options) (*serveBots, error) {
	b := &serveBots{store: store, cpp: cpp, models: map[[32]byte]*policy.Model{}}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil || !fi.IsDir() {
			return nil, usageErr("--bots-dir %s: not a directory", d)
		}
		b.dirs = append(b.dirs, abs)
	}
	return b, nil
}

// resolve seats a bot of a session.
func (b *serveBots) resolve(name string) (crematoria.BotFactory, io.Closer, error) {
	prefix, rest, ok := strings.Cut(name, ":")
	if !ok {
		f, err := crematoria.LookupBot(name)
		if err != nil {
			return nil, nil, fmt.Errorf("%w (or prefix:NAME with prefix %s: a file of the server's bots directories, or an upload)", err, strings.Join(seatPrefixes, " or "))
		}
		return f, nil, nil
	}
	file, data, offered, err := b.content(prefix, rest)
	if err != nil {
		return nil, nil, err
	}
	switch prefix {
	case "policy":
		m, err := b.model(data)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", file, err)
		}
		return crematoria.PolicyFactory(m), nil, nil
	case "cpp":
		k, err := crematoria.CppKit()
		if err != nil {
			return nil, nil, err
		}
		exe, err := cppbot.CompileSource(file, data, k, b.cpp)
		if err != nil {
			if offered && errors.Is(err, cppbot.ErrCompile) {
				// Not the operator's source text to a client.
				return nil, nil, fmt.Errorf("%s does not compile on this server (its operator sees why with: jgym match cpp:%s Null Null Null)", file, file)
			}
			return nil, nil, err
		}
		prog := cppbot.NewProgram(exe, file, k, b.cpp)
		return crematoria.CppFactory(prog), prog, nil
	}
	return nil, nil, fmt.Errorf("%w %q (prefixes: %s)", crematoria.ErrUnknownBot, prefix, strings.Join(seatPrefixes, ", "))
}

// content returns the file name and bytes of a "prefix:NAME" seat: an
// upload, or a file of the bots directories (offered).
func (b *serveBots) content(prefix, rest string) (file string, data []byte, offered bool, err error) {
	if hash, name, ok := server.ParseUploadRef(rest); ok {
		_, data, ok := b.store.Get(prefix, hash)
		if !ok {
			return "", nil, false, fmt.Errorf("%w: no upload %s (upload it again)", crematoria.ErrUnknownBot, hash)
		}
		return name, data, false, nil
	}
	if !server.ValidBotFile(rest) {
		return "", nil, false, fmt.Errorf("%s:%.40q: a file name of the server's bots directories, not a path", prefix, rest)
	}
	data, err = b.readOffered(rest, b.sizeLimit(prefix))
	return rest, data, true, err
}

func (b *serveBots) sizeLimit(prefix string) int64 {
	if prefix == "cpp" {
		if b.cpp.MaxSourceBytes > 0 {
			return b.cpp.MaxSourceBytes
		}
		return cppbot.DefaultMaxSourceBytes
	}
	return policy.MaxFileBytes
}

// readOffered reads name from the first bots directory that has it: a
// regular file (no FIFO, device or directory) of at most limit bytes,
// reached without leaving the directory.
func (b *serveBots) readOffered(name string, limit int64) ([]byte, error) {
	for _, d := range b.dirs {
		data, err := readInRoot(d, name, limit)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return data, err
	}
	return nil, fmt.Errorf("%w: no file %q in the server's bots directories", crematoria.ErrUnknownBot, name)
}

// readInRoot reads name in dir through an os.Root.
func readInRoot(dir, name string, limit int64) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("bots directory: %w", err)
	}
	defer root.Close()
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("%s cannot be opened in its bots directory", name)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, over the limit of %d", name, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(data)) > limit {
		return nil, fmt.Errorf("%s cannot be read within %d bytes", name, limit)
	}
	return data, nil
}

// model parses an ONNX policy once per content.
func (b *serveBots) model(data []byte) (*policy.Model, error) {
	key := sha256.Sum256(data)
	b.mu.Lock()
	defer b.mu.Unlock()
	if m, ok := b.models[key]; ok {
		return m, nil
	}
	m, err := policy.Parse(data, crematoria.PolicySignature())
	if err != nil {
		return nil, err
	}
	b.models[key] = m
	return m, nil
}

// check is the server's BotCheck: an uploaded policy must load, a C++
// source must compile (in the sandbox).
func (b *serveBots) check(_ context.Context, kind, game, name string, data []byte) error {
	if game != crematoria.EnvID {
		return fmt.Errorf("uploads are for %s only", crematoria.EnvID)
	}
	switch kind {
	case "policy":
		_, err := b.model(data)
		return err
	case "cpp":
		k, err := crematoria.CppKit()
		if err != nil {
			return err
		}
		_, err = cppbot.CompileSource(name, data, k, b.cpp)
		return err
	}
	return fmt.Errorf("unknown kind %q", kind)
}

// offered lists the "prefix:NAME" bots of the bots directories, for
// ListBots.
func (b *serveBots) offered(string) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range b.dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			name := e.Name()
			if !e.Type().IsRegular() || !server.ValidBotFile(name) {
				continue
			}
			var seat string
			switch filepath.Ext(name) {
			case ".onnx":
				seat = "policy:" + name
			case ".cc", ".cpp", ".o":
				seat = "cpp:" + name
			default:
				continue
			}
			if !seen[seat] {
				seen[seat] = true
				out = append(out, seat)
			}
		}
	}
	sort.Strings(out)
	return out
}
