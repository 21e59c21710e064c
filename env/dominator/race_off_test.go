//go:build !race

package dominator

// raceEnabled reports whether the tests run with the race detector, which
// makes games some ten times slower: long tests play fewer of them.
const raceEnabled = false
