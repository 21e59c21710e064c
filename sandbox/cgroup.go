package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrUncounted means the sandbox cannot give each program a control group
// of its own on this machine (no cgroup v2 with the memory, pids and cpu
// controllers, no cgroup v1 hierarchies memory, pids, cpu, cpuacct and
// freezer, or jgym may not write them): programs then run with their
// per-process limits only, and their memory outside /tmp (shared memory,
// pipes) and their CPU over all their processes are not counted.
var ErrUncounted = errors.New("no control groups")

// The CPU weight of all of jgym's sandboxes together. In cgroup v1 each
// of jgym's own threads weighs 1024 (cpu.shares), in v2 jgym's own leaf
// weighs 100 (cpu.weight): when the server steps games on two cores and
// every sandbox wants the CPU too, bots and compilers together get about
// a fifth of it.
const (
	cpuSharesV1 = 512
	cpuWeightV2 = 25
)

var (
	v1Controllers = []string{"memory", "pids", "cpu", "cpuacct", "freezer"}
	v2Controllers = []string{"memory", "pids", "cpu"}
)

// cgMount is a cgroup hierarchy of /proc/self/mountinfo.
type cgMount struct {
	dir   string   // where it is mounted
	root  string   // the cgroup shown at dir
	v2    bool     // the unified hierarchy
	ctrls []string // v1: its controllers
}

// parseMountinfo returns the cgroup hierarchies of a mountinfo file.
func parseMountinfo(b []byte) []cgMount {
	var ms []cgMount
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		sep := -1
		for i, s := range f {
			if s == "-" {
				sep = i
				break
			}
		}
		if sep < 5 || len(f) < sep+4 {
			continue
		}
		m := cgMount{dir: unescapeMount(f[4]), root: unescapeMount(f[3])}
		switch f[sep+1] {
		case "cgroup2":
			m.v2 = true
		case "cgroup":
			for _, o := range strings.Split(f[sep+3], ",") {
				if o != "rw" && o != "ro" && !strings.Contains(o, "=") {
					m.ctrls = append(m.ctrls, o)
				}
			}
		default:
			continue
		}
		ms = append(ms, m)
	}
	return ms
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgLayout says where jgym's own cgroup is in each hierarchy.
type cgLayout struct {
	v2 string            // its directory in the unified hierarchy, "" if none is mounted
	v1 map[string]string // controller -> its directory in the v1 hierarchy of the controller
}

// findCgroups locates jgym's cgroups from /proc/self/mountinfo and
// /proc/self/cgroup.
func findCgroups(mountinfo, self []byte) cgLayout {
	l := cgLayout{v1: map[string]string{}}
	own := map[string]string{} // "0" or a controller -> path
	sc := bufio.NewScanner(bytes.NewReader(self))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			own["0"] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			own[c] = parts[2]
		}
	}
	under := func(m cgMount, path string) (string, bool) {
		rel, ok := strings.CutPrefix(path, m.root)
		if !ok || (rel != "" && !strings.HasPrefix(rel, "/") && m.root != "/") {
			return "", false
		}
		return filepath.Join(m.dir, rel), true
	}
	for _, m := range parseMountinfo(mountinfo) {
		if m.v2 {
			if p, ok := own["0"]; ok && l.v2 == "" {
				if d, ok := under(m, p); ok {
					l.v2 = d
				}
			}
			continue
		}
		for _, c := range m.ctrls {
			if p, ok := own[c]; ok && l.v1[c] == "" {
				if d, ok := under(m, p); ok {
					l.v1[c] = d
				}
			}
		}
	}
	return l
}

// cgroups are jgym's control groups: one parent group per hierarchy,
// named jgym-<pid>, beneath jgym's own cgroup, and a group per sandbox
// beneath it. It is safe for concurrent use.
type cgroups struct {
	v2      bool
	parents []string          // one per hierarchy
	ctrl    map[string]string // controller -> its parent directory
	seq     atomic.Uint64
	live    atomic.Int64 // groups not yet removed
}

// setupCgroups makes jgym's parent groups (removing those of jgym
// processes that are gone), or says why it cannot.
func setupCgroups(l cgLayout, pid int) (*cgroups, error) {
	if l.v2 != "" {
		avail, _ := os.ReadFile(filepath.Join(l.v2, "cgroup.controllers"))
		if hasAll(string(avail), v2Controllers) {
			return setupV2(l.v2, pid)
		}
	}
	var missing []string
	for _, c := range v1Controllers {
		if l.v1[c] == "" {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		if l.v2 != "" {
			return nil, fmt.Errorf("%w: cgroup v2 does not offer jgym the controllers %s, and cgroup v1 lacks %s",
				ErrUncounted, strings.Join(v2Controllers, ", "), strings.Join(missing, ", "))
		}
		return nil, fmt.Errorf("%w: no cgroup v2, and cgroup v1 lacks %s", ErrUncounted, strings.Join(missing, ", "))
	}
	cg := &cgroups{ctrl: map[string]string{}}
	made := map[string]string{} // own dir -> parent
	for _, c := range v1Controllers {
		own := l.v1[c]
		if p, ok := made[own]; ok {
			cg.ctrl[c] = p
			continue
		}
		removeStale(own, pid)
		p := filepath.Join(own, "jgym-"+strconv.Itoa(pid))
		if err := makeGroup(p); err != nil {
			cg.removeParents()
			return nil, fmt.Errorf("%w: cgroup v1: %v", ErrUncounted, err)
		}
		made[own] = p
		cg.parents = append(cg.parents, p)
		cg.ctrl[c] = p
	}
	if err := writeFile(filepath.Join(cg.ctrl["cpu"], "cpu.shares"), strconv.Itoa(cpuSharesV1)); err != nil {
		cg.removeParents()
		return nil, fmt.Errorf("%w: cgroup v1: %v", ErrUncounted, err)
	}
	return cg, nil
}

// setupV2 makes the parent group in the unified hierarchy. A cgroup
// with processes cannot give controllers to its children (unless it is
// the root), so where jgym's own cgroup does not yet, jgym first moves
// itself to a leaf of its own, jgym-server-<pid>, which it can do only if
// no other process shares its cgroup (a container, a systemd unit with
// Delegate=yes).
func setupV2(own string, pid int) (*cgroups, error) {
	removeStale(own, pid)
	enable := "+" + strings.Join(v2Controllers, " +")
	sub := filepath.Join(own, "cgroup.subtree_control")
	if cur, _ := os.ReadFile(sub); !hasAll(string(cur), v2Controllers) {
		if err := writeFile(sub, enable); err != nil {
			procs, _ := readPids(filepath.Join(own, "cgroup.procs"))
			for _, p := range procs {
				if p != pid {
					return nil, fmt.Errorf("%w: cgroup v2: %s holds other processes than jgym, so jgym cannot give its sandboxes controllers (run jgym in a cgroup of its own: a container, or a systemd unit with Delegate=yes)",
						ErrUncounted, own)
				}
			}
			leaf := filepath.Join(own, "jgym-server-"+strconv.Itoa(pid))
			if err := makeGroup(leaf); err != nil {
				return nil, fmt.Errorf("%w: cgroup v2: %v", ErrUncounted, err)
			}
			if err := writeFile(filepath.Join(leaf, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
				os.Remove(leaf)
				return nil, fmt.Errorf("%w: cgroup v2: %v", ErrUncounted, err)
			}
			if err := writeFile(sub, enable); err != nil {
				return nil, fmt.Errorf("%w: cgroup v2: %v", ErrUncounted, err)
			}
		}
	}
	p := filepath.Join(own, "jgym-"+strconv.Itoa(pid))
	if err := makeGroup(p); err != nil {
		return nil, fmt.Errorf("%w: cgroup v2: %v", ErrUncounted, err)
	}
	cg := &cgroups{v2: true, parents: []string{p}, ctrl: map[string]string{}}
	for _, c := range v1Controllers {
		cg.ctrl[c] = p
	}
	for _, w := range []struct{ file, value string }{
		{"cgroup.subtree_control", enable},
		{"cpu.weight", strconv.Itoa(cpuWeightV2)},
	} {
		if err := writeFile(filepath.Join(p, w.file), w.value); err != nil {
			cg.removeParents()
			return nil, fmt.Errorf("%w: cgroup v2: %v", ErrUncounted, err)
		}
	}
	return cg, nil
}

// removeStale removes the groups of jgym processes that are gone
// (killing what is left in them: a server that crashed leaves frozen
// bots in cgroup v1).
func removeStale(own string, pid int) {
	ents, err := os.ReadDir(own)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, "jgym-")
		if !ok || !e.IsDir() {
			continue
		}
		rest = strings.TrimPrefix(rest, "server-")
		n, err := strconv.Atoi(rest)
		if err != nil || n <= 0 || (n != pid && syscall.Kill(n, 0) != syscall.ESRCH) {
			continue
		}
		dir := filepath.Join(own, name)
		kids, _ := os.ReadDir(dir)
		for _, k := range kids {
			if k.IsDir() {
				g := &group{dirs: []string{filepath.Join(dir, k.Name())}}
				g.pids, g.freezer = g.dirs[0], g.dirs[0]
				g.v2 = fileExists(filepath.Join(g.pids, "cgroup.freeze"))
				g.killAll(time.Second)
				g.remove()
			}
		}
		os.Remove(dir)
	}
}

// processes returns the pids of the processes in jgym's groups.
func (c *cgroups) processes() []int {
	parent := c.ctrl["pids"]
	ents, _ := os.ReadDir(parent)
	var out []int
	for _, e := range ents {
		if e.IsDir() {
			ps, _ := readPids(filepath.Join(parent, e.Name(), "cgroup.procs"))
			out = append(out, ps...)
		}
	}
	return out
}

// removeParents removes jgym's parent groups (they must be empty).
func (c *cgroups) removeParents() {
	for i := len(c.parents) - 1; i >= 0; i-- {
		os.Remove(c.parents[i])
	}
}

// statField returns the value of "key value" in a cgroup file.
func statField(b []byte, key string) (int64, bool) {
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+" "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// readPids reads a cgroup.procs file.
func readPids(file string) ([]int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var ps []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			ps = append(ps, n)
		}
	}
	return ps, nil
}

// hasAll reports whether the space-separated list s holds every name.
func hasAll(s string, names []string) bool {
	have := map[string]bool{}
	for _, f := range strings.Fields(s) {
		have[strings.TrimPrefix(f, "+")] = true
	}
	for _, n := range names {
		if !have[n] {
			return false
		}
	}
	return true
}

// makeGroup makes a cgroup directory (an existing one is reused).
func makeGroup(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return nil
}

// writeFile writes value to a cgroup file.
func writeFile(file, value string) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(value)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

var (
	cgOnce sync.Once
	cgTree atomic.Pointer[cgroups] // set once by systemCgroups
	cgErr  error
)

// systemCgroups returns jgym's control groups, set up once per process.
func systemCgroups() (*cgroups, error) {
	cgOnce.Do(func() {
		mi, err := os.ReadFile("/proc/self/mountinfo")
		if err != nil {
			cgErr = fmt.Errorf("%w: %v", ErrUncounted, err)
			return
		}
		self, err := os.ReadFile("/proc/self/cgroup")
		if err != nil {
			cgErr = fmt.Errorf("%w: %v", ErrUncounted, err)
			return
		}
		var cg *cgroups
		cg, cgErr = setupCgroups(findCgroups(mi, self), os.Getpid())
		cgTree.Store(cg)
	})
	return cgTree.Load(), cgErr
}

// Release removes what this process made for its sandboxes (its parent
// control groups, the directory of shared files) once no sandbox is
// running; call it at exit (a later jgym removes the groups otherwise).
// It reports whether nothing is left. No sandbox may start afterwards.
func Release() bool {
	ok := shares.remove()
	if cg := cgTree.Load(); cg != nil {
		if cg.live.Load() > 0 {
			return false
		}
		cg.removeParents()
		for _, p := range cg.parents {
			if fileExists(p) {
				ok = false
			}
		}
	}
	return ok
}
