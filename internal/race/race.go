// Package race reports whether the race detector is on, for tests that
// play fewer games under it (it slows the engines about tenfold).
package race
