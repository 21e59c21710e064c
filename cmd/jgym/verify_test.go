package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// verifyFixture writes a plain copy of a reference trace and a copy with
// one unit's health changed in round 3 into a temporary directory.
func verifyFixture(t *testing.T) (plain, broken string) {
	t.Helper()
	dir := t.TempDir()
	raw := string(gunzipFile(t, filepath.Join(tracesDir, "crematoria_s5_Demo-Null-Demo-Null.res.gz")))
	plain = filepath.Join(dir, "crematoria_s5_Demo-Null-Demo-Null.res")
	if err := os.WriteFile(plain, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	// Unit 0 is the first unit line after "status" in state 3.
	at := 0
	for range 4 {
		at += strings.Index(raw[at:], "status 0 0 0 0\n") + len("status 0 0 0 0\n")
	}
	line := raw[at : at+strings.IndexByte(raw[at:], '\n')]
	f := strings.Fields(line)
	f[2] = map[bool]string{true: "99", false: "100"}[f[2] == "100"]
	broken = filepath.Join(dir, "broken.res")
	if err := os.WriteFile(broken, []byte(raw[:at]+strings.Join(f, " ")+raw[at+len(line):]), 0o644); err != nil {
		t.Fatal(err)
	}
	return plain, broken
}

func TestVerifyCommand(t *testing.T) {
	plain, broken := verifyFixture(t)
	garbage := filepath.Join(t.TempDir(), "garbage.res")
	if err := os.WriteFile(garbage, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := func(name string) string { return filepath.Join(tracesDir, name+".res.gz") }
	cmd := func(name string) string { return filepath.Join(tracesDir, "commands", name+".cmd.gz") }
	edge := filepath.Join(tracesDir, "edge")
	s1, s2 := "crematoria_s1_Dummy-Demo-Null-Demo", "crematoria_s2_Demo-Demo-Demo-Demo"
	for _, c := range []struct {
		name     string
		args     []string
		wantCode int
		wantOut  []string // lines of stdout, in order (prefixes)
		wantErr  string   // substring of stderr
	}{
		{"rules, gzipped and plain", []string{ref(s1), plain}, 0,
			[]string{"OK " + ref(s1), "OK " + plain}, ""},
		{"one command file per trace", []string{"--commands", cmd(s1), ref(s1), ref(s2), "--commands", cmd(s2)}, 0,
			[]string{"OK " + ref(s1), "OK " + ref(s2)}, ""},
		{"a directory of command files", []string{"--commands", filepath.Join(tracesDir, "commands"), ref(s1), ref(s2), plain}, 0,
			[]string{"OK " + ref(s1), "OK " + ref(s2), "OK " + plain}, ""},
		{"FIXED edge case with its configuration", []string{"-i", filepath.Join(edge, "fixed.cnf"), "--commands", edge,
			filepath.Join(edge, "crematoria_s9_Demo-Null-Demo-Dummy_fixed.res.gz")}, 0,
			[]string{"OK "}, ""},
		{"wrong configuration", []string{"-i", filepath.Join(edge, "alt.cnf"), ref(s1)}, 1,
			[]string{"FAIL " + ref(s1) + ": header, nb_rounds: want 60, got 120 (line 7)"}, "1 of 1 traces failed"},
		{"a changed health", []string{broken, plain}, 1,
			[]string{"FAIL " + broken + ": round 3, unit 0, health: want", "OK " + plain}, "1 of 2 traces failed"},
		{"a changed health, with commands", []string{"--commands", cmd("crematoria_s5_Demo-Null-Demo-Null"), broken}, 1,
			[]string{"FAIL " + broken + ": round 3, unit 0, health: want 100, got 99 (line "}, ""},
		{"missing file", []string{filepath.Join(tracesDir, "nope.res.gz")}, 1,
			[]string{"FAIL " + filepath.Join(tracesDir, "nope.res.gz") + ": open "}, "1 of 1 traces failed"},
		{"not a trace", []string{garbage}, 1,
			[]string{"FAIL " + garbage + `: bad trace: line 1 (header): want "Game", got "hello"`}, ""},
		{"no command file in the directory", []string{"--commands", edge, ref(s1)}, 1,
			[]string{"FAIL " + ref(s1) + ": commands: no " + s1 + ".cmd.gz or " + s1 + ".cmd in " + edge}, ""},
		{"no trace", []string{"--commands", edge}, 2, nil, "no trace given"},
		{"one command file for two traces", []string{"--commands", cmd(s1), ref(s1), ref(s2)}, 2, nil, "give one per trace"},
		{"three command files for two traces", []string{"--commands", cmd(s1), "--commands", cmd(s1), "--commands", cmd(s2), ref(s1), ref(s2)}, 2,
			nil, "3 --commands for 2 traces"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runJgym(append([]string{"verify"}, c.args...)...)
			if code != c.wantCode {
				t.Errorf("exit code: got %d, want %d (stderr %q)", code, c.wantCode, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if c.wantOut == nil {
				lines = nil
			}
			if len(lines) != len(c.wantOut) {
				t.Fatalf("stdout: got %q, want %d lines %q", stdout, len(c.wantOut), c.wantOut)
			}
			for i, want := range c.wantOut {
				if !strings.HasPrefix(lines[i], want) {
					t.Errorf("stdout line %d: got %q, want prefix %q", i+1, lines[i], want)
				}
			}
			if !strings.Contains(stderr, c.wantErr) {
				t.Errorf("stderr: got %q, want it to contain %q", stderr, c.wantErr)
			}
		})
	}
}
