package cppbot

import "time"

// SetFreshFor sets freshFor for a test and returns the function that
// restores it.
func SetFreshFor(d time.Duration) (restore func()) {
	old := freshFor
	freshFor = d
	return func() { freshFor = old }
}
