//go:build !race

package cppexport

const raceEnabled = false
