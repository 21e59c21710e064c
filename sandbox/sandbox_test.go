//go:build linux

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"jgym/internal/strict"
)

func testSandbox(t *testing.T) *Sandbox {
	t.Helper()
	sb, err := Default()
	if errors.Is(err, ErrUnavailable) {
		strict.Skip(t, err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// run runs args in the sandbox with a wall-time bound and returns stdout,
// stderr and the error of Wait.
func run(t *testing.T, sb *Sandbox, spec Spec, wall time.Duration) (string, string, error) {
	t.Helper()
	cmd, err := sb.Command(spec)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(wall):
		Kill(cmd.Cmd)
		<-done
		t.Fatalf("%v did not end within %v", spec.Args, wall)
	}
	return out.String(), errb.String(), err
}

func TestUnavailable(t *testing.T) {
	for _, o := range []Options{{Bwrap: "/nonexistent/bwrap"}, {Prlimit: "/nonexistent/prlimit"}} {
		_, err := New(o)
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("New(%+v) = %v, want ErrUnavailable", o, err)
		}
	}
}

func TestUserAndFiles(t *testing.T) {
	sb := testSandbox(t)
	f, err := os.CreateTemp(t.TempDir(), "data")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("hello from the host\n")
	f.Seek(0, 0)
	defer f.Close()
	out, stderr, err := run(t, sb, Spec{
		Args:  []string{"/usr/bin/sh", "-c", "id -u; cat /in/data.txt; ls -ld /in/data.txt; cat /in/deep/er/mem.txt"},
		Files: []File{{Path: "/in/data.txt", From: f, Mode: 0o640}, {Path: "/in/deep/er/mem.txt", Data: []byte("from memory")}},
	}, 10*time.Second)
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) == 4 && lines[3] == "from memory" {
		lines = lines[:3]
	} else {
		t.Errorf("output %q lacks the file given as Data", out)
	}
	wantUID := os.Getuid()
	if uid, _, root := sb.User(); root {
		wantUID = uid
	}
	if len(lines) != 3 || lines[0] != strconv.Itoa(wantUID) || lines[1] != "hello from the host" || !strings.HasPrefix(lines[2], "-rw-r-----") {
		t.Errorf("output %q, want uid %d, the file's text, mode -rw-r-----", out, wantUID)
	}
}

// The host's files outside /usr are not there, /usr is read-only and /tmp
// is private.
func TestFilesystem(t *testing.T) {
	sb := testSandbox(t)
	home, _ := os.UserHomeDir()
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("TOP SECRET"), 0o644)
	for _, p := range []string{"/etc/passwd", "/etc/shadow", secret, filepath.Join(home, ".bashrc")} {
		out, _, err := run(t, sb, Spec{Args: []string{"/usr/bin/cat", p}}, 10*time.Second)
		if err == nil || strings.Contains(out, "SECRET") || strings.Contains(out, "root:") {
			t.Errorf("cat %s: err %v, output %q; want a failure", p, err, out)
		}
	}
	// The environment is the sandbox's own, not jgym's.
	t.Setenv("JGYM_TEST_SECRET", "TOP SECRET")
	for _, p := range []string{"/proc/1/environ", "/proc/self/environ"} {
		out, _, _ := run(t, sb, Spec{Args: []string{"/usr/bin/cat", p}}, 10*time.Second)
		if strings.Contains(out, "SECRET") {
			t.Errorf("cat %s shows jgym's environment: %q", p, out)
		}
	}
	if _, _, err := run(t, sb, Spec{Args: []string{"/usr/bin/touch", "/usr/pwned"}}, 10*time.Second); err == nil {
		t.Error("touch /usr/pwned succeeded")
	}
	if _, err := os.Stat("/usr/pwned"); err == nil {
		t.Error("/usr/pwned exists on the host")
	}
	marker := fmt.Sprintf("jgym-sandbox-test-%d", time.Now().UnixNano())
	if _, stderr, err := run(t, sb, Spec{Args: []string{"/usr/bin/touch", "/tmp/" + marker}}, 10*time.Second); err != nil {
		t.Errorf("touch in /tmp: %v %s", err, stderr)
	}
	if _, err := os.Stat("/tmp/" + marker); err == nil {
		os.Remove("/tmp/" + marker)
		t.Error("a file written to the sandbox's /tmp appeared on the host")
	}
}

// A connection to a listener of the host's loopback fails: the sandbox has
// a network namespace of its own.
func TestNoNetwork(t *testing.T) {
	sb := testSandbox(t)
	if _, err := exec.LookPath("bash"); err != nil {
		strict.Skip(t, "bash not found")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	_, _, err = run(t, sb, Spec{Args: []string{"/usr/bin/bash", "-c", fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)}}, 10*time.Second)
	if err == nil {
		t.Error("the connection succeeded")
	}
	select {
	case <-accepted:
		t.Error("the host's listener accepted a connection from the sandbox")
	case <-time.After(200 * time.Millisecond):
	}
}

// processesWith lists the host pids whose command line contains marker.
func processesWith(marker string) []int {
	return processesWhere(func(cmdline []byte) bool { return bytes.Contains(cmdline, []byte(marker)) })
}

// processesWhere lists the host pids whose command line satisfies match.
func processesWhere(match func(cmdline []byte) bool) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && match(b) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Kill ends the whole tree, a child that left the session (setsid) too.
func TestKillTree(t *testing.T) {
	sb := testSandbox(t)
	secs := fmt.Sprintf("%d.%d", 3000+os.Getpid()%1000, time.Now().UnixNano()%1000) // a unique sleep argument
	cmd, err := sb.Command(Spec{Args: []string{"/usr/bin/sh", "-c", "setsid sleep " + secs + " & sleep " + secs + " & echo started; wait"}})
	if err != nil {
		t.Fatal(err)
	}
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	stdout.Read(buf) // "started"
	// Count the sleeps that have executed: setsid before its exec also has
	// "sleep\0SECS" in its command line, and counting it made this check
	// flaky (the CI of stop 23 saw 1 where setsid was becoming sleep).
	sleeping := func() int {
		return len(processesWhere(func(b []byte) bool { return string(b) == "sleep\x00"+secs+"\x00" }))
	}
	deadline := time.Now().Add(5 * time.Second)
	for sleeping() < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := sleeping(); n != 2 {
		t.Fatalf("%d sleep processes running, want 2", n)
	}
	Kill(cmd.Cmd)
	cmd.Wait()
	deadline = time.Now().Add(5 * time.Second)
	for len(processesWith("sleep\x00"+secs)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if pids := processesWith("sleep\x00" + secs); len(pids) > 0 {
		for _, p := range pids {
			killPid(p)
		}
		t.Fatalf("processes %v outlived Kill", pids)
	}
}

// The CPU limit ends an endless loop; the process limit stops a fork loop.
func TestLimits(t *testing.T) {
	sb := testSandbox(t)
	// The wall-time bound is generous: the sandboxes' CPU weight is low,
	// and on a loaded machine 1s of CPU may take many seconds.
	_, _, err := run(t, sb, Spec{Args: []string{"/usr/bin/sh", "-c", "while :; do :; done"}, Limits: Limits{CPU: time.Second}}, 90*time.Second)
	if err == nil {
		t.Error("an endless loop ended without error")
	}
	// A fork loop that stops by itself after 64 children: with a limit of
	// 8 processes most forks fail.
	out, stderr, _ := run(t, sb, Spec{
		Args:   []string{"/usr/bin/sh", "-c", "n=0; for i in $(seq 1 64); do sleep 5 & n=$((n+1)); done; echo tried $n"},
		Limits: Limits{Processes: 8},
	}, 30*time.Second)
	if !strings.Contains(stderr, "fork") && !strings.Contains(stderr, "Resource temporarily unavailable") && !strings.Contains(stderr, "Cannot fork") {
		t.Errorf("a fork loop under a limit of 8 processes: stdout %q, stderr %q; want fork failures", out, stderr)
	}
}

func TestCommandErrors(t *testing.T) {
	sb := testSandbox(t)
	f, _ := os.Open(os.DevNull)
	defer f.Close()
	for _, spec := range []Spec{
		{},
		{Args: []string{"relative"}},
		{Args: []string{"/bin/true"}, Files: []File{{Path: "rel", From: f}}},
		{Args: []string{"/bin/true"}, Files: []File{{Path: "/a/../b", From: f}}},
		{Args: []string{"/bin/true"}, Files: []File{{Path: "/usr/bin/evil", From: f}}},
		{Args: []string{"/bin/true"}, Files: []File{{Path: "/x"}}},
		{Args: []string{"/bin/true"}, Files: []File{{Path: "/x", From: f, Data: []byte("both")}}},
		{Args: []string{"/bin/true"}, Env: []string{"NOEQUALS"}},
	} {
		if _, err := sb.Command(spec); err == nil {
			t.Errorf("Command(%+v) = nil error", spec)
		}
	}
}

func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
