//go:build race

package cppexport_test

// raceEnabled: the race detector slows the Go interpreter down about 25
// times, so the tests play short games.
const raceEnabled = true
