package cppbot

import "syscall"

// setDeathSignal makes Linux kill the bot if jgym dies.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
