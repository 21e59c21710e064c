package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// group is the control group of one sandbox, a directory in each
// hierarchy.
type group struct {
	owner                          *cgroups // nil for a stale group
	v2                             bool
	dirs                           []string
	memory, pids, cpuacct, freezer string // the directories of the controllers

	mu      sync.Mutex
	lastCPU time.Duration
	removed bool
}

// newGroup makes the group of a sandbox with its limits: memory (tmpfs
// included, no swap) and processes.
func (c *cgroups) newGroup(memory int64, processes int) (*group, error) {
	name := "s" + strconv.FormatUint(c.seq.Add(1), 10)
	c.live.Add(1)
	g := &group{owner: c, v2: c.v2}
	byParent := map[string]string{}
	for _, p := range c.parents {
		d := filepath.Join(p, name)
		if err := makeGroup(d); err != nil {
			g.remove()
			return nil, fmt.Errorf("sandbox: control group: %w", err)
		}
		g.dirs = append(g.dirs, d)
		byParent[p] = d
	}
	g.memory, g.pids = byParent[c.ctrl["memory"]], byParent[c.ctrl["pids"]]
	g.cpuacct, g.freezer = byParent[c.ctrl["cpuacct"]], byParent[c.ctrl["freezer"]]
	mem := strconv.FormatInt(memory, 10)
	var ws []struct{ file, value string }
	if c.v2 {
		ws = append(ws, struct{ file, value string }{filepath.Join(g.memory, "memory.max"), mem})
		if swap := filepath.Join(g.memory, "memory.swap.max"); fileExists(swap) {
			ws = append(ws, struct{ file, value string }{swap, "0"})
		}
	} else {
		ws = append(ws, struct{ file, value string }{filepath.Join(g.memory, "memory.limit_in_bytes"), mem})
		if sw := filepath.Join(g.memory, "memory.memsw.limit_in_bytes"); fileExists(sw) {
			ws = append(ws, struct{ file, value string }{sw, mem})
		}
	}
	ws = append(ws, struct{ file, value string }{filepath.Join(g.pids, "pids.max"), strconv.Itoa(processes)})
	for _, w := range ws {
		if err := writeFile(w.file, w.value); err != nil {
			g.remove()
			return nil, fmt.Errorf("sandbox: control group: %w", err)
		}
	}
	return g, nil
}

// attach moves the process pid into the group (in every hierarchy).
func (g *group) attach(pid int) error {
	for _, d := range g.dirs {
		if err := writeFile(filepath.Join(d, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
			return fmt.Errorf("sandbox: control group: %w", err)
		}
	}
	return nil
}

// setFrozen freezes or thaws every process of the group.
func (g *group) setFrozen(frozen bool) error {
	file, value := filepath.Join(g.freezer, "freezer.state"), "THAWED"
	if g.v2 {
		file, value = filepath.Join(g.freezer, "cgroup.freeze"), "0"
	}
	if frozen {
		value = map[bool]string{false: "FROZEN", true: "1"}[g.v2]
	}
	if err := writeFile(file, value); err != nil {
		return fmt.Errorf("sandbox: control group: %w", err)
	}
	return nil
}

// procs returns the pids of the processes in the group.
func (g *group) procs() []int {
	p, _ := readPids(filepath.Join(g.pids, "cgroup.procs"))
	return p
}

// killAll kills every process of the group and waits, at most wait, until
// none is left. A process frozen in cgroup v1 dies only once thawed, so
// the group is thawed after the signals.
func (g *group) killAll(wait time.Duration) bool {
	if g.v2 {
		if k := filepath.Join(g.pids, "cgroup.kill"); fileExists(k) {
			writeFile(k, "1")
		}
	}
	deadline := time.Now().Add(wait)
	for {
		ps := g.procs()
		if len(ps) == 0 {
			return true
		}
		for _, p := range ps {
			syscall.Kill(p, syscall.SIGKILL)
		}
		g.setFrozen(false)
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// cpu returns the CPU time used so far by the group's processes.
func (g *group) cpu() (time.Duration, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.removed {
		return g.lastCPU, true
	}
	var d time.Duration
	if g.v2 {
		b, err := os.ReadFile(filepath.Join(g.cpuacct, "cpu.stat"))
		if err != nil {
			return 0, false
		}
		us, ok := statField(b, "usage_usec")
		if !ok {
			return 0, false
		}
		d = time.Duration(us) * time.Microsecond
	} else {
		b, err := os.ReadFile(filepath.Join(g.cpuacct, "cpuacct.usage"))
		if err != nil {
			return 0, false
		}
		ns, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			return 0, false
		}
		d = time.Duration(ns)
	}
	g.lastCPU = d
	return d, true
}

// oomKills returns how many processes the kernel killed for the group's
// memory limit.
func (g *group) oomKills() int64 {
	file := filepath.Join(g.memory, "memory.oom_control")
	if g.v2 {
		file = filepath.Join(g.memory, "memory.events")
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	n, _ := statField(b, "oom_kill")
	return n
}

// remove removes the group's directories; its processes must be gone.
func (g *group) remove() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.removed {
		return
	}
	g.removed = true
	if g.owner != nil {
		defer g.owner.live.Add(-1)
	}
	for _, d := range g.dirs {
		// A process that just died may keep the group busy for a moment.
		for i := 0; i < 100; i++ {
			if err := os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) || !errors.Is(err, syscall.EBUSY) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
