package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tracesDir = "../../testdata/crematoria/traces"

func gunzipFile(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func runJgym(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func TestMatchWritesReferenceTrace(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.res")
	// Flags after the players, as with the kit's Game program.
	code, _, stderr := runJgym("match", "Demo", "Null", "Demo", "Null", "-s", "4", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := gunzipFile(t, filepath.Join(tracesDir, "crematoria_s4_Demo-Null-Demo-Null.res.gz"))
	if !bytes.Equal(got, want) {
		t.Error("jgym match -s 4 Demo Null Demo Null differs from the reference trace")
	}
	// index.tsv: 235 29 357 33, top player 2.
	for _, line := range []string{"info: player Demo got score 235", "info: player Null got score 29", "info: player Demo got score 357", "info: player(s) Demo got top score", "info: game played"} {
		if !strings.Contains(stderr, line) {
			t.Errorf("results lack %q:\n%s", line, stderr)
		}
	}
}

func TestMatchStdoutAndConfig(t *testing.T) {
	code, stdout, stderr := runJgym("match", "-s", "3", "-i", filepath.Join(tracesDir, "edge/alt.cnf"), "Demo", "Null", "Demo", "Demo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := gunzipFile(t, filepath.Join(tracesDir, "edge/crematoria_s3_Demo-Null-Demo-Demo_alt.res.gz"))
	if stdout != string(want) {
		t.Error("trace on stdout with alt.cnf differs from the reference")
	}
}

func TestMatchErrors(t *testing.T) {
	dir := t.TempDir()
	badCfg := filepath.Join(dir, "bad.cnf")
	if err := os.WriteFile(badCfg, []byte("Crematoria 1.2\nnb_players 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown bot", []string{"match", "Demo", "Nobody", "Demo", "Demo", "-s", "1"}, 1, `unknown bot "Nobody"`},
		{"missing seed", []string{"match", "Demo", "Demo", "Demo", "Demo"}, 2, "missing seed"},
		{"negative seed", []string{"match", "Demo", "Demo", "Demo", "Demo", "-s", "-3"}, 2, "bad seed"},
		{"text seed", []string{"match", "Demo", "Demo", "Demo", "Demo", "-s", "abc"}, 2, "bad seed"},
		{"three players", []string{"match", "Demo", "Demo", "Demo", "-s", "1"}, 2, "want 4 players"},
		{"bad config", []string{"match", "Demo", "Demo", "Demo", "Demo", "-s", "1", "-i", badCfg}, 1, "bad configuration"},
		{"missing config", []string{"match", "Demo", "Demo", "Demo", "Demo", "-s", "1", "-i", filepath.Join(dir, "nope.cnf")}, 1, "no such file"},
		{"unwritable output", []string{"match", "Demo", "Demo", "Demo", "Demo", "-s", "1", "-o", filepath.Join(dir, "no/such/dir/out.res")}, 1, "output"},
		{"long name", []string{"match", "Demo", "ABCDEFGHIJKLMN", "Demo", "Demo", "-s", "1"}, 2, "too long"},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
	}
	for _, tc := range tests {
		code, _, stderr := runJgym(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d containing %q", tc.name, code, stderr, tc.code, tc.msg)
		}
	}
}

func TestListAndHelp(t *testing.T) {
	code, stdout, _ := runJgym("list")
	if code != 0 || !strings.Contains(stdout, "Demo\n") || !strings.Contains(stdout, "Null\n") {
		t.Errorf("jgym list: exit %d, output %q", code, stdout)
	}
	code, stdout, _ = runJgym("help")
	if code != 0 || !strings.Contains(stdout, "match") {
		t.Errorf("jgym help: exit %d, output %q", code, stdout)
	}
}

// jgym without a command is a usage error; list takes --help and --game.
func TestUsageAndList(t *testing.T) {
	if code, stdout, stderr := runJgym(); code != 2 || stdout != "" || !strings.Contains(stderr, "Usage: jgym <command>") {
		t.Errorf("jgym: exit %d, stdout %q, stderr %.80q; want exit 2 and the help on stderr", code, stdout, stderr)
	}
	if code, _, stderr := runJgym("list", "--help"); code != 0 || !strings.Contains(stderr, "usage: jgym list [--game NAME]") {
		t.Errorf("jgym list --help: exit %d, stderr %q", code, stderr)
	}
	if code, stdout, _ := runJgym("list", "-g", "pandemic"); code != 0 || !strings.HasPrefix(stdout, "Pandemic:\nDemo\nDummyClone\nNull\nPasteur\nSearch\ncpp:PATH") {
		t.Errorf("jgym list -g pandemic: exit %d, stdout %q", code, stdout)
	}
	if code, stdout, _ := runJgym("list", "-g", "dominator"); code != 0 || !strings.HasPrefix(stdout, "Dominator:\nDemo\nDummyClone\nKhan\nNull\nSearch\ncpp:PATH") {
		t.Errorf("jgym list -g dominator: exit %d, stdout %q", code, stdout)
	}
	if code, _, stderr := runJgym("match", "Foo", "Demo", "Demo", "Demo", "-s", "1", "-o", filepath.Join(t.TempDir(), "x.res")); code != 1 ||
		!strings.Contains(stderr, `unknown bot "Foo"`) || !strings.Contains(stderr, "policy") || !strings.Contains(stderr, "cpp") {
		t.Errorf("an unknown bot: exit %d, stderr %q; want the prefix seats named", code, stderr)
	}
}
