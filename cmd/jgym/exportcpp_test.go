package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jgym/cppbot"
)

const exportModel = "../../cppexport/testdata/small.onnx"

// shortCnf is the default configuration with 25 rounds.
const shortCnf = `Crematoria 1.2
nb_players 4
nb_rounds 25
nb_furyans 5
nb_pioneers 15
max_nb_necromongers 10
nb_hellhounds 3
nb_elevators 20
gem_value 30
turns_to_land 2
rows 40
cols 80
GENERATOR
`

// TestExportCpp exports a policy with jgym export-cpp, then plays it as
// cpp:AIMine.cc and the model as policy:Mine.onnx through jgym match: the
// traces are equal. The --check and --bench flags work.
func TestExportCpp(t *testing.T) {
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("g++ not found")
	}
	t.Setenv("JGYM_CPP_CACHE", t.TempDir())
	t.Setenv("JGYM_CPP_TIMEOUT", "10s")
	dir := t.TempDir()
	model, err := os.ReadFile(exportModel)
	if err != nil {
		t.Fatal(err)
	}
	onnx := filepath.Join(dir, "Mine.onnx") // policy:Mine.onnx plays as Mine, as cpp:AIMine.cc does
	if err := os.WriteFile(onnx, model, 0o644); err != nil {
		t.Fatal(err)
	}
	// Games of 25 rounds keep the test short (the Go interpreter is slow
	// under the race detector); env/crematoria/cppexport plays whole games.
	cnf := filepath.Join(dir, "short.cnf")
	if err := os.WriteFile(cnf, []byte(shortCnf), 0o644); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "AIMine.cc")
	code, stdout, stderr := runJgym("export-cpp", onnx, "--name", "Mine", "-o", src)
	if code != 0 {
		t.Fatalf("export-cpp: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "wrote "+src+": player Mine") {
		t.Errorf("stdout: %q", stdout)
	}
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(text, []byte("#define PLAYER_NAME Mine")) || !bytes.Contains(text, []byte("RegisterPlayer(PLAYER_NAME);")) {
		t.Error("the file does not register player Mine")
	}

	seeds := []string{"1", "6"} // seats 0 and 1 for the cpp player
	for i, sd := range seeds {
		var traces [2][]byte
		for k, seat := range []string{"cpp:" + src, "policy:" + onnx} {
			args := []string{"Demo", "Demo", "Demo"}
			args = append(args[:i], append([]string{seat}, args[i:]...)...)
			out := filepath.Join(dir, "game.res")
			code, _, stderr := runJgym(append([]string{"match", "-q", "-s", sd, "-i", cnf, "-o", out}, args...)...)
			if code != 0 {
				t.Fatalf("match %v: exit %d: %s", args, code, stderr)
			}
			if traces[k], err = os.ReadFile(out); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(traces[0], traces[1]) {
			t.Errorf("seed %s: jgym match with cpp:AIMine.cc and with policy:Mine.onnx in seat %d write different traces", sd, i)
		}
	}

	code, stdout, stderr = runJgym("export-cpp", onnx, "--name", "Mine", "-o", src, "--check", "--bench", "-s", "2,3", "-i", cnf)
	if code != 0 {
		t.Fatalf("export-cpp --check --bench: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"check: seed 2, seat 2: cpp:" + src + " and policy:" + onnx + " play the same game (25 rounds, traces equal byte for byte)",
		"check: seed 3, seat 3:",
		"bench: seed 2, seat 2, 25 rounds against three Demos: the player's process used ",
		"bench: seed 3, seat 3, 25 rounds against three Demos: the player's process used ",
		"bench: " + src + ": CPU per match at most ",
		"(2 games); peak RSS at most ",
		"bench: within 0.5 s of CPU per match: ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	t.Logf("%s", stdout)

	// A C++ file is benchmarked as it is, its source size reported.
	fi, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runJgym("export-cpp", src, "--bench", "-s", "5", "-i", cnf, "--cpu-budget", "1h")
	if code != 0 {
		t.Fatalf("export-cpp AIMine.cc --bench: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"bench: seed 5, seat 1, 25 rounds against three Demos: the player's process used ",
		"(1 game); peak RSS at most ",
		fmt.Sprintf("; source %d bytes", fi.Size()),
		"bench: within 3600 s of CPU per match: yes",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "wrote ") {
		t.Errorf("export-cpp AIMine.cc --bench wrote a file:\n%s", stdout)
	}
}

// TestBenchSummary: the verdict compares the worst game's CPU time with
// the budget; the figures are the worst and the mean.
func TestBenchSummary(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	tests := []struct {
		games  []cppbot.Usage
		budget time.Duration
		want   []string
	}{
		{[]cppbot.Usage{{User: ms(300), Sys: ms(20), PeakRSS: 5 << 20}, {User: ms(400), PeakRSS: 7 << 20}}, ms(500),
			[]string{"at most 0.40 s, mean 0.36 s (2 games); peak RSS at most 7.0 MiB; source 2048 bytes (2 KiB)", "within 0.5 s of CPU per match: yes"}},
		{[]cppbot.Usage{{User: ms(300)}, {User: ms(490), Sys: ms(20)}}, ms(500),
			[]string{"at most 0.51 s, mean 0.41 s", "within 0.5 s of CPU per match: NO, 0.51 s in the worst game"}},
		{[]cppbot.Usage{{User: ms(500)}}, ms(500), []string{"within 0.5 s of CPU per match: yes"}},
		{[]cppbot.Usage{{User: ms(800)}}, time.Second, []string{"within 1 s of CPU per match: yes", "only Pandemic's gives a figure"}},
	}
	for _, tc := range tests {
		var b strings.Builder
		benchSummary(&b, "AIMine.cc", 2048, tc.games, tc.budget)
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("benchSummary(%v, %v) =\n%s\nwant %q", tc.games, tc.budget, b.String(), w)
			}
		}
	}
}

// TestExportCppAttacksFirst: a model whose action_order is attacks_first
// (cppexport/testdata/attacks_first.onnx: train_ppo.py's local network
// after 10 minutes against three Demos, exported with --command-order
// attacks_first) exported to C++ issues its commands as the Go policy bot
// does. In these games the order changes the trace (the same model with
// action_order slot plays another game on seed 1), and a C++ player that
// put the attacks last fails this check.
func TestExportCppAttacksFirst(t *testing.T) {
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("no g++")
	}
	t.Setenv("JGYM_CPP_CACHE", t.TempDir())
	dir := t.TempDir()
	src := filepath.Join(dir, "AIAtt.cc")
	code, stdout, stderr := runJgym("export-cpp", "../../cppexport/testdata/attacks_first.onnx", "--name", "Att", "-o", src, "--check", "-s", "1,2")
	if code != 0 {
		t.Fatalf("export-cpp --check: exit %d: %s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "check: seed 1, seat 1: ") || !strings.Contains(stdout, "traces equal byte for byte") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestExportCppErrors(t *testing.T) {
	dir := t.TempDir()
	notModel := filepath.Join(dir, "notes.onnx")
	if err := os.WriteFile(notModel, []byte("not an ONNX file"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{exportModel}, 2, "missing --name"},
		{[]string{"--name", "Mine"}, 2, "want one model file"},
		{[]string{exportModel, "--name", "2fast"}, 2, "not a C++ identifier"},
		{[]string{exportModel, "--name", "ThisNameIsTooLong"}, 2, "longer than 12 characters"},
		{[]string{exportModel, "--name", "Player"}, 2, "reserved"},
		{[]string{exportModel, "--name", "Mine", "-s", "x"}, 2, "bad seed"},
		{[]string{exportModel, "--name", "Mine", "-i", filepath.Join(dir, "missing.cnf")}, 1, "config"},
		{[]string{filepath.Join(dir, "missing.onnx"), "--name", "Mine", "-o", filepath.Join(dir, "AIMine.cc")}, 1, "no such file"},
		{[]string{notModel, "--name", "Mine", "-o", filepath.Join(dir, "AIMine.cc")}, 1, "export " + notModel},
		{[]string{filepath.Join(dir, "AIMine.cc")}, 2, "only --bench takes one"},
		{[]string{filepath.Join(dir, "AIMine.cc"), "--bench", "--check"}, 2, "only --bench takes one"},
		{[]string{filepath.Join(dir, "AIMine.cc"), "--bench", "-o", "AIOther.cc"}, 2, "benchmarked as it is"},
		{[]string{exportModel, "--name", "Mine", "--bench", "--cpu-budget", "0s"}, 2, "want a positive duration"},
		{[]string{exportModel, "--name", "Mine", "--bench", "-s", strings.Repeat("1,", 50) + "1"}, 2, "at most 50 games"},
	}
	for _, tc := range tests {
		code, _, stderr := runJgym(append([]string{"export-cpp"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("export-cpp %q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "AIMine.cc")); err == nil {
		t.Error("a failed export wrote its output file")
	}
}
