package toy

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"jgym/course/coursetest"
)

var update = flag.Bool("update", false, "rewrite the toy's reference traces (testdata/toy/traces) and testdata/tiny.onnx")

// tracesDir holds the toy's reference traces: games this engine played
// (there is no course engine of the toy), each with its command file.
const tracesDir = "../../testdata/toy/traces"

// smallConfig is the configuration of the fixtures named _small.
var smallConfig = Config{NbRounds: 12, Rows: 6, Cols: 8, Units: 2, Walls: 4, Capture: 3}

// fixtures are the reference traces: a seed, the four bots and the
// configuration ("" the default, "small" smallConfig). "Bad" is badBot
// from its fifth round: its game aborts there.
var fixtures = []struct {
	seed  int
	names [NumPlayers]string
	cnf   string
}{
	{1, [NumPlayers]string{"Demo", "Demo", "Demo", "Demo"}, ""},
	{2, [NumPlayers]string{"Greedy", "Demo", "Null", "Demo"}, ""},
	{3, [NumPlayers]string{"Greedy", "Greedy", "Demo", "Greedy"}, ""},
	{4, [NumPlayers]string{"Demo", "Greedy", "Demo", "Null"}, "small"},
	{5, [NumPlayers]string{"Greedy", "Greedy", "Greedy", "Greedy"}, "small"},
	{6, [NumPlayers]string{"Greedy", "Bad", "Demo", "Demo"}, "small"},
}

// TestFixtures plays the fixtures' games and compares their traces and
// command files with the files (with -update, writes them): the folder
// holds exactly these games. The conformance suite (TestContract) then
// replays, verifies and mutates them.
func TestFixtures(t *testing.T) {
	small := filepath.Join(tracesDir, "small.cnf")
	if *update {
		if err := os.MkdirAll(filepath.Join(tracesDir, "commands"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(small, []byte(smallConfig.Text()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := os.ReadFile(small); err != nil || string(b) != smallConfig.Text() {
		t.Fatalf("%s is not smallConfig's text (%v)", small, err)
	}
	var want []string
	for _, f := range fixtures {
		base := "toy_s" + strconv.Itoa(f.seed) + "_" + strings.Join(f.names[:], "-")
		cfg := DefaultConfig()
		if f.cnf != "" {
			base, cfg = base+"_"+f.cnf, smallConfig
		}
		var bots [NumPlayers]Bot
		for p, n := range f.names {
			if n == "Bad" {
				bots[p] = &badBot{from: 5}
				continue
			}
			mk, err := Def.Bots.Lookup(n)
			if err != nil {
				t.Fatal(err)
			}
			bots[p] = mk(p, f.seed)
		}
		m, err := Def.NewMatch(cfg, f.seed, f.names, bots)
		if err != nil {
			t.Fatal(err)
		}
		var trace, cmds bytes.Buffer
		m.WriteTrace(&trace)
		m.Record()
		if err := m.Run(t.Context()); err != nil && !(slices.Contains(f.names[:], "Bad") && errors.Is(err, ErrBadUnit)) {
			t.Fatal(err)
		}
		if err := m.Log().Write(&cmds); err != nil {
			t.Fatal(err)
		}
		for path, b := range map[string][]byte{
			filepath.Join(tracesDir, base+".res.gz"):             trace.Bytes(),
			filepath.Join(tracesDir, "commands", base+".cmd.gz"): cmds.Bytes(),
		} {
			want = append(want, path)
			if *update {
				if err := os.WriteFile(path, coursetest.Gzip(t, b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := coursetest.ReadGz(t, path); !bytes.Equal(got, b) {
				t.Errorf("%s: %s (go test ./env/toy -run TestFixtures -update rewrites it)", path, coursetest.FirstDiff(b, got))
			}
		}
	}
	got, _ := filepath.Glob(filepath.Join(tracesDir, "*.gz"))
	more, _ := filepath.Glob(filepath.Join(tracesDir, "commands", "*.gz"))
	got = append(got, more...)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the folder holds %v, want the fixtures %v", got, want)
	}
}
