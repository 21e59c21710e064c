package cppbot

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded copy must be the repository's kit.
func TestEmbeddedKitMatchesRepository(t *testing.T) {
	files, _ := kit()
	if len(files) < 10 {
		t.Fatalf("only %d kit files embedded", len(files))
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(kitDir, f.name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, f.data) {
			t.Errorf("embedded %s differs from %s/%s: run go generate ./env/crematoria/cppbot", f.name, kitDir, f.name)
		}
	}
	repo, _ := filepath.Glob(filepath.Join(kitDir, "*.hh"))
	if len(repo)+1 != len(files) {
		t.Errorf("kit has %d headers, %d files embedded: run go generate ./env/crematoria/cppbot", len(repo), len(files))
	}
}

// The kit, its runner and the official bots compile without a warning.
func TestKitCompilesCleanly(t *testing.T) {
	for _, src := range []string{"runner.cc", "AIDemo.cc", "AINull.cc"} {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
				"-I", kitDir, filepath.Join(kitDir, src)).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
		})
	}
}

// The layout of Player and its parts is the course kit's (SPEC §11.9),
// checked by a small program compiled against the headers and by the
// runner itself.
func TestLayout(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "layout")
	out, err := exec.Command("g++", "-std=c++11", "-O2", "-I", kitDir, "-o", exe, "testdata/layout_check.cc").CombinedOutput()
	if err != nil {
		t.Fatalf("compile layout_check.cc: %v\n%s", err, out)
	}
	out, err = exec.Command(exe).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "OK" {
		t.Fatalf("layout_check: %v\n%s", err, out)
	}

	p := compiled(t, filepath.Join(kitDir, "AINull.cc"), testOpts())
	out, err = exec.Command(p.Path, "--layout").Output()
	if err != nil || strings.Contains(string(out), "MISMATCH") || !strings.Contains(string(out), "sizeof(Player) 376") {
		t.Fatalf("runner --layout: %v\n%s", err, out)
	}
	out, err = exec.Command(p.Path, "--list").Output()
	if err != nil || string(out) != "Null\n" {
		t.Fatalf("runner --list: %v %q", err, out)
	}
}
