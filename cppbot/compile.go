package cppbot

import (
	"bytes"
	"context"
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
	"syscall"
	"time"

	"jgym/sandbox"
)

// Default limits.
const (
	DefaultRoundTimeout   = time.Second
	DefaultStartTimeout   = 10 * time.Second
	DefaultStderrLimit    = 64 << 10
	DefaultCompileTimeout = 2 * time.Minute
	// DefaultMaxSourceBytes bounds a bot's .cc or .o file.
	DefaultMaxSourceBytes = 4 << 20
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

	// Sandbox contains the compiler and the bots; default
	// sandbox.Default(). Where no sandbox is available, C++ bots are
	// refused.
	Sandbox *sandbox.Sandbox
	// Limits bound each bot (its sandbox: all its processes together
	// where the sandbox has control groups, else each of them); zero
	// fields take sandbox.DefaultBotLimits.
	Limits sandbox.Limits
	// CompileLimits bound each run of the compiler or linker; zero fields
	// take sandbox.DefaultCompileLimits.
	CompileLimits sandbox.Limits
	// CompileTimeout bounds the wall time of each run of the compiler or
	// linker; default DefaultCompileTimeout.
	CompileTimeout time.Duration
	// MaxSourceBytes bounds a bot's .cc or .o file; default
	// DefaultMaxSourceBytes.
	MaxSourceBytes int64
	// Processes, if not nil, caps the bot processes running at once, over
	// every program that shares it.
	Processes *ProcessLimit
	// MaxExecutableBytes bounds a bot's executable and its object file,
	// when it is built and when it starts; default
	// DefaultMaxExecutableBytes.
	MaxExecutableBytes int64
	// RequireCounted refuses to compile or start a bot where the sandbox
	// gives it no control group (sandbox.Sandbox.Counted): the error
	// wraps sandbox.ErrUncounted and says why. A server sets it for the
	// bots its clients upload.
	RequireCounted bool
	// Compiles, if not nil, caps the compilers running at once, over every
	// build that shares it (see CompileLimit).
	Compiles *CompileLimit
	// CacheBytes bounds the compiled bots kept in CacheDir (see
	// diskCache); default DefaultCacheBytes.
	CacheBytes int64
}

func (o Options) cacheBytes() int64 {
	if o.CacheBytes > 0 {
		return o.CacheBytes
	}
	return DefaultCacheBytes
}

func (o Options) sandbox() (*sandbox.Sandbox, error) {
	if o.Sandbox != nil {
		return o.Sandbox, nil
	}
	return sandbox.Default()
}

// compiler returns the compiler's path; it must lie under /usr, the one
// host folder the sandbox shows.
func (o Options) compiler() (string, error) {
	cxx := o.cxx()
	p, err := exec.LookPath(cxx)
	if err != nil {
		return "", fmt.Errorf("cppbot: C++ compiler %q not found (set CXX or Options.CXX): %w", cxx, err)
	}
	if p, err = filepath.Abs(p); err != nil {
		return "", fmt.Errorf("cppbot: %w", err)
	}
	if !strings.HasPrefix(p, "/usr/") {
		return "", fmt.Errorf("cppbot: the C++ compiler %s is not under /usr, the only host folder the sandbox shows", p)
	}
	return p, nil
}

func (o Options) compileLimits() sandbox.Limits {
	return o.CompileLimits.Or(sandbox.DefaultCompileLimits())
}

func (o Options) compileTimeout() time.Duration {
	if o.CompileTimeout > 0 {
		return o.CompileTimeout
	}
	return DefaultCompileTimeout
}

func (o Options) maxSourceBytes() int64 {
	if o.MaxSourceBytes > 0 {
		return o.MaxSourceBytes
	}
	return DefaultMaxSourceBytes
}

func (o Options) maxExecutableBytes() int64 {
	if o.MaxExecutableBytes > 0 {
		return o.MaxExecutableBytes
	}
	return DefaultMaxExecutableBytes
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
// AI<Name>.o object, with the game's kit and its runner into an
// executable and returns its path. src must be a regular file of at most
// Options.MaxSourceBytes. See CompileSource.
func Compile(src string, k *Kit, opts Options) (string, error) {
	data, err := ReadSource(src, opts.maxSourceBytes())
	if err != nil {
		return "", err
	}
	return compileData(context.Background(), src, filepath.Base(src), data, k, opts)
}

// CompileSource builds a bot from its content: name is its file name
// (AI<Name>.cc or AI<Name>.o; it picks the kind and names the executable),
// data the file's bytes. The compiler and the linker run in the sandbox
// (Options.Sandbox), within Options.CompileLimits and CompileTimeout, with
// only the kit's headers on the include path. The result is cached by the
// content hash of the sources, the compiler's version and the flags, so
// compiling the same bot again returns at once.
func CompileSource(name string, data []byte, k *Kit, opts Options) (string, error) {
	return CompileSourceContext(context.Background(), name, data, k, opts)
}

// CompileSourceContext is CompileSource for a caller that may go away
// (a client's upload): once ctx is done, a build waiting for a compile
// slot gives up and a running compiler is killed.
func CompileSourceContext(ctx context.Context, name string, data []byte, k *Kit, opts Options) (string, error) {
	if int64(len(data)) > opts.maxSourceBytes() {
		return "", fmt.Errorf("cppbot: %s is %d bytes, over the limit of %d", name, len(data), opts.maxSourceBytes())
	}
	return compileData(ctx, name, name, data, k, opts)
}

// ReadSource reads a bot's file: a regular file (no FIFO, device or
// directory) of at most limit bytes.
func ReadSource(path string, limit int64) ([]byte, error) {
	// O_NONBLOCK: opening a FIFO must not wait for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("cppbot: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cppbot: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("cppbot: %s is not a regular file", path)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("cppbot: %s is %d bytes, over the limit of %d", path, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("cppbot: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("cppbot: %s grew over the limit of %d bytes", path, limit)
	}
	return data, nil
}

// compileData compiles data; src names the bot in messages, name is its
// file name.
func compileData(ctx context.Context, src, name string, data []byte, k *Kit, opts Options) (string, error) {
	object := strings.HasSuffix(name, ".o")
	if !object && !strings.HasSuffix(name, ".cc") && !strings.HasSuffix(name, ".cpp") {
		return "", fmt.Errorf("cppbot: %s: want a C++ source (.cc) or an object (.o)", src)
	}
	sb, err := opts.sandbox()
	if err != nil {
		return "", fmt.Errorf("cppbot: C++ bots are refused: %w", err)
	}
	if opts.RequireCounted {
		if err := sb.Counted(); err != nil {
			return "", fmt.Errorf("cppbot: C++ bots are refused: %w", err)
		}
	}
	cxx, err := opts.compiler()
	if err != nil {
		return "", err
	}
	id, err := compilerID(cxx)
	if err != nil {
		return "", err
	}
	cache := opts.cacheDir()
	flags := append(append([]string{}, baseFlags...), opts.Flags...)
	runnerKey := hashOf("runner", k.sum, id, strings.Join(flags, "\x00"))
	kind := "cc"
	if object {
		kind = "o"
	}
	botKey := hashOf("bot", runnerKey, kind, string(data))
	exe := filepath.Join(cache, "bots", botKey[:32], exeName(name))
	dc := cacheOf(cache)
	if dc.hit(exe) {
		return exe, nil
	}

	unlock := lockKey(exe)
	defer unlock()
	if dc.hit(exe) {
		return exe, nil
	}
	release, err := opts.Compiles.acquire(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	c := &sandboxCompiler{ctx: ctx, sb: sb, cxx: cxx, flags: flags, opts: opts, kit: k}
	runnerObj, err := c.runner(cache, runnerKey)
	if err != nil {
		return "", err
	}
	defer runnerObj.Close()
	// Inside the sandbox the bot is /src/<name>; messages show src. Each
	// stage's output goes to a file of the cache, never to memory.
	inside := "/src/" + sandboxName(name)
	obj, err := tempFile(cache)
	if err != nil {
		return "", err
	}
	defer removeTemp(obj)
	var link []string
	if object {
		// Prebuilt objects may not be position independent.
		link = []string{"-no-pie"}
		if _, err := obj.Write(data); err != nil {
			return "", fmt.Errorf("cppbot: cache: %w", err)
		}
	} else {
		args := append(append([]string{}, flags...), "-I", "/kit", "-x", "c++", "-c", inside, "-o", "/tmp/bot.o")
		files := append(k.sandboxFiles(), sandbox.File{Path: inside, Data: data})
		msg, err := c.run(args, "/tmp/bot.o", files, obj)
		if err != nil {
			return "", &CompileError{Src: src, Stage: "compile", Output: trimOutput(msg, inside, src), Err: err}
		}
	}
	if err := rewind(obj); err != nil {
		return "", fmt.Errorf("cppbot: cache: %w", err)
	}
	out, err := tempFile(cache)
	if err != nil {
		return "", err
	}
	defer removeTemp(out)
	args := append(link, "-o", "/tmp/bot", "/src/bot.o", "/src/runner.o")
	files := []sandbox.File{{Path: "/src/bot.o", From: obj}, {Path: "/src/runner.o", From: runnerObj}}
	msg, err := c.run(args, "/tmp/bot", files, out)
	if err != nil {
		return "", &CompileError{Src: src, Stage: "link", Output: trimOutput(msg, inside, src), Err: err}
	}
	size, err := commitCache(out, exe, 0o755)
	if err != nil {
		return "", err
	}
	dc.add(exe, size, opts.cacheBytes())
	return exe, nil
}

// commitCache moves the finished temporary file tmp to path, with mode,
// and returns its size.
func commitCache(tmp *os.File, path string, mode os.FileMode) (int64, error) {
	fi, err := tmp.Stat()
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o755)
	}
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return 0, fmt.Errorf("cppbot: cache: %w", err)
	}
	return fi.Size(), nil
}

// sandboxName is name with only safe characters, for the path of the
// source inside the sandbox.
func sandboxName(name string) string {
	b := []byte(filepath.Base(name))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] == '.' {
		b = append([]byte("AI"), b...)
	}
	return string(b)
}

// sandboxCompiler runs the compiler in the sandbox.
type sandboxCompiler struct {
	ctx   context.Context // cancels the build
	sb    *sandbox.Sandbox
	cxx   string
	flags []string
	opts  Options
	kit   *Kit
}

// maxMsgBytes bounds the compiler's messages kept.
const maxMsgBytes = 64 << 10

// run runs cxx with args in the sandbox, then prints the file result to
// stdout, which goes to out (at most Options.MaxExecutableBytes), and
// returns the compiler's messages.
func (c *sandboxCompiler) run(args []string, result string, files []sandbox.File, out *os.File) (msg []byte, err error) {
	script := `"$@" && exec cat ` + result
	spec := sandbox.Spec{
		Args:   append([]string{"/usr/bin/sh", "-c", script, "sh", c.cxx}, args...),
		Files:  files,
		Limits: c.opts.compileLimits(),
	}
	cmd, err := c.sb.Command(spec)
	if err != nil {
		return nil, err
	}
	stdout := &cappedFile{f: out, limit: c.opts.maxExecutableBytes()}
	stderr := &limitedBuffer{limit: maxMsgBytes}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the sandbox: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timeout := c.opts.compileTimeout()
	select {
	case err = <-done:
	case <-time.After(timeout):
		cmd.Kill()
		<-done
		err = fmt.Errorf("no result within %v", timeout)
	case <-c.ctx.Done():
		cmd.Kill()
		<-done
		err = fmt.Errorf("stopped: %w", c.ctx.Err())
	}
	lim := cmd.Limits()
	switch {
	case err == nil:
	case cmd.CPUExceeded():
		err = fmt.Errorf("its CPU time limit of %v was reached, all its processes together", lim.CPU)
	case cmd.MemoryExceeded():
		err = fmt.Errorf("its memory limit of %d MiB was reached, all its processes and its /tmp together", lim.Memory>>20)
	}
	if stdout.over {
		err = fmt.Errorf("%w: the result is over %d bytes (a bot's executable may be at most that)", ErrTooBig, stdout.limit)
	}
	return stderr.buf, err
}

// runner compiles runner.cc once per kit, compiler and flags, and returns
// the object, open.
func (c *sandboxCompiler) runner(cache, key string) (*os.File, error) {
	obj := filepath.Join(cache, "runner-"+key[:32]+".o")
	if f, err := os.Open(obj); err == nil {
		return f, nil
	}
	unlock := lockKey(obj)
	defer unlock()
	if f, err := os.Open(obj); err == nil {
		return f, nil
	}
	tmp, err := tempFile(cache)
	if err != nil {
		return nil, err
	}
	defer removeTemp(tmp)
	args := append(append([]string{}, c.flags...), "-I", "/kit", "-c", "/kit/runner.cc", "-o", "/tmp/runner.o")
	msg, err := c.run(args, "/tmp/runner.o", c.kit.sandboxFiles(), tmp)
	if err != nil {
		return nil, &CompileError{Src: "runner.cc", Stage: "compile", Output: trimOutput(msg, "", ""), Err: err}
	}
	if _, err := commitCache(tmp, obj, 0o644); err != nil {
		return nil, err
	}
	f, err := os.Open(obj)
	if err != nil {
		return nil, fmt.Errorf("cppbot: cache: %w", err)
	}
	return f, nil
}

// limitedBuffer keeps the first limit bytes written to it.
type limitedBuffer struct {
	buf   []byte
	limit int
	over  bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := b.limit - len(b.buf); room < len(p) {
		b.over = true
		p = p[:max(room, 0)]
	}
	b.buf = append(b.buf, p...)
	return n, nil
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

// hostRun runs the operator's own compiler outside the sandbox, only to
// identify it (--version, -dumpmachine).
func hostRun(name string, args ...string) ([]byte, error) {
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
	out, err := hostRun(path, "--version")
	if err != nil {
		return "", fmt.Errorf("cppbot: %s --version: %w", path, err)
	}
	mach, _ := hostRun(path, "-dumpmachine")
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
