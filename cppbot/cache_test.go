package cppbot_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"jgym/cppbot"
	"jgym/env"
)

// nullBot is the source of a Null player whose executable holds about
// data bytes of initialized data; salt makes sources (and builds) differ.
func nullBot(data int, salt string) []byte {
	return []byte(fmt.Sprintf(`#include "Player.hh"
// %s
char ballast[%d] = {1};
#define PLAYER_NAME Null
struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }
  virtual void play() { if (ballast[round() %% sizeof ballast] == 7) cerr << "never"; }
};
RegisterPlayer(PLAYER_NAME);
`, salt, max(data, 1)))
}

// ownCache returns a new cache directory holding the runner object of the
// shared test cache (so that the runner is not compiled again).
func ownCache(t *testing.T) string {
	t.Helper()
	if _, err := cppbot.Compile(filepath.Join(kitDir, "AINull.cc"), testKit(t), testOpts()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runners, _ := filepath.Glob(filepath.Join(testCache, "runner-*.o"))
	for _, r := range runners {
		b, err := os.ReadFile(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(r)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// allocated returns the bytes the Go heap has handed out so far.
func allocated() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// A build over Options.MaxExecutableBytes is refused and leaves nothing in
// the cache; a build under it is written to disk, not held in memory.
func TestExecutableSize(t *testing.T) {
	needSandbox(t)
	dir := ownCache(t)
	opts := testOpts()
	opts.CacheDir, opts.MaxExecutableBytes = dir, 1<<20
	big := nullBot(3<<20, "big")
	before := allocated()
	_, err := cppbot.CompileSource("AIBig.cc", big, testKit(t), opts)
	if !errors.Is(err, cppbot.ErrTooBig) || !strings.Contains(err.Error(), strconv.Itoa(1<<20)) {
		t.Fatalf("a 3 MiB bot under a 1 MiB cap: %v, want ErrTooBig naming the cap", err)
	}
	if n := cppbot.CacheUsage(opts); n != 0 {
		t.Errorf("the cache holds %d bytes after a refused build", n)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	opts.MaxExecutableBytes = 8 << 20
	exe, err := cppbot.CompileSource("AIBig.cc", big, testKit(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(exe)
	if err != nil || fi.Size() < 3<<20 {
		t.Fatalf("the big bot's executable: %v, %v", fi, err)
	}
	// The builds passed 3 MiB objects and executables through the
	// compiler's output; the heap saw a small part of them.
	if a := allocated() - before; a > 3<<19 {
		t.Errorf("building a %d MiB bot twice allocated %d MiB: a build is held in memory", fi.Size()>>20, a>>20)
	} else {
		t.Logf("a %d MiB bot built twice with %d KiB allocated", fi.Size()>>20, a>>10)
	}
}

// The cache keeps at most Options.CacheBytes: the least recently used
// builds go first, a build held by a Program stays.
func TestCacheEviction(t *testing.T) {
	needSandbox(t)
	defer cppbot.SetFreshFor(0)()
	dir := ownCache(t)
	opts := testOpts()
	opts.CacheDir = dir
	build := func(salt string) string {
		t.Helper()
		exe, err := cppbot.CompileSource("AINull.cc", nullBot(64<<10, salt), testKit(t), opts)
		if err != nil {
			t.Fatal(err)
		}
		return exe
	}
	exists := func(exe string) bool { _, err := os.Stat(exe); return err == nil }
	a := build("a")
	fi, _ := os.Stat(a)
	opts.CacheBytes = fi.Size()*5/2 + 1 // room for two builds
	b := build("b")
	time.Sleep(10 * time.Millisecond)
	p := cppbot.NewProgram(b, "AINull.cc", testKit(t), opts) // holds b
	defer p.Close()
	c := build("c") // a is the oldest: removed
	if exists(a) || !exists(b) || !exists(c) {
		t.Fatalf("after 3 builds with room for 2: a %v b %v c %v, want a removed", exists(a), exists(b), exists(c))
	}
	if build("b") != b { // found in the cache, and now used
		t.Fatal("b was built again")
	}
	d := build("d") // c is the least recently used, b is held anyway
	if exists(c) || !exists(b) || !exists(d) {
		t.Errorf("after the 4th build: b %v c %v d %v, want c removed", exists(b), exists(c), exists(d))
	}
	if n := cppbot.CacheUsage(opts); n > opts.CacheBytes {
		t.Errorf("the cache holds %d bytes, over its %d", n, opts.CacheBytes)
	}
}

// Options.Compiles caps the compilers that run at once: builds wait for
// a slot, and fail with ErrBusy past the wait.
func TestCompileLimit(t *testing.T) {
	needSandbox(t)
	opts := testOpts()
	opts.CacheDir = ownCache(t)
	opts.Compiles = cppbot.NewCompileLimit(1, time.Minute)
	stop := make(chan struct{})
	most := make(chan int, 1)
	go func() { // the compilers running under this process, sampled
		n := 0
		for {
			select {
			case <-stop:
				most <- n
				return
			case <-time.After(5 * time.Millisecond):
				n = max(n, len(descendants("cc1plus")))
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = cppbot.CompileSource("AINull.cc", nullBot(1, fmt.Sprint("limit", i)), testKit(t), opts)
		}()
	}
	wg.Wait()
	close(stop)
	for i, err := range errs {
		if err != nil {
			t.Errorf("build %d: %v", i, err)
		}
	}
	if n := <-most; n != 1 {
		t.Errorf("at most %d compilers ran at once, want 1", n)
	}

	// A build that cannot get a slot within the wait fails with ErrBusy.
	opts.Compiles = cppbot.NewCompileLimit(1, time.Millisecond)
	var busy error
	for i := 0; i < 2 && busy == nil; i++ {
		errs := make([]error, 2)
		for k := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[k] = cppbot.CompileSource("AINull.cc", nullBot(1, fmt.Sprint("busy", i, k)), testKit(t), opts)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				busy = err
			}
		}
	}
	if !errors.Is(busy, cppbot.ErrBusy) || !errors.Is(busy, env.ErrBusy) {
		t.Errorf("two builds for one slot and no wait: %v, want ErrBusy", busy)
	}
}

// descendants returns the pids of this process's descendants whose name
// is comm (the compilers of this test, not those of other jobs).
func descendants(comm string) []int {
	parent := map[int]int{}
	name := map[int]string{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(s[close+1:])
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		parent[pid], name[pid] = ppid, s[open+1:close]
	}
	me := os.Getpid()
	var out []int
	for pid, n := range name {
		if n != comm {
			continue
		}
		for p, hops := parent[pid], 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if p == me {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// A build whose caller goes away stops: the compiler is killed.
func TestCompileStopsWithItsCaller(t *testing.T) {
	needSandbox(t)
	opts := testOpts()
	opts.CacheDir = ownCache(t)
	var src strings.Builder
	src.WriteString("#include \"Player.hh\"\n")
	for k := range 4000 { // seconds of work for the compiler
		fmt.Fprintf(&src, "int f%d(int x) { int s = %d; for (int i = 0; i < x; ++i) s += (i * %d) ^ (s >> 3); return s; }\n", k, k, k+1)
	}
	src.WriteString("#define PLAYER_NAME Slow\nstruct PLAYER_NAME : public Player {\n static Player* factory() { return new PLAYER_NAME; }\n virtual void play() {}\n};\nRegisterPlayer(PLAYER_NAME);\n")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(descendants("cc1plus")) == 0 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		cancel() // the compiler runs: the client leaves
	}()
	start := time.Now()
	_, err := cppbot.CompileSourceContext(ctx, "AISlow.cc", []byte(src.String()), testKit(t), opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a build whose caller left: %v, want context.Canceled", err)
	}
	t.Logf("stopped %v after it started", time.Since(start).Round(time.Millisecond))
	for deadline := time.Now().Add(5 * time.Second); len(descendants("cc1plus")) > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the compiler still runs after its caller left")
		}
	}
}
