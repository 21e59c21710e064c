//go:build unix && !linux

package cppbot

import "syscall"

func setDeathSignal(*syscall.SysProcAttr) {}
