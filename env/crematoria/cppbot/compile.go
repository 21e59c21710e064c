package cppbot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Default limits.
const (
	DefaultRoundTimeout = time.Second
	DefaultStartTimeout = 10 * time.Second
	DefaultStderrLimit  = 64 << 10
)

// Options configures compiling and running C++ bots. The zero value is
// ready to use.
type Options struct {
	// CXX is the C++ compiler; default $CXX, else g++.
	CXX string
	// Flags are extra compiler flags, after -std=c++11 -O2.
	Flags []string
	// CacheDir holds the kit, the runner object and the compiled bots;
	// default $JGYM_CPP_CACHE, else $XDG_CACHE_HOME/jgym/cpp (see
	// os.UserCacheDir), else a folder in the temporary directory.
	CacheDir string

	// RoundTimeout bounds the wall time a bot may take to answer a round;
	// default DefaultRoundTimeout.
	RoundTimeout time.Duration
	// StartTimeout bounds the wall time from starting the process to the
	// end of the player's construction; default DefaultStartTimeout.
	StartTimeout time.Duration
	// StderrLimit is how many bytes of each bot's stderr (the kit's
	// warnings and the bot's debug output) are kept, the last ones;
	// default DefaultStderrLimit.
	StderrLimit int
	// Stderr, if not nil, also receives every bot's stderr, whole. Bots
	// write to it concurrently, so it must be safe for concurrent use
	// (os.Stderr is).
	Stderr io.Writer
}

func (o Options) cxx() string {
	if o.CXX != "" {
		return o.CXX
	}
	if c := os.Getenv("CXX"); c != "" {
		return c
	}
	return "g++"
}

func (o Options) cacheDir() string {
	if o.CacheDir != "" {
		return o.CacheDir
	}
	if d := os.Getenv("JGYM_CPP_CACHE"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "jgym", "cpp")
	}
	return filepath.Join(os.TempDir(), "jgym-cpp-cache")
}

func (o Options) roundTimeout() time.Duration {
	if o.RoundTimeout > 0 {
		return o.RoundTimeout
	}
	return DefaultRoundTimeout
}

func (o Options) startTimeout() time.Duration {
	if o.StartTimeout > 0 {
		return o.StartTimeout
	}
	return DefaultStartTimeout
}

func (o Options) stderrLimit() int {
	if o.StderrLimit > 0 {
		return o.StderrLimit
	}
	return DefaultStderrLimit
}

// ErrCompile is wrapped by every *CompileError.
var ErrCompile = errors.New("compile error")

// CompileError reports a failed compilation or link, with the compiler's
// message.
type CompileError struct {
	Src    string // the bot's file
	Stage  string // "compile" or "link"
	Output string // the compiler's message, trimmed
	Err    error  // the compiler's exit status
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("cppbot: %s %s failed (%v):\n%s", e.Stage, e.Src, e.Err, e.Output)
}

// Unwrap makes errors.Is(err, ErrCompile) true.
func (e *CompileError) Unwrap() []error { return []error{ErrCompile, e.Err} }

// baseFlags are the flags of the course kit's Makefile that matter.
var baseFlags = []string{"-std=c++11", "-O2"}

// Compile builds the bot in src, an AI<Name>.cc source file or a prebuilt
// AI<Name>.o object, with the kit and the runner into an executable and
// returns its path. The result is cached by the content hash of the
// sources, the compiler's version and the flags, so compiling the same bot
// again returns at once.
func Compile(src string, opts Options) (string, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("cppbot: %w", err)
	}
	object := strings.HasSuffix(src, ".o")
	cxx := opts.cxx()
	id, err := compilerID(cxx)
	if err != nil {
		return "", err
	}
	cache := opts.cacheDir()
	kitDir, err := ensureKit(cache)
	if err != nil {
		return "", err
	}
	flags := append(append([]string{}, baseFlags...), opts.Flags...)
	_, ksum := kit()
	runnerKey := hashOf("runner", ksum, id, strings.Join(flags, "\x00"))
	kind := "cc"
	if object {
		kind = "o"
	}
	botKey := hashOf("bot", runnerKey, kind, string(data))
	exe := filepath.Join(cache, "bots", botKey[:32], exeName(src))
	if _, err := os.Stat(exe); err == nil {
		return exe, nil
	}

	unlock := lockKey(exe)
	defer unlock()
	if _, err := os.Stat(exe); err == nil {
		return exe, nil
	}
	runnerObj, err := ensureRunner(cache, kitDir, cxx, flags, runnerKey)
	if err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(cache, "tmp-bot-")
	if err != nil {
		return "", fmt.Errorf("cppbot: cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	obj := src
	var link []string
	if object {
		// Prebuilt objects may not be position independent.
		link = []string{"-no-pie"}
	} else {
		// Compile a copy, so that #include "Player.hh" finds jgym's kit
		// even when the course kit's headers lie next to the source.
		ccPath := filepath.Join(tmp, filepath.Base(src))
		if err := os.WriteFile(ccPath, data, 0o644); err != nil {
			return "", fmt.Errorf("cppbot: %w", err)
		}
		obj = ccPath + ".o"
		args := append(append([]string{}, flags...), "-I", kitDir, "-x", "c++", "-c", ccPath, "-o", obj)
		if out, err := run(cxx, args...); err != nil {
			return "", &CompileError{Src: src, Stage: "compile", Output: trimOutput(out, ccPath, src), Err: err}
		}
	}
	tmpExe := filepath.Join(tmp, "bot")
	args := append(link, "-o", tmpExe, obj, runnerObj)
	if out, err := run(cxx, args...); err != nil {
		return "", &CompileError{Src: src, Stage: "link", Output: trimOutput(out, obj, src), Err: err}
	}
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		return "", fmt.Errorf("cppbot: cache: %w", err)
	}
	if err := os.Rename(tmpExe, exe); err != nil {
		return "", fmt.Errorf("cppbot: cache: %w", err)
	}
	return exe, nil
}

// exeName names a bot's executable after its file (AIMine.cc: AIMine), so
// that it is easy to spot in a process list.
func exeName(src string) string {
	base := filepath.Base(src)
	if n := strings.TrimSuffix(base, filepath.Ext(base)); n != "" && n != "." {
		return n
	}
	return "bot"
}

// ensureRunner compiles runner.cc once per kit, compiler and flags.
func ensureRunner(cache, kitDir, cxx string, flags []string, key string) (string, error) {
	obj := filepath.Join(cache, "runner-"+key[:32]+".o")
	if _, err := os.Stat(obj); err == nil {
		return obj, nil
	}
	unlock := lockKey(obj)
	defer unlock()
	if _, err := os.Stat(obj); err == nil {
		return obj, nil
	}
	f, err := os.CreateTemp(cache, "tmp-runner-*.o")
	if err != nil {
		return "", fmt.Errorf("cppbot: cache: %w", err)
	}
	tmp := f.Name()
	f.Close()
	defer os.Remove(tmp)
	src := filepath.Join(kitDir, "runner.cc")
	args := append(append([]string{}, flags...), "-I", kitDir, "-c", src, "-o", tmp)
	if out, err := run(cxx, args...); err != nil {
		return "", &CompileError{Src: src, Stage: "compile", Output: trimOutput(out, "", ""), Err: err}
	}
	if err := os.Rename(tmp, obj); err != nil {
		return "", fmt.Errorf("cppbot: cache: %w", err)
	}
	return obj, nil
}

func run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd.CombinedOutput()
}

var (
	compilerMu  sync.Mutex
	compilerIDs = map[string]string{}
)

// compilerID identifies a compiler by its path and its version text.
func compilerID(cxx string) (string, error) {
	compilerMu.Lock()
	defer compilerMu.Unlock()
	if id, ok := compilerIDs[cxx]; ok {
		return id, nil
	}
	path, err := exec.LookPath(cxx)
	if err != nil {
		return "", fmt.Errorf("cppbot: C++ compiler %q not found (set CXX or Options.CXX): %w", cxx, err)
	}
	out, err := run(path, "--version")
	if err != nil {
		return "", fmt.Errorf("cppbot: %s --version: %w", path, err)
	}
	mach, _ := run(path, "-dumpmachine")
	id := path + "\n" + string(out) + string(mach)
	compilerIDs[cxx] = id
	return id, nil
}

func hashOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

var (
	locksMu sync.Mutex
	locks   = map[string]*sync.Mutex{}
)

// lockKey serializes the builds of one cache entry within the process
// (processes racing on the same entry both build it; the rename is atomic).
func lockKey(key string) (unlock func()) {
	locksMu.Lock()
	m, ok := locks[key]
	if !ok {
		m = &sync.Mutex{}
		locks[key] = m
	}
	locksMu.Unlock()
	m.Lock()
	return m.Unlock
}

// Compiler messages are cut to this many lines and bytes.
const (
	maxErrLines = 40
	maxErrBytes = 4000
)

// trimOutput shows the compiler's message with the user's file name in
// place of the build copy's, cut to a readable size.
func trimOutput(out []byte, tmpPath, src string) string {
	s := string(bytes.TrimSpace(out))
	if tmpPath != "" {
		s = strings.ReplaceAll(s, tmpPath, src)
	}
	lines := strings.Split(s, "\n")
	more := 0
	if len(lines) > maxErrLines {
		more = len(lines) - maxErrLines
		lines = lines[:maxErrLines]
	}
	s = strings.Join(lines, "\n")
	if len(s) > maxErrBytes {
		s = s[:maxErrBytes]
		more++
	}
	if more > 0 {
		s += fmt.Sprintf("\n... (%d more lines)", more)
	}
	return s
}
