//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// countedOr returns the default sandbox when it gives each program a
// control group. Where it cannot, it checks the uncounted path instead
// (Counted says why, in an error wrapping ErrUncounted; the sandbox
// reports no CPU figure and freezes nothing) and returns nil: the caller
// returns. Nothing is skipped.
func countedOr(t *testing.T) *Sandbox {
	t.Helper()
	sb := testSandbox(t)
	err := sb.Counted()
	if err == nil {
		return sb
	}
	t.Logf("no control groups here, checking the uncounted path: %v", err)
	if !errors.Is(err, ErrUncounted) || len(err.Error()) <= len(ErrUncounted.Error())+2 {
		t.Fatalf("Counted() = %v, want ErrUncounted with a reason", err)
	}
	cmd, err := sb.Command(Spec{Args: []string{"/usr/bin/true"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, ok := cmd.CPU(); ok {
		t.Error("CPU() reports a figure without a control group")
	}
	if err := cmd.Freeze(); err != nil {
		t.Errorf("Freeze() without a control group = %v, want nil (nothing to do)", err)
	}
	cmd.Wait()
	return nil
}

// All of jgym's sandboxes together weigh less than the server's own
// threads (cpu.shares 512 against 1024 each in v1, cpu.weight 25 against
// 100 in v2).
func TestCPUWeight(t *testing.T) {
	if countedOr(t) == nil {
		return
	}
	cg := cgTree.Load()
	file, want := filepath.Join(cg.ctrl["cpu"], "cpu.shares"), strconv.Itoa(cpuSharesV1)
	if cg.v2 {
		file, want = filepath.Join(cg.ctrl["cpu"], "cpu.weight"), strconv.Itoa(cpuWeightV2)
	}
	b, err := os.ReadFile(file)
	if err != nil || strings.TrimSpace(string(b)) != want {
		t.Errorf("%s = %q (%v), want %s", file, b, err, want)
	}
}

// A sandbox made without control groups says so.
func TestNoCgroups(t *testing.T) {
	testSandbox(t)
	sb, err := New(Options{NoCgroups: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.Counted(); !errors.Is(err, ErrUncounted) {
		t.Fatalf("Counted() = %v, want ErrUncounted", err)
	}
}

// Issue 31, item 2: nothing but a size-limited /tmp is writable: not the
// sandbox's root, not /dev/shm (a tmpfs of half the RAM before), not a
// file handed in.
func TestWritablePlaces(t *testing.T) {
	sb := testSandbox(t)
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("data\n")
	defer f.Close()
	script := `
try() { if sh -c "$2" 2>/dev/null; then echo "$1 written"; else echo "$1 denied"; fi; }
try root 'echo x > /x'
try rootdir 'mkdir /newdir'
try shm 'dd if=/dev/zero of=/dev/shm/x bs=64k count=1'
try dev 'echo x > /dev/x'
try shared 'echo x >> /in/shared'
try copied 'echo x >> /in/copied'
try tmp 'dd if=/dev/zero of=/tmp/a bs=1M count=2'
try tmpfull 'dd if=/dev/zero of=/tmp/b bs=1M count=4'
try null 'echo x > /dev/null'
`
	out, stderr, err := run(t, sb, Spec{
		Args:   []string{"/usr/bin/sh", "-c", script},
		Files:  []File{{Path: "/in/shared", From: f, Mode: 0o644, Shared: true}, {Path: "/in/copied", Data: []byte("x")}},
		Limits: Limits{TmpSize: 4 << 20},
	}, 20*time.Second)
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	for _, want := range []string{"root denied", "rootdir denied", "shm denied", "dev denied", "shared denied",
		"copied denied", "tmp written", "tmpfull denied", "null written"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(f.Name()); string(b) != "data\n" {
		t.Errorf("the shared file is now %q", b)
	}
}

// Issue 31, item 2: the memory of all the sandbox's processes, its /tmp
// included, is counted in its control group: writing 40 MiB to a 64 MiB
// /tmp under a memory limit of 24 MiB kills the writer; 4 MiB is fine.
func TestMemoryCountsTmpfs(t *testing.T) {
	sb := countedOr(t)
	if sb == nil {
		return
	}
	lim := Limits{Memory: 24 << 20, TmpSize: 64 << 20, FileSize: 64 << 20}
	for _, tc := range []struct {
		mib  int
		kill bool
	}{{4, false}, {40, true}} {
		cmd, err := sb.Command(Spec{Args: []string{"/usr/bin/dd", "if=/dev/zero", "of=/tmp/f", "bs=1M", "count=" + strconv.Itoa(tc.mib)}, Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		err = cmd.Run()
		if got := cmd.MemoryExceeded(); got != tc.kill || (err != nil) != tc.kill {
			t.Errorf("writing %d MiB to /tmp under 24 MiB: error %v, MemoryExceeded %v; want a kill: %v", tc.mib, err, got, tc.kill)
		}
	}
}

// Issue 31, item 3: a Shared file is bound, not copied: every sandbox
// sees the host's very file (same device and inode), read-only, and the
// link jgym made for it is gone once they end.
func TestSharedFileIsNotCopied(t *testing.T) {
	sb := testSandbox(t)
	f, err := os.CreateTemp(t.TempDir(), "exe")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(make([]byte, 1<<20))
	f.Chmod(0o755)
	fi, _ := f.Stat()
	st := fi.Sys().(*syscall.Stat_t)
	want := fmt.Sprintf("%d %d", st.Dev, st.Ino)
	cmds := make([]*Cmd, 3)
	outs := make([]strings.Builder, 3)
	stdins := make([]io.Closer, 3)
	for i := range cmds {
		c, err := sb.Command(Spec{
			Args:  []string{"/usr/bin/sh", "-c", "stat -L -c '%d %i' /bot/exe; read -r x"},
			Files: []File{{Path: "/bot/exe", From: f, Mode: 0o755, Shared: true}},
		})
		if err != nil {
			t.Fatal(err)
		}
		c.Stdout = &outs[i]
		if stdins[i], err = c.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = c
	}
	shares.mu.Lock()
	linked := len(shares.files)
	shares.mu.Unlock()
	if linked != 1 {
		t.Errorf("%d shared files for one file in 3 sandboxes, want 1", linked)
	}
	for i, c := range cmds {
		stdins[i].Close()
		c.Wait()
		if got := strings.TrimSpace(outs[i].String()); got != want {
			t.Errorf("sandbox %d sees device and inode %q, want the host file's %q", i, got, want)
		}
	}
	shares.mu.Lock()
	left := len(shares.files)
	dir := shares.dir
	shares.mu.Unlock()
	if left != 0 {
		t.Errorf("%d shared files left after every sandbox ended", left)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the share directory holds %d files", len(ents))
	}
	// A file whose mode does not let the sandbox's user run it is copied
	// once, with the mode asked for, not linked.
	g, _ := os.Create(filepath.Join(t.TempDir(), "private"))
	defer g.Close()
	g.WriteString("#!/bin/sh\necho private ran\n")
	g.Chmod(0o700)
	out, stderr, err := run(t, sb, Spec{Args: []string{"/bot/private"}, Files: []File{{Path: "/bot/private", From: g, Mode: 0o755, Shared: true}}}, 10*time.Second)
	if err != nil || out != "private ran\n" {
		t.Errorf("a private script shared: %q, %v, %s", out, err, stderr)
	}
}

// spinners is a shell script that leaves three daemons spinning (setsid,
// double fork), then waits.
const spinners = `for i in 1 2 3; do (setsid sh -c 'while :; do :; done' &); done; echo started; sleep 60`

// Issue 31, item 4: one CPU budget over all the sandbox's processes:
// three spinning daemons under a limit of 1 s are killed once they have
// used about 1 s together (not 3 x 1 s), and nothing is left of them.
func TestOneCPUBudget(t *testing.T) {
	sb := countedOr(t)
	if sb == nil {
		return
	}
	cmd, err := sb.Command(Spec{Args: []string{"/usr/bin/sh", "-c", spinners}, Limits: Limits{CPU: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(90 * time.Second): // generous: the sandboxes' CPU weight is low
		cmd.Kill()
		<-done
		t.Fatal("three spinners under a CPU budget of 1s ran for 90s")
	}
	used, ok := cmd.CPU()
	if err == nil || !cmd.CPUExceeded() || !ok || used < time.Second || used > 2500*time.Millisecond {
		t.Errorf("error %v, CPUExceeded %v, CPU %v (%v); want the budget of 1s used and stopped", err, cmd.CPUExceeded(), used, ok)
	}
	t.Logf("killed after %v of wall time, %v of CPU", time.Since(start).Round(time.Millisecond), used.Round(time.Millisecond))
	if ps := Processes(); len(ps) != 0 {
		t.Errorf("processes %v of this test's sandboxes are left", ps)
	}
}

// Issue 31, item 4: a frozen sandbox burns nothing, its daemons
// included; a started-frozen one runs only once thawed; a frozen one can
// be killed.
func TestFreeze(t *testing.T) {
	sb := countedOr(t)
	if sb == nil {
		return
	}
	cmd, err := sb.Command(Spec{Args: []string{"/usr/bin/sh", "-c", spinners}, Limits: Limits{CPU: 30 * time.Second}, StartFrozen: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	cpu := func() time.Duration {
		d, ok := cmd.CPU()
		if !ok {
			t.Fatal("no CPU figure")
		}
		return d
	}
	time.Sleep(500 * time.Millisecond)
	if d := cpu(); d > 50*time.Millisecond {
		t.Errorf("started frozen, it used %v in 0.5s", d)
	}
	// Thawed, the spinners run (slowly on a loaded machine: the
	// sandboxes' CPU weight is low).
	cmd.Thaw()
	for deadline := time.Now().Add(60 * time.Second); cpu() < 200*time.Millisecond; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("thawed for 60s, the spinners used %v", cpu())
		}
	}
	cmd.Freeze()
	time.Sleep(100 * time.Millisecond) // freezing completes
	before := cpu()
	time.Sleep(time.Second)
	if d := cpu() - before; d > 50*time.Millisecond {
		t.Errorf("frozen, it used %v in 1s", d)
	}
	cmd.Kill()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a frozen sandbox survived Kill")
	}
	if ps := Processes(); len(ps) != 0 {
		t.Errorf("processes %v of this test's sandboxes are left", ps)
	}
}
