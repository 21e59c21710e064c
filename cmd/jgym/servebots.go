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

	"jgym/arena"
	"jgym/cppbot"
	"jgym/env"
	"jgym/policy"
	"jgym/sandbox"
	"jgym/server"
)

// serveBots is the arena.Loader of jgym serve: it loads the files of
// the operator's bots directories ("policy:NAME", "cpp:NAME", NAME a file
// name, never a path) and the clients' uploads ("policy:@HASH/NAME").
// Nothing a request names is a path on the host: names are looked up in
// each directory through an os.Root, so that no symbolic link leads out of
// it, and only regular files of bounded size are read.
type serveBots struct {
	dirs      []string
	store     *server.BotStore
	cpp       cppbot.Options        // the bots directories'
	uploadCpp cppbot.Options        // the clients' uploads' (RequireCounted unless the operator opted out)
	games     map[string]arena.Game // by env id, for uploads (host)

	mu     sync.Mutex
	models map[modelKey]*policy.Model
}

// modelKey identifies a policy by its content and the observation it was
// checked against.
type modelKey struct {
	hash        [32]byte
	observation string
}

var (
	_ arena.Loader    = (*serveBots)(nil)
	_ arena.Describer = (*serveBots)(nil)
)

func newServeBots(dirs []string, store *server.BotStore, cpp cppbot.Options) (*serveBots, error) {
	b := &serveBots{store: store, cpp: cpp, uploadCpp: cpp, games: map[string]arena.Game{}, models: map[modelKey]*policy.Model{}}
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

// host returns the envs of the games, seating their bots through b, and
// takes uploads for them.
func (b *serveBots) host(gs []tableGame) []env.Game {
	envs := make([]env.Game, len(gs))
	for i, g := range gs {
		envs[i] = g.Env(b)
		b.games[envs[i].Spec().ID] = g.Game
	}
	return envs
}

// Describe says where the references of prefix seats point.
func (b *serveBots) Describe() string { return "a file of the server's bots directories, or an upload" }

// Policy loads the policy of a "policy:" seat.
func (b *serveBots) Policy(ref string, sig policy.Signature) (*policy.Model, error) {
	file, data, _, err := b.content("policy", ref)
	if err != nil {
		return nil, err
	}
	m, err := b.model(data, sig)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return m, nil
}

// Cpp compiles the bot of a "cpp:" seat (in the sandbox).
func (b *serveBots) Cpp(ref string, k *cppbot.Kit) (*cppbot.Program, error) {
	file, data, offered, err := b.content("cpp", ref)
	if err != nil {
		return nil, err
	}
	opts := b.cpp
	if !offered {
		opts = b.uploadCpp
	}
	exe, err := cppbot.CompileSource(file, data, k, opts)
	if err != nil {
		if errors.Is(err, sandbox.ErrUncounted) {
			return nil, errUncountedUpload
		}
		if offered && errors.Is(err, cppbot.ErrCompile) {
			// Not the operator's source text to a client.
			game := ""
			if !strings.EqualFold(k.Game, defaultGame().Name()) {
				game = "--game " + strings.ToLower(k.Game) + " "
			}
			return nil, fmt.Errorf("%s does not compile on this server (its operator sees why with: jgym match %scpp:%s Null Null Null)", file, game, file)
		}
		return nil, err
	}
	return cppbot.NewProgram(exe, file, k, opts), nil
}

// errUncountedUpload refuses an uploaded C++ bot where the sandbox has no
// control groups (the reason, with the machine's paths, is in the
// operator's log, not in the client's error).
var errUncountedUpload = errors.New("this server does not host uploaded C++ bots: its machine gives their sandboxes no control groups to count the memory and CPU of all their processes (its operator may allow them with --allow-uncounted-cpp-uploads)")

// content returns the file name and bytes of a "prefix:NAME" seat: an
// upload, or a file of the bots directories (offered).
func (b *serveBots) content(prefix, rest string) (file string, data []byte, offered bool, err error) {
	if hash, name, ok := server.ParseUploadRef(rest); ok {
		_, data, ok := b.store.Get(prefix, hash)
		if !ok {
			return "", nil, false, fmt.Errorf("%w: no upload %s (upload it again)", env.ErrUnknownBot, hash)
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
	return nil, fmt.Errorf("%w: no file %q in the server's bots directories", env.ErrUnknownBot, name)
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

// model parses an ONNX policy once per content and game.
func (b *serveBots) model(data []byte, sig policy.Signature) (*policy.Model, error) {
	key := modelKey{sha256.Sum256(data), sig.ObservationVersion}
	b.mu.Lock()
	defer b.mu.Unlock()
	if m, ok := b.models[key]; ok {
		return m, nil
	}
	m, err := policy.Parse(data, sig)
	if err != nil {
		return nil, err
	}
	b.models[key] = m
	return m, nil
}

// check is the server's BotCheck: an uploaded policy must load, a C++
// source must compile (in the sandbox), for the game. It returns the size
// of the C++ bot's executable, which the server counts against the
// client's quota; a compile that found every compiler slot taken is
// an error wrapping env.ErrBusy (ResourceExhausted).
func (b *serveBots) check(ctx context.Context, kind, game, name string, data []byte) (int64, error) {
	g, ok := b.games[game]
	if !ok {
		ids := make([]string, 0, len(b.games))
		for id := range b.games {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		return 0, fmt.Errorf("uploads are for %s only", strings.Join(ids, ", "))
	}
	if kind != "policy" && kind != "cpp" {
		return 0, fmt.Errorf("unknown kind %q", kind)
	}
	u := &uploadCheck{ctx: ctx, b: b, name: name, data: data}
	p, err := g.NewPlayer(kind+":"+name, u)
	if err != nil {
		return 0, err
	}
	if err := p.Close(); err != nil {
		return 0, err
	}
	var kept int64
	if u.exe != "" {
		if fi, err := os.Stat(u.exe); err == nil {
			kept = fi.Size()
		}
	}
	return kept, nil
}

// uploadCheck loads an upload's content for check, before it is stored.
type uploadCheck struct {
	ctx  context.Context // the upload's: a client that leaves stops its build
	b    *serveBots
	name string
	data []byte
	exe  string // the C++ bot's executable, once compiled
}

func (u *uploadCheck) Policy(_ string, sig policy.Signature) (*policy.Model, error) {
	return u.b.model(u.data, sig)
}

func (u *uploadCheck) Cpp(_ string, k *cppbot.Kit) (*cppbot.Program, error) {
	exe, err := cppbot.CompileSourceContext(u.ctx, u.name, u.data, k, u.b.uploadCpp)
	if errors.Is(err, sandbox.ErrUncounted) {
		return nil, errUncountedUpload
	}
	if err != nil {
		return nil, err
	}
	u.exe = exe
	return cppbot.NewProgram(exe, u.name, k, u.b.uploadCpp), nil
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
