package sandbox

import (
	"os/exec"
	"syscall"
)

const supported = true

// setProcAttr starts bwrap in its own process group, killed if jgym dies,
// and as the unprivileged user where jgym is root.
func (sb *Sandbox) setProcAttr(cmd *exec.Cmd) {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if sb.root {
		a.Credential = &syscall.Credential{Uid: uint32(sb.uid), Gid: uint32(sb.gid), Groups: []uint32{}}
	}
	cmd.SysProcAttr = a
}

// Kill kills a started sandbox and everything in it: bwrap's process
// group; the processes inside die with bwrap (their PID namespace ends
// when its first process, which has bwrap as its death signal parent,
// dies), setsid children included.
func Kill(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
