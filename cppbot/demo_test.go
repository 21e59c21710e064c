package cppbot_test

import (
	"bytes"
	"fmt"
	"jgym/cppbot"
	"os"
	"path/filepath"
	"testing"

	"jgym/env/crematoria"
)

// The C++ Demo and Null, run through the runner, reproduce the course's
// reference traces and the Go bots' traces byte for byte.
func TestCppDemoReproducesReference(t *testing.T) {
	progs := map[string]*cppbot.Program{
		"cpp:Demo": compiled(t, filepath.Join(kitDir, "AIDemo.cc"), testOpts()),
		"cpp:Null": compiled(t, filepath.Join(kitDir, "AINull.cc"), testOpts()),
	}
	tests := []struct {
		seed  int
		names [4]string
	}{
		{1, [4]string{"Demo", "Demo", "Demo", "Demo"}},
		{2, [4]string{"Demo", "Demo", "Demo", "Demo"}},
		{13, [4]string{"Demo", "Demo", "Demo", "Demo"}}, // cave-count rejection
		{20, [4]string{"Demo", "Demo", "Demo", "Demo"}},
		{1, [4]string{"Demo", "Null", "Demo", "Null"}},
		{3, [4]string{"Demo", "Null", "Demo", "Null"}},
		{14, [4]string{"Demo", "Null", "Demo", "Null"}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("s%d_%s-%s-%s-%s", tc.seed, tc.names[0], tc.names[1], tc.names[2], tc.names[3]), func(t *testing.T) {
			t.Parallel()
			want := referenceTrace(t, tc.seed, tc.names)
			var cpp [4]string
			for p, n := range tc.names {
				cpp[p] = "cpp:" + n
			}
			got, err := playMatch(tc.seed, tc.names, seats(t, tc.seed, progs, cpp))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, got) {
				t.Fatalf("C++ bots vs reference: %s", firstDiff(want, got))
			}
			native, err := playMatch(tc.seed, tc.names, seats(t, tc.seed, progs, tc.names))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(native, got) {
				t.Fatalf("C++ bots vs Go bots: %s", firstDiff(native, got))
			}
		})
	}
}

// A C++ Demo mixed with Go Demos gives the same trace as four Go Demos.
func TestCppDemoMixedWithGoDemos(t *testing.T) {
	progs := map[string]*cppbot.Program{"cpp:Demo": compiled(t, filepath.Join(kitDir, "AIDemo.cc"), testOpts())}
	names := [4]string{"Demo", "Demo", "Demo", "Demo"}
	got, err := playMatch(5, names, seats(t, 5, progs, [4]string{"Demo", "cpp:Demo", "Demo", "cpp:Demo"}))
	if err != nil {
		t.Fatal(err)
	}
	if want := referenceTrace(t, 5, names); !bytes.Equal(want, got) {
		t.Fatal(firstDiff(want, got))
	}
}

// replay gives the commands a player gave in a reference game (SPEC §15.4).
type replay struct {
	log *crematoria.CommandLog
	me  int
}

func (r replay) Play(s *crematoria.State, o *crematoria.Orders) {
	for _, c := range r.log.Round(s.Round)[r.me] {
		o.Command(c.ID, c.Dir)
	}
}

// The C++ Demo and Null reproduce the edge traces with other settings (60
// rounds, 3 Furyans, 7 Pioneers, 5 hellhounds...) and with a FIXED map
// (pre-owned cells, an initial gem), the Dummy seat replayed from its
// recorded commands.
func TestCppDemoReproducesEdgeTraces(t *testing.T) {
	progs := map[string]*cppbot.Program{
		"Demo": compiled(t, filepath.Join(kitDir, "AIDemo.cc"), testOpts()),
		"Null": compiled(t, filepath.Join(kitDir, "AINull.cc"), testOpts()),
	}
	tests := []struct {
		base, cnf string
		seed      int
		names     [4]string
	}{
		{"crematoria_s3_Demo-Null-Demo-Demo_alt", "alt.cnf", 3, [4]string{"Demo", "Null", "Demo", "Demo"}},
		{"crematoria_s9_Demo-Null-Demo-Dummy_fixed", "fixed.cnf", 9, [4]string{"Demo", "Null", "Demo", "Dummy"}},
	}
	for _, tc := range tests {
		t.Run(tc.base, func(t *testing.T) {
			t.Parallel()
			edge := filepath.Join(tracesDir, "edge")
			f, err := os.Open(filepath.Join(edge, tc.cnf))
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := crematoria.ParseConfig(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			log, err := crematoria.ParseCommandLog(bytes.NewReader(readGz(t, filepath.Join(edge, tc.base+".cmd.gz"))))
			if err != nil {
				t.Fatal(err)
			}
			var bots [4]crematoria.Bot
			for p, n := range tc.names {
				if prog, ok := progs[n]; ok {
					b := crematoria.Def.NewCppBot(prog, p, tc.seed)
					t.Cleanup(func() { b.Close() })
					bots[p] = b
				} else {
					bots[p] = replay{log, p}
				}
			}
			got, err := playMatchCfg(cfg, tc.seed, tc.names, bots)
			if err != nil {
				t.Fatal(err)
			}
			if want := readGz(t, filepath.Join(edge, tc.base+".res.gz")); !bytes.Equal(want, got) {
				t.Fatal(firstDiff(want, got))
			}
		})
	}
}
