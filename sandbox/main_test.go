package sandbox

import (
	"fmt"
	"os"
	"testing"
)

// TestMain removes the control groups and the shared files' directory
// the tests made.
func TestMain(m *testing.M) {
	code := m.Run()
	if !Release() && code == 0 {
		fmt.Fprintln(os.Stderr, "sandbox: control groups or shared files are left after the tests")
		code = 1
	}
	os.Exit(code)
}
