package pandemic

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jgym/course/coursetest"
)

func TestParseTraceRoundTrip(t *testing.T) {
	for i, tc := range traceCases(t) {
		if !sampled(i) {
			continue
		}
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			t.Parallel()
			raw := coursetest.ReadGz(t, tc.path)
			tr, err := ParseTrace(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if !tr.Complete() || tr.Seed != tc.seed || tr.Names != tc.names {
				t.Fatalf("parsed %d states, %d commands blocks, seed %d, names %v; want %d complete, seed %d, names %v",
					len(tr.States), len(tr.Commands), tr.Seed, tr.Names, tc.cfg.NbRounds+1, tc.seed, tc.names)
			}
			var out bytes.Buffer
			if _, err := tr.WriteTo(&out); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(raw, out.Bytes()) {
				t.Fatal(coursetest.FirstDiff(raw, out.Bytes()))
			}
			// The gzip file parses the same.
			f, err := os.Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			tz, err := ParseTrace(f)
			if err != nil || len(tz.States) != len(tr.States) {
				t.Fatalf("gzip: %v", err)
			}
		})
	}
}

// TestParseTracePartial checks that a trace cut after a state or a
// commands block parses as the trace of an aborted game, and that a cut
// anywhere else is an error.
func TestParseTracePartial(t *testing.T) {
	raw := coursetest.ReadGz(t, filepath.Join(tracesRoot(), "edge", "pandemic_s602_Demo-Dummy-Demo-Dummy.res.gz"))
	afterState := bytes.Index(raw, []byte("commands\n"))
	afterCmds := afterState + bytes.Index(raw[afterState:], []byte("\n-1\n")) + 4
	for _, c := range []struct {
		name            string
		cut             int
		states, cmds    int
		wantErrContains string
	}{
		{"after state 0", afterState, 1, 0, ""},
		{"after commands 1", afterCmds, 1, 1, ""},
		{"inside a state", afterState - 10, 0, 0, "newline"},
		{"inside commands", afterCmds - 2, 0, 0, "newline"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := ParseTrace(bytes.NewReader(raw[:c.cut]))
			if c.wantErrContains != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErrContains) {
					t.Fatalf("ParseTrace = %v, want an error containing %q", err, c.wantErrContains)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.States) != c.states || len(tr.Commands) != c.cmds || tr.Complete() {
				t.Fatalf("got %d states and %d commands blocks, want %d and %d, incomplete", len(tr.States), len(tr.Commands), c.states, c.cmds)
			}
			var out bytes.Buffer
			tr.WriteTo(&out)
			if !bytes.Equal(out.Bytes(), raw[:c.cut]) {
				t.Error(coursetest.FirstDiff(raw[:c.cut], out.Bytes()))
			}
		})
	}
}

func TestParseTraceErrors(t *testing.T) {
	raw := coursetest.ReadGz(t, filepath.Join(tracesRoot(), "edge", "pandemic_s602_Demo-Dummy-Demo-Dummy.res.gz"))
	rep := func(old, new string) []byte { return bytes.Replace(raw, []byte(old), []byte(new), 1) }
	for _, c := range []struct {
		name string
		data []byte
		line int
		want string
	}{
		{"empty", nil, 1, "end of file"},
		{"version", rep("Pandemic 1.0", "Pandemic 1.1"), 5, "want"},
		{"padding", rep("nb_units                    1", "nb_units                   1"), 11, "nb_units"},
		{"double format", rep("infection_factor            3", "infection_factor            3.0"), 15, "%g"},
		{"names", rep("names          Demo", "names         Demo"), 17, "names"},
		{"grid char", rep("\n01 W", "\n01 X"), 23, "not a cell"},
		{"row label", rep("\n01 W", "\n1  W"), 23, "grid row 1"},
		{"unit trailing space", rep(" 10 \n", " 10\n"), 0, "trailing space"},
		{"command letter", rep("\n-1\n", "\n3 n\n-1\n"), 0, "command"},
		{"leading zero", rep("round 1\n", "round 01\n"), 0, "integer"},
		{"data after the end", append(append([]byte{}, raw...), '\n'), 0, "data after"},
		{"bad settings", rep("nb_players                  4", "nb_players                  5"), 16, "nb_players must be 4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseTrace(bytes.NewReader(c.data))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrTrace) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ParseTrace = %v, want a *ParseError containing %q", err, c.want)
			}
			if c.line > 0 && pe.Line != c.line {
				t.Errorf("error at line %d, want %d (%v)", pe.Line, c.line, err)
			}
		})
	}
}
