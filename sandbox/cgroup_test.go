package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The mountinfo of a machine with cgroup v1 (each controller its own
// hierarchy, as on the CI machines), with a v2 hierarchy holding none of
// them, and the mountinfo of a container on cgroup v2.
const (
	mountinfoV1 = `23 1 0:21 / / rw,relatime - ext4 /dev/vda rw
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`
	selfV1 = `9:name=systemd:/
8:pids:/
6:freezer:/
4:memory:/job/42
2:cpuacct:/
1:cpu:/
0::/
`
	mountinfoV2 = `600 500 0:40 / / rw - overlay overlay rw
612 600 0:26 /kubepods/pod1/abc /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw
700 600 0:50 / /with\040space rw - tmpfs tmpfs rw
`
	selfV2 = "0::/kubepods/pod1/abc\n"
)

func TestFindCgroups(t *testing.T) {
	l := findCgroups([]byte(mountinfoV1), []byte(selfV1))
	want := map[string]string{"cpu": "/sys/fs/cgroup/cpu", "cpuacct": "/sys/fs/cgroup/cpuacct",
		"memory": "/sys/fs/cgroup/memory/job/42", "freezer": "/sys/fs/cgroup/freezer", "pids": "/sys/fs/cgroup/pids"}
	for c, d := range want {
		if l.v1[c] != d {
			t.Errorf("v1 %s: %q, want %q", c, l.v1[c], d)
		}
	}
	if l.v2 != "/sys/fs/cgroup/unified" {
		t.Errorf("v2: %q", l.v2)
	}
	// In a container the hierarchy is mounted at its own cgroup.
	l = findCgroups([]byte(mountinfoV2), []byte(selfV2))
	if l.v2 != "/sys/fs/cgroup" || len(l.v1) != 0 {
		t.Errorf("container: %+v, want v2 at /sys/fs/cgroup", l)
	}
	if ms := parseMountinfo([]byte(mountinfoV2)); len(ms) != 1 {
		t.Errorf("parseMountinfo found %d cgroup mounts, want 1", len(ms))
	}
	if got := unescapeMount(`/with\040space`); got != "/with space" {
		t.Errorf("unescapeMount = %q", got)
	}
}

// fakeTree makes the directories of a layout in a temporary directory
// (the kernel makes a group's files; here they are written as plain
// files).
func fakeTree(t *testing.T, v2 bool) (cgLayout, string) {
	t.Helper()
	root := t.TempDir()
	if v2 {
		own := filepath.Join(root, "own")
		os.MkdirAll(own, 0o755)
		os.WriteFile(filepath.Join(own, "cgroup.controllers"), []byte("cpuset cpu io memory pids\n"), 0o644)
		os.WriteFile(filepath.Join(own, "cgroup.subtree_control"), []byte("cpu memory pids\n"), 0o644)
		return cgLayout{v2: own}, root
	}
	l := cgLayout{v1: map[string]string{}}
	for _, c := range v1Controllers {
		d := filepath.Join(root, c, "own")
		os.MkdirAll(d, 0o755)
		l.v1[c] = d
	}
	return l, root
}

func readFake(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// The files jgym writes in cgroup v1 and v2: the parents' CPU weight, a
// group's memory (no swap) and process limits, its members, the
// freezer; and what it reads back (CPU time, OOM kills).
func TestGroupFiles(t *testing.T) {
	for _, v2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "v1", true: "v2"}[v2], func(t *testing.T) {
			l, _ := fakeTree(t, v2)
			const pid = 4242
			// A group left by a jgym that is gone is removed.
			ownDirs := []string{l.v2}
			if !v2 {
				ownDirs = nil
				for _, c := range v1Controllers {
					ownDirs = append(ownDirs, l.v1[c])
				}
			}
			stale := filepath.Join(ownDirs[0], "jgym-999999999")
			os.Mkdir(stale, 0o755)
			cg, err := setupCgroups(l, pid)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(stale); err == nil {
				t.Error("the stale group of a gone jgym is left")
			}
			if v2 {
				parent := filepath.Join(l.v2, "jgym-4242")
				if got := readFake(t, filepath.Join(parent, "cpu.weight")); got != strconv.Itoa(cpuWeightV2) {
					t.Errorf("cpu.weight %q", got)
				}
				if got := readFake(t, filepath.Join(parent, "cgroup.subtree_control")); !hasAll(got, v2Controllers) {
					t.Errorf("subtree_control %q", got)
				}
			} else if got := readFake(t, filepath.Join(l.v1["cpu"], "jgym-4242", "cpu.shares")); got != strconv.Itoa(cpuSharesV1) {
				t.Errorf("cpu.shares %q", got)
			}
			g, err := cg.newGroup(32<<20, 18)
			if err != nil {
				t.Fatal(err)
			}
			memFile, memWant := "memory.limit_in_bytes", "33554432"
			if v2 {
				memFile = "memory.max"
			}
			if got := readFake(t, filepath.Join(g.memory, memFile)); got != memWant {
				t.Errorf("%s = %q", memFile, got)
			}
			if got := readFake(t, filepath.Join(g.pids, "pids.max")); got != "18" {
				t.Errorf("pids.max = %q", got)
			}
			if err := g.attach(77); err != nil {
				t.Fatal(err)
			}
			for _, d := range g.dirs {
				if got := readFake(t, filepath.Join(d, "cgroup.procs")); got != "77" {
					t.Errorf("%s/cgroup.procs = %q", d, got)
				}
			}
			freezeFile, frozen, thawed := "freezer.state", "FROZEN", "THAWED"
			if v2 {
				freezeFile, frozen, thawed = "cgroup.freeze", "1", "0"
			}
			g.setFrozen(true)
			if got := readFake(t, filepath.Join(g.freezer, freezeFile)); got != frozen {
				t.Errorf("frozen: %s = %q", freezeFile, got)
			}
			g.setFrozen(false)
			if got := readFake(t, filepath.Join(g.freezer, freezeFile)); got != thawed {
				t.Errorf("thawed: %s = %q", freezeFile, got)
			}
			if v2 {
				os.WriteFile(filepath.Join(g.cpuacct, "cpu.stat"), []byte("usage_usec 1500000\nuser_usec 1000000\n"), 0o644)
				os.WriteFile(filepath.Join(g.memory, "memory.events"), []byte("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n"), 0o644)
			} else {
				os.WriteFile(filepath.Join(g.cpuacct, "cpuacct.usage"), []byte("1500000000\n"), 0o644)
				os.WriteFile(filepath.Join(g.memory, "memory.oom_control"), []byte("oom_kill_disable 0\nunder_oom 0\noom_kill 1\n"), 0o644)
			}
			if d, ok := g.cpu(); !ok || d != 1500*time.Millisecond {
				t.Errorf("cpu() = %v, %v; want 1.5s", d, ok)
			}
			if n := g.oomKills(); n != 1 {
				t.Errorf("oomKills() = %d, want 1", n)
			}
			if cg.live.Load() != 1 {
				t.Errorf("%d live groups, want 1", cg.live.Load())
			}
		})
	}
}

// Without the controllers, or with a cgroup v2 shared with other
// processes, the sandbox is uncounted and says why.
func TestCgroupsUnavailable(t *testing.T) {
	l, _ := fakeTree(t, false)
	delete(l.v1, "freezer")
	if _, err := setupCgroups(l, 1); !errors.Is(err, ErrUncounted) || !strings.Contains(err.Error(), "lacks freezer") {
		t.Errorf("v1 without freezer: %v", err)
	}
	if _, err := setupCgroups(cgLayout{}, 1); !errors.Is(err, ErrUncounted) || !strings.Contains(err.Error(), "no cgroup v2") {
		t.Errorf("no hierarchy: %v", err)
	}
	// A v2 cgroup whose controllers cannot be passed on (here: its
	// subtree_control cannot be written) and that holds another process.
	l, _ = fakeTree(t, true)
	sub := filepath.Join(l.v2, "cgroup.subtree_control")
	os.Remove(sub)
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(l.v2, "cgroup.procs"), []byte("4242\n5151\n"), 0o644)
	if _, err := setupCgroups(l, 4242); !errors.Is(err, ErrUncounted) || !strings.Contains(err.Error(), "holds other processes") {
		t.Errorf("v2 shared with another process: %v", err)
	}
}
