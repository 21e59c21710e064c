package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jgym/internal/strict"
)

const (
	cppKit      = "../../kit/crematoria"
	cppTestdata = "../../cppbot/testdata"
)

// TestCppSeats plays cpp: seats through the command line. The subtests share
// one compile cache, so every bot is compiled once.
func TestCppSeats(t *testing.T) {
	if _, err := exec.LookPath("g++"); err != nil {
		strict.Skip(t, "g++ not found")
	}
	t.Setenv("JGYM_CPP_CACHE", t.TempDir())
	t.Setenv("JGYM_CPP_TIMEOUT", "10s")
	dir := t.TempDir()

	obj := filepath.Join(dir, "AITestBot.o")
	out, err := exec.Command("g++", "-c", "-std=c++11", "-O2", "-I", cppKit, "-o", obj,
		filepath.Join(cppTestdata, "AITestBot.cc")).CombinedOutput()
	if err != nil {
		t.Fatalf("g++ -c AITestBot.cc: %v\n%s", err, out)
	}
	demo := "cpp:" + filepath.Join(cppKit, "AIDemo.cc")
	null := "cpp:" + filepath.Join(cppKit, "AINull.cc")

	tests := []struct {
		name    string
		args    []string
		code    int
		ref     string   // reference trace the output must equal
		names   string   // names line of the trace
		stderrs []string // texts jgym's stderr must hold
	}{
		{
			name: "demo", args: []string{demo, "Demo", "Demo", "Demo", "-s", "1"},
			ref: "crematoria_s1_Demo-Demo-Demo-Demo.res.gz",
		},
		{
			name: "demo and null", args: []string{demo, null, demo, null, "-s", "2"},
			ref: "crematoria_s2_Demo-Null-Demo-Null.res.gz",
		},
		{
			name: "prebuilt object", args: []string{"cpp:" + obj, "Demo", "Null", "cpp:" + obj, "-s", "3"},
			names: "names               TestBot Demo Null TestBot\n",
		},
		{
			name: "crash", args: []string{"cpp:" + filepath.Join(cppTestdata, "AICrash.cc"), "Demo", "Demo", "Demo", "-s", "1"},
			code: 1, stderrs: []string{"cpp bot Crash (seat 0) in round 5: crashed", "segmentation fault", "about to dereference"},
		},
		{
			name: "compile error", args: []string{"Demo", "cpp:" + filepath.Join(cppTestdata, "AIBroken.cc"), "Demo", "Demo", "-s", "1"},
			code: 1, stderrs: []string{"player 1:", "AIBroken.cc:10:", "undeclared_variable"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".res")
			code, _, stderr := runJgym(append([]string{"match", "-o", res, "-q"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			for _, w := range tc.stderrs {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if tc.code != 0 {
				return
			}
			got, err := os.ReadFile(res)
			if err != nil {
				t.Fatal(err)
			}
			if tc.ref != "" && !bytes.Equal(got, gunzipFile(t, filepath.Join(tracesDir, tc.ref))) {
				t.Errorf("trace differs from %s", tc.ref)
			}
			if tc.names != "" && !bytes.Contains(got, []byte(tc.names)) {
				t.Errorf("trace lacks %q", tc.names)
			}
		})
	}

	code, stdout, _ := runJgym("list")
	if code != 0 || !strings.Contains(stdout, "cpp:PATH") {
		t.Errorf("jgym list: exit %d, no cpp:PATH line:\n%s", code, stdout)
	}
}

func TestCppOptions(t *testing.T) {
	tests := []struct {
		env     map[string]string
		timeout time.Duration
		stderr  bool
		bad     bool
	}{
		{env: map[string]string{}},
		{env: map[string]string{"JGYM_CPP_TIMEOUT": "250ms", "JGYM_CPP_STDERR": "1"}, timeout: 250 * time.Millisecond, stderr: true},
		{env: map[string]string{"JGYM_CPP_TIMEOUT": "soon"}, bad: true},
		{env: map[string]string{"JGYM_CPP_TIMEOUT": "-1s"}, bad: true},
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		opts, err := cppOptions(func(k string) string { return tc.env[k] }, &buf)
		if (err != nil) != tc.bad {
			t.Errorf("%v: error %v", tc.env, err)
			continue
		}
		if tc.bad {
			continue
		}
		if opts.RoundTimeout != tc.timeout || (opts.Stderr != nil) != tc.stderr {
			t.Errorf("%v: got %+v", tc.env, opts)
		}
	}
}

// The commands' C++ bots wait 10 s a round unless JGYM_CPP_TIMEOUT says
// otherwise; jgym serve reads the environment as it is (cppbot's 1 s).
func TestCliRoundTimeout(t *testing.T) {
	t.Setenv("JGYM_CPP_TIMEOUT", "")
	opts, err := cppOptions(cliGetenv, io.Discard)
	if err != nil || opts.RoundTimeout != 10*time.Second {
		t.Errorf("unset: %v, %v; want 10s", opts.RoundTimeout, err)
	}
	if opts, err := cppOptions(os.Getenv, io.Discard); err != nil || opts.RoundTimeout != 0 {
		t.Errorf("jgym serve's options, unset: %v, %v; want cppbot's default (0)", opts.RoundTimeout, err)
	}
	t.Setenv("JGYM_CPP_TIMEOUT", "300ms")
	if opts, err := cppOptions(cliGetenv, io.Discard); err != nil || opts.RoundTimeout != 300*time.Millisecond {
		t.Errorf("300ms: %v, %v", opts.RoundTimeout, err)
	}
}
