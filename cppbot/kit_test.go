package cppbot_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

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

// The kit's files are its headers and the runner.
func TestKitFiles(t *testing.T) {
	k := testKit(t)
	names := k.Files()
	if len(names) != 10 || names[len(names)-1] != "runner.cc" {
		t.Errorf("Files() = %v, want the 9 headers and runner.cc", names)
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
