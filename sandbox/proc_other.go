//go:build !linux

package sandbox

import "os/exec"

const supported = false

func (sb *Sandbox) setProcAttr(*exec.Cmd) {}

// Kill kills a started command.
func Kill(cmd *exec.Cmd) {
	if cmd != nil && cmd.Process != nil {
		cmd.Process.Kill()
	}
}
