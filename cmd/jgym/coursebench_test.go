package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeKit writes a course kit whose Game program records its arguments.
func fakeKit(t *testing.T) (dir, log string) {
	t.Helper()
	dir = t.TempDir()
	log = filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\n"
	if err := os.WriteFile(filepath.Join(dir, "Game"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "default.cnf"), []byte("Crematoria 1.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, log
}

func TestBenchCourseKit(t *testing.T) {
	dir, log := fakeKit(t)
	var out bytes.Buffer
	err := runBench(context.Background(), []string{"--games", "3", "--trace", "--course-kit", dir, "--course-games", "2"}, &out, &out)
	if err != nil {
		t.Fatalf("bench --course-kit: %v\n%s", err, out.String())
	}
	got := out.String()
	for _, want := range []string{"course engine " + filepath.Join(dir, "Game") + ": 2 games", "x the course engine per core (both measured now"} {
		if !strings.Contains(got, want) {
			t.Errorf("bench output = %q, want it to contain %q", got, want)
		}
	}
	calls, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := "Null Null Null Null -s 1 -i " + filepath.Join(dir, "default.cnf") + " -o " + os.DevNull + "\n" +
		"Null Null Null Null -s 2 -i " + filepath.Join(dir, "default.cnf") + " -o " + os.DevNull + "\n"
	if string(calls) != wantCalls {
		t.Errorf("the course engine ran\n%s\nwant\n%s", calls, wantCalls)
	}
}

func TestBenchNoCourseClaimWithoutKit(t *testing.T) {
	var out bytes.Buffer
	if err := runBench(context.Background(), []string{"--games", "2", "--trace"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "course") {
		t.Errorf("bench without --course-kit printed %q: it measured no course engine", out.String())
	}
}

func TestBenchCourseKitNeedsTrace(t *testing.T) {
	dir, _ := fakeKit(t)
	var out bytes.Buffer
	err := runBench(context.Background(), []string{"--games", "2", "--course-kit", dir}, &out, &out)
	if !errors.Is(err, errUsage) {
		t.Errorf("bench --course-kit without --trace = %v, want a usage error", err)
	}
}

func TestBenchCourseEngineFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Game"), []byte("#!/bin/sh\necho 'unknown player' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "default.cnf"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := runBench(context.Background(), []string{"--games", "1", "--trace", "--course-kit", dir}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "unknown player") {
		t.Errorf("bench with a failing course engine = %v, want its message", err)
	}
}
