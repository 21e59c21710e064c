package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jgym/dataset"
)

// TestDatasetCommand turns reference traces of two games into datasets:
// the seats chosen by name, the shards and the manifest's counts.
func TestDatasetCommand(t *testing.T) {
	for _, tc := range []struct{ game, trace string }{
		{"Crematoria", "../../testdata/crematoria/traces/crematoria_s10_Dummy-Demo-Null-Demo.res.gz"},
		{"Moria", firstTrace(t, "../../testdata/moria/traces")},
	} {
		t.Run(tc.game, func(t *testing.T) {
			out, stdout, m := makeDataset(t, "--seats", "1,3", "--shard-size", "100", tc.trace)
			if m.Game != tc.game || m.Samples != 2*m.Traces[0].Rounds || len(m.Shards) != (m.Samples+99)/100 || m.Labels.Moves == 0 {
				t.Errorf("manifest: game %s, %d samples of %d rounds, %d shards, %d moves", m.Game, m.Samples, m.Traces[0].Rounds, len(m.Shards), m.Labels.Moves)
			}
			if !strings.Contains(stdout, "OK "+tc.trace) {
				t.Errorf("stdout = %q, want OK %s", stdout, tc.trace)
			}
			if code, _, _ := runJgym("dataset", "-o", out, tc.trace); code != 1 {
				t.Errorf("jgym dataset into an existing dataset = %d, want 1", code)
			}
		})
	}
}

// makeDataset runs jgym dataset with args into a new directory, stopping
// the test unless it succeeds, and returns the directory, the command's
// stdout and the dataset's manifest.
func makeDataset(t *testing.T, args ...string) (string, string, dataset.Manifest) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "data")
	argv := append([]string{"dataset", "-o", out}, args...)
	code, stdout, stderr := runJgym(argv...)
	if code != 0 {
		t.Fatalf("jgym %s = %d\n%s%s", strings.Join(argv, " "), code, stdout, stderr)
	}
	var m dataset.Manifest
	data, err := os.ReadFile(filepath.Join(out, dataset.ManifestFile))
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		t.Fatalf("jgym %s: manifest: %v", strings.Join(argv, " "), err)
	}
	return out, stdout, m
}

func firstTrace(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "*.res.gz"))
	if len(m) == 0 {
		t.Skipf("no trace in %s", dir)
	}
	return m[0]
}

// TestDatasetExpert labels a trace with a bot's commands: the manifest
// says so; an unknown bot, or a prefixed name (a file), is refused.
func TestDatasetExpert(t *testing.T) {
	trace := "../../testdata/crematoria/traces/crematoria_s10_Dummy-Demo-Null-Demo.res.gz"
	_, _, m := makeDataset(t, "--expert", "Riddick", "--players", "Null", trace)
	// Null gives no orders; Riddick, in its place, moves its units.
	if m.LabelsFrom != "expert:Riddick" || m.Labels.Moves == 0 {
		t.Errorf("labels_from %q, %d moves; want expert:Riddick and moves", m.LabelsFrom, m.Labels.Moves)
	}
	for _, bad := range []string{"Nobody", "cpp:/etc/passwd"} {
		code, stdout, _ := runJgym("dataset", "--expert", bad, "-o", filepath.Join(t.TempDir(), "d"), trace)
		if code != 1 || !strings.Contains(stdout, "unknown bot") || strings.Contains(stdout, "root:") {
			t.Errorf("--expert %s: exit %d, %q", bad, code, stdout)
		}
	}
}

// TestDatasetOpponentOrder writes a trace's dataset in each opponent
// order: the default and --opponent-order seat write the same shards,
// byte for byte, and say seat; score writes other observations (the
// labels unchanged) and says score; an order the game does not offer is
// refused with a clear message, echoing no more than a bounded name, before
// the output directory is made.
func TestDatasetOpponentOrder(t *testing.T) {
	trace := "../../testdata/crematoria/traces/crematoria_s10_Dummy-Demo-Null-Demo.res.gz"
	write := func(flags ...string) (dataset.Manifest, []byte) {
		t.Helper()
		out, _, m := makeDataset(t, append(append([]string{"--seats", "1"}, flags...), trace)...)
		if len(m.Shards) != 1 {
			t.Fatalf("manifest: %d shards, want 1", len(m.Shards))
		}
		shard, err := os.ReadFile(filepath.Join(out, m.Shards[0].File))
		if err != nil {
			t.Fatal(err)
		}
		return m, shard
	}
	def, defShard := write()
	seat, seatShard := write("--opponent-order", "seat")
	score, scoreShard := write("--opponent-order", "score")
	if def.OpponentOrder != "seat" || seat.OpponentOrder != "seat" || score.OpponentOrder != "score" {
		t.Errorf("opponent_order: default %q, seat %q, score %q", def.OpponentOrder, seat.OpponentOrder, score.OpponentOrder)
	}
	if !bytes.Equal(defShard, seatShard) {
		t.Error("--opponent-order seat writes another shard than the default")
	}
	if bytes.Equal(seatShard, scoreShard) {
		t.Error("--opponent-order score writes the seat order's shard")
	}
	if score.Labels != seat.Labels || score.Samples != seat.Samples {
		t.Errorf("score order: labels %+v, %d samples; seat order %+v, %d", score.Labels, score.Samples, seat.Labels, seat.Samples)
	}
	long := strings.Repeat("x", 5000)
	for _, bad := range []string{"alphabet", long} {
		out := filepath.Join(t.TempDir(), "d")
		code, stdout, stderr := runJgym("dataset", "--opponent-order", bad, "-o", out, trace)
		if code != 1 || !strings.Contains(stderr, "has no opponent order") || strings.Contains(stderr, long[:100]) {
			t.Errorf("--opponent-order %.20s: exit %d, stdout %q, stderr %.300q", bad, code, stdout, stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("--opponent-order %.20s made the output directory (%v)", bad, err)
		}
	}
}

// TestDatasetTensors writes a Pandemic trace's dataset with --tensors:
// the manifest lists the tensors named and the masks, opt-in expert
// included, in the spec's order; an unknown name is refused with the
// valid ones, before the output directory is made.
func TestDatasetTensors(t *testing.T) {
	trace := "../../testdata/pandemic/traces/pandemic_s10_Demo-Null-Demo-Null.res.gz"
	_, _, m := makeDataset(t, "--seats", "0", "--tensors", "expert,units", trace)
	var names []string
	for _, ts := range m.Observation {
		names = append(names, ts.Name)
	}
	if strings.Join(names, ",") != "units,action_mask,expert" || m.Samples != m.Traces[0].Rounds {
		t.Errorf("manifest: tensors %v, %d samples of %d rounds", names, m.Samples, m.Traces[0].Rounds)
	}
	bad := filepath.Join(t.TempDir(), "d")
	code, stdout, stderr := runJgym("dataset", "--tensors", "units,nothing", "-o", bad, trace)
	if code != 1 || !strings.Contains(stdout+stderr, "targets expert]") {
		t.Errorf("--tensors units,nothing: exit %d, %q %q", code, stdout, stderr)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("--tensors with an unknown name made the output directory (%v)", err)
	}
}
