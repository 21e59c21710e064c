package server_test

import (
	"testing"

	"jgym/internal/leakcheck"
)

func checkLeaks(t *testing.T) { leakcheck.Check(t) }
