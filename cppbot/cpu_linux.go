package cppbot

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// treeCPU returns the CPU time used so far by the process pid and its
// descendants, from /proc (the kernel's USER_HZ is 100 on Linux).
func treeCPU(pid int) (user, sys time.Duration, ok bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, 0, false
	}
	type stat struct {
		ppid       int
		utime, stm int64
	}
	procs := map[int]stat{}
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
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		procs[p] = stat{ppid, ut, st}
	}
	if _, ok := procs[pid]; !ok {
		return 0, 0, false
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
		user += time.Duration(procs[p].utime) * tick
		sys += time.Duration(procs[p].stm) * tick
	}
	return user, sys, true
}

const supportsTreeCPU = true
