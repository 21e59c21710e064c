package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// TestParentPID runs this test binary (whose init is jgym's) with
// JGYM_PARENT_PID set: the process must start when the variable names its
// parent, and exit at once when it names another process or is not a
// number.
func TestParentPID(t *testing.T) {
	for _, c := range []struct {
		value string
		code  int
	}{
		{strconv.Itoa(os.Getpid()), 0},
		{strconv.Itoa(os.Getpid() + 1<<20), 1}, // not this process's parent
		{"parent", 2},
	} {
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), parentEnv+"="+c.value)
		out, err := cmd.CombinedOutput()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code {
			t.Errorf("%s=%s: exit status %d, want %d (output %q)", parentEnv, c.value, code, c.code, out)
		}
	}
}
