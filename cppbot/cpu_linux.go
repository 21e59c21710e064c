package cppbot

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// procStat is what usage reads of one process in /proc.
type procStat struct {
	ppid       int
	comm       string
	utime, stm int64 // clock ticks
}

// treeUsage returns what the process pid and its descendants used so far
// (tree: CPU only) and what the bot's own processes used (player: CPU and
// the sum of their peak resident sets): the descendants that are not the
// sandbox's, the sandbox's being pid itself and the descendants with its
// command name (bwrap and the init process it forks). It reads /proc; the
// kernel's USER_HZ is 100 on Linux, so times are multiples of 10 ms.
func treeUsage(pid int) (tree, player Usage, ok bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return tree, player, false
	}
	procs := map[int]procStat{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name, in parentheses, may hold spaces: fields
		// start after its closing parenthesis.
		s := string(b)
		i, j := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if i < 0 || j < i {
			continue
		}
		f := strings.Fields(s[j+1:])
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		procs[p] = procStat{ppid, s[i+1 : j], ut, st}
	}
	root, found := procs[pid]
	if !found {
		return tree, player, false
	}
	const tick = 10 * time.Millisecond
	in := map[int]bool{pid: true}
	for changed := true; changed; {
		changed = false
		for p, st := range procs {
			if !in[p] && in[st.ppid] {
				in[p], changed = true, true
			}
		}
	}
	for p := range in {
		st := procs[p]
		u, s := time.Duration(st.utime)*tick, time.Duration(st.stm)*tick
		tree.User += u
		tree.Sys += s
		if p == pid || st.comm == root.comm {
			continue
		}
		player.User += u
		player.Sys += s
		player.PeakRSS += peakRSS(p)
	}
	return tree, player, true
}

// peakRSS returns the peak resident set size of process pid in bytes
// (VmHWM of /proc/pid/status), 0 if unknown.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

const supportsTreeCPU = true
