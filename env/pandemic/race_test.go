//go:build race

package pandemic

// raceDetector is true when the tests run with -race. The engine is
// single-goroutine, so the heaviest known-answer loops (parsing and
// verifying every reference trace many times over) sample the traces
// under the race detector, which slows them tenfold; the plain run checks
// them all.
const raceDetector = true
