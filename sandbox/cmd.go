package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// cpuPoll is how often a running sandbox's CPU time is checked against
// Limits.CPU.
const cpuPoll = 200 * time.Millisecond

// Cmd is a contained program: an exec.Cmd whose Start puts it in its
// control group (where the sandbox has them) and whose Wait, once the
// program has ended, kills whatever is left of it and removes the group.
type Cmd struct {
	*exec.Cmd
	sb          *Sandbox
	lim         Limits
	startFrozen bool
	owned       []*os.File // the anonymous files holding File.Data
	shared      []func()   // releases the shared files

	g        *group
	frozen   atomic.Bool
	cpuOver  atomic.Bool
	stop     chan struct{} // closed by Wait: the CPU watchdog ends
	watching sync.WaitGroup
	oom      atomic.Int64 // the group's OOM kills, once it is removed
	waitOnce sync.Once
	waitErr  error
}

// Start starts the sandbox. Where the sandbox has control groups, the
// program is in its group (and frozen, if Spec.StartFrozen) before it
// runs its first instruction, and its CPU time over all its processes is
// watched.
func (c *Cmd) Start() error {
	if c.sb.cg == nil {
		err := c.Cmd.Start()
		c.closeOwned()
		if err != nil {
			c.releaseShared()
		}
		return err
	}
	g, err := c.sb.cg.newGroup(c.lim.Memory, c.lim.Processes+sandboxProcesses)
	if err != nil {
		c.release()
		return err
	}
	gateR, gateW, err := os.Pipe()
	if err != nil {
		g.remove()
		c.release()
		return fmt.Errorf("sandbox: %w", err)
	}
	c.Cmd.ExtraFiles[0] = gateR
	err = c.Cmd.Start()
	gateR.Close()
	c.closeOwned()
	if err != nil {
		gateW.Close()
		g.remove()
		c.releaseShared()
		return err
	}
	err = g.attach(c.Process.Pid)
	if err == nil && c.startFrozen {
		if err = g.setFrozen(true); err == nil {
			c.frozen.Store(true)
		}
	}
	if err == nil {
		_, err = gateW.Write([]byte("go\n"))
	}
	gateW.Close()
	if err != nil {
		c.Cmd.Process.Kill()
		c.Cmd.Wait()
		g.killAll(2 * time.Second)
		g.remove()
		c.releaseShared()
		return err
	}
	c.g = g
	c.stop = make(chan struct{})
	c.watching.Add(1)
	go c.watchCPU()
	return nil
}

// watchCPU kills the sandbox once its processes together have used
// Limits.CPU; it ends when Wait closes c.stop.
func (c *Cmd) watchCPU() {
	defer c.watching.Done()
	t := time.NewTicker(cpuPoll)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		if c.frozen.Load() {
			continue
		}
		if d, ok := c.g.cpu(); ok && d > c.lim.CPU {
			c.cpuOver.Store(true)
			c.Kill()
			return
		}
	}
}

// Run starts the sandbox and waits for it.
func (c *Cmd) Run() error {
	if err := c.Start(); err != nil {
		return err
	}
	return c.Wait()
}

// Wait waits for the sandbox to end, then kills whatever is left in its
// control group and removes the group: once Wait returns, no process of
// the program is left. It may be called once.
func (c *Cmd) Wait() error {
	c.waitOnce.Do(func() {
		c.waitErr = c.Cmd.Wait()
		if c.g != nil {
			close(c.stop)
			c.watching.Wait()
			c.g.cpu() // keep the last figure for CPU
			c.oom.Store(c.g.oomKills())
			c.g.killAll(5 * time.Second)
			c.g.remove()
		}
		c.releaseShared()
	})
	return c.waitErr
}

// Kill kills the sandbox and everything in it, frozen or not: every
// process of its control group, and bwrap's process group.
func (c *Cmd) Kill() {
	if c.g != nil {
		c.g.killAll(0)
	}
	Kill(c.Cmd)
}

// Freeze stops every process of the sandbox until Thaw, where the
// sandbox has control groups (else it does nothing): a bot between its
// turns uses no CPU.
func (c *Cmd) Freeze() error {
	if c.g == nil {
		return nil
	}
	if err := c.g.setFrozen(true); err != nil {
		return err
	}
	c.frozen.Store(true)
	return nil
}

// Thaw lets the processes of a frozen sandbox run again.
func (c *Cmd) Thaw() error {
	if c.g == nil {
		return nil
	}
	c.frozen.Store(false)
	return c.g.setFrozen(false)
}

// CPU returns the CPU time used by all the sandbox's processes so far
// (after Wait: in all), where the sandbox has a control group.
func (c *Cmd) CPU() (time.Duration, bool) {
	if c.g == nil {
		return 0, false
	}
	return c.g.cpu()
}

// CPUExceeded reports whether the sandbox was killed because its
// processes together used Limits.CPU.
func (c *Cmd) CPUExceeded() bool { return c.cpuOver.Load() }

// MemoryExceeded reports whether the kernel killed a process of the
// sandbox because the sandbox used Limits.Memory.
func (c *Cmd) MemoryExceeded() bool {
	if c.g == nil {
		return false
	}
	if c.oom.Load() > 0 {
		return true
	}
	return c.g.oomKills() > 0
}

// Limits returns the limits the sandbox runs with.
func (c *Cmd) Limits() Limits { return c.lim }

// release closes the anonymous files and releases the shared ones.
func (c *Cmd) release() {
	c.closeOwned()
	c.releaseShared()
}

func (c *Cmd) closeOwned() {
	for _, f := range c.owned {
		f.Close()
	}
	c.owned = nil
}

func (c *Cmd) releaseShared() {
	for _, r := range c.shared {
		r()
	}
	c.shared = nil
}

// anonymousFile returns an unlinked temporary file holding data, at offset 0.
func anonymousFile(data []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "jgym-sandbox-*")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return f, nil
}

// Processes returns the host pids of the processes running in this
// process's sandboxes: the members of their control groups and, for
// sandboxes without one, the descendants of this process (which may
// include other children of it). Tests count what they leave behind with
// it, never processes of other programs.
func Processes() []int {
	seen := map[int]bool{}
	var out []int
	add := func(ps []int) {
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	if cg := cgTree.Load(); cg != nil {
		add(cg.processes())
	}
	add(descendants(os.Getpid()))
	sort.Ints(out)
	return out
}

// descendants returns the pids of every descendant of pid, from /proc.
func descendants(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name, in parentheses, may hold spaces.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		if pp, err := strconv.Atoi(f[1]); err == nil {
			parent[p] = pp
		}
	}
	var out []int
	for p := range parent {
		for q, n := parent[p], 0; q > 0 && n < 64; q, n = parent[q], n+1 {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	sort.Ints(out)
	return out
}
