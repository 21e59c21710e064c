package main

import (
	"os"
	"strconv"
	"syscall"
)

// parentEnv names the process a jgym started by a client dies with. The
// Python client sets it rather than running prctl between fork and exec:
// a preexec step makes Python fork without vfork, and in a process that
// holds gRPC (whose fork handlers then run in the child) that child could
// abort before exec.
const parentEnv = "JGYM_PARENT_PID"

// init runs on the main thread (the Go runtime locks the main goroutine to
// it during initialisation), the thread the kernel watches for the parent's
// death signal. The variable is removed so that processes jgym starts do
// not inherit it.
func init() {
	v, ok := os.LookupEnv(parentEnv)
	if !ok {
		return
	}
	os.Unsetenv(parentEnv)
	pid, err := strconv.Atoi(v)
	if err != nil || pid <= 0 {
		os.Stderr.WriteString("jgym: " + parentEnv + " is not a process id\n")
		os.Exit(2)
	}
	const prSetPdeathsig = 1
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetPdeathsig, uintptr(syscall.SIGKILL), 0); e != 0 {
		os.Stderr.WriteString("jgym: prctl(PR_SET_PDEATHSIG): " + e.Error() + "\n")
		os.Exit(1)
	}
	if os.Getppid() != pid { // the parent died before the prctl
		os.Exit(1)
	}
}
