//go:build !race

package cppexport_test

const raceEnabled = false
