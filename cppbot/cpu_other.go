//go:build !linux

package cppbot

func treeUsage(int) (tree, player Usage, ok bool) { return tree, player, false }

const supportsTreeCPU = false
