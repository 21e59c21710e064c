//go:build race

package moria

// raceEnabled reports whether the tests run under the race detector, which
// slows the bots about twenty times: the long tests then play fewer games.
const raceEnabled = true
