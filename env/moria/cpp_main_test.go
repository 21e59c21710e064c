package moria

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"jgym/cppbot"
	"jgym/internal/strict"
	"jgym/sandbox"
)

// kitDir is the repository's copy of the kit (kit/moria), embedded by
// package kit.
const kitDir = "../../kit/moria"

// cppCache is the compile cache of this test binary, so that every C++ bot
// is compiled once.
var cppCache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jgym-moria-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cppCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	sandbox.Release() // the control groups and shared files of its sandboxes
	os.Exit(code)
}

// needGXX skips a test without g++ (fails under strict).
func needGXX(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		strict.Skip(t, "g++ not found")
	}
}

// needCpp skips a test that runs C++ bots where g++ or the sandbox lacks
// (fails under strict).
func needCpp(t testing.TB) {
	t.Helper()
	needGXX(t)
	if _, err := sandbox.Default(); errors.Is(err, sandbox.ErrUnavailable) {
		strict.Skip(t, err.Error())
	}
}

// cppOpts returns options using the test cache, with generous timeouts so
// that a loaded machine does not make the tests flaky.
func cppOpts() cppbot.Options {
	return cppbot.Options{CacheDir: cppCache, RoundTimeout: 20 * time.Second, StartTimeout: time.Minute}
}

func testKit(t testing.TB) *cppbot.Kit {
	t.Helper()
	k, err := Def.CppKit()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var (
	compileMu   sync.Mutex
	compileOnce = map[string]*compileResult{}
)

type compileResult struct {
	once sync.Once
	exe  string
	err  error
}

// compileExe compiles src once per test binary and returns the executable.
func compileExe(t testing.TB, src string) (string, error) {
	t.Helper()
	needCpp(t)
	compileMu.Lock()
	r, ok := compileOnce[src]
	if !ok {
		r = &compileResult{}
		compileOnce[src] = r
	}
	compileMu.Unlock()
	r.once.Do(func() { r.exe, r.err = cppbot.Compile(src, testKit(t), cppOpts()) })
	return r.exe, r.err
}

// compiled returns the program of src, compiled once per test binary,
// with options opts; it is closed at the end of the test.
func compiled(t testing.TB, src string, opts cppbot.Options) *cppbot.Program {
	t.Helper()
	exe, err := compileExe(t, src)
	if err != nil {
		t.Fatalf("compile %s: %v", src, err)
	}
	p := cppbot.NewProgram(exe, src, testKit(t), opts)
	t.Cleanup(func() { p.Close() })
	return p
}

// kitBot returns the program of one of the kit's players (AIDemo.cc,
// AINull.cc).
func kitBot(t testing.TB, file string) *cppbot.Program {
	return compiled(t, filepath.Join(kitDir, file), cppOpts())
}

// writeBot writes the source of a test bot AI<name>.cc into dir.
func writeBot(t testing.TB, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, "AI"+name+".cc")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
