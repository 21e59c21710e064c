//go:build unix

package cppbot

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the bot in its own process group, so that Close kills
// everything it started.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

// killGroup kills the bot's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	// The group id is the bot's pid (Setpgid). Kill the process too, in
	// case the group could not be made.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
