package dominator

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/game"
)

func TestParseTraceRoundTrip(t *testing.T) {
	for _, tc := range traceCases(t) {
		if tc.abort {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw := coursetest.ReadGz(t, tc.path)
			tr, err := ParseTrace(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(tr.States), tc.cfg.NbRounds+1; got != want {
				t.Errorf("got %d states, want %d", got, want)
			}
			if got, want := tr.Config.Values(), tc.cfg.Values(); got != want {
				t.Errorf("got settings %v, want %v", got, want)
			}
			if got, want := tr.Names, tc.names; got != want {
				t.Errorf("got names %v, want %v", got, want)
			}
			if tr.Seed != tc.seed {
				t.Errorf("got seed %d, want %d", tr.Seed, tc.seed)
			}
			var buf bytes.Buffer
			if _, err := tr.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), raw) {
				t.Errorf("WriteTo differs from the input: %s", coursetest.FirstDiff(raw, buf.Bytes()))
			}
		})
	}
}

func TestParseTraceGzip(t *testing.T) {
	tc := refTraceNamed(t, "dominator_s1_Null-Null-Null-Null.res.gz")
	compressed, err := os.ReadFile(tc.path)
	if err != nil {
		t.Fatal(err)
	}
	gz, err := ParseTrace(bytes.NewReader(compressed))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ParseTrace(bytes.NewReader(coursetest.ReadGz(t, tc.path)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gz, plain) {
		t.Error("gzip and plain parses differ")
	}
	if _, err := ParseTrace(bytes.NewReader(compressed[:len(compressed)/2])); !errors.Is(err, ErrTrace) {
		t.Errorf("truncated gzip: got %v, want an error wrapping ErrTrace", err)
	}
}

// Line numbers in a default trace (128 units): the header is lines 1-19,
// state 0 has its grid on lines 22-58, "round" on 60, "land" on 61, the
// units on 64-191; the first "movements" is on line 193.
func TestParseTraceErrors(t *testing.T) {
	tc := refTraceNamed(t, "dominator_s1_Null-Null-Null-Null.res.gz")
	raw := string(coursetest.ReadGz(t, tc.path))
	setLine := func(n int, text string) func(string) string {
		return func(s string) string {
			lines := strings.Split(s, "\n")
			lines[n-1] = text
			return strings.Join(lines, "\n")
		}
	}
	for _, c := range []struct {
		name  string
		edit  func(string) string
		line  int
		round int
		want  string
	}{
		{"first line", setLine(1, "Games"), 1, -1, `want "Game"`},
		{"seed", setLine(3, "Seed x"), 3, -1, "integer"},
		{"negative seed", setLine(3, "Seed -4"), 3, -1, "negative"},
		{"version", setLine(5, "Dominator 4.1"), 5, -1, "Dominator 4.0"},
		{"key", setLine(7, "nb_round       200"), 7, -1, "nb_rounds"},
		{"leading zero", setLine(8, "nb_farmers     020"), 8, -1, "integer"},
		{"players", setLine(6, "nb_players     5"), 18, -1, "nb_players must be 4"}, // checked after cols
		{"names", setLine(19, "names Null Null Null Null"), 19, -1, "names"},
		{"long name", setLine(19, "names          Null Nulllllllllllll Null Null"), 19, -1, "name 1"},
		{"grid width", setLine(22, "XXXX"), 22, 0, "37 characters"},
		{"grid char", setLine(23, "X..................................4X"), 23, 0, "not one of"},
		{"round", setLine(60, "round zero"), 60, 0, "integer"},
		{"land", setLine(61, "land 20 20 20"), 61, 0, "4 integers"},
		{"status", setLine(63, "status 0 0 0 1"), 63, 0, "status 0 0 0 0"},
		{"unit type", setLine(64, "x 0 3 2 -1"), 64, 0, "unit 0"},
		{"unit field", setLine(65, "w 0 5 13 -1 7"), 65, 0, "health"},
		{"movements", setLine(193, "moves"), 193, 1, `want "movements"`},
		{"movement", setLine(194, "5 q"), 194, 1, "movement"},
		{"truncated", func(s string) string { return s[:len(s)-1] }, 0, 200, "end of file"},
		{"cut", func(s string) string { return s[:len(s)-4] }, 0, 200, "newline"},
		{"extra", func(s string) string { return s + "x\n" }, 0, 200, "data after"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseTrace(strings.NewReader(c.edit(raw)))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrTrace) {
				t.Fatalf("got %v, want a *ParseError", err)
			}
			if (c.line != 0 && pe.Line != c.line) || pe.Round != c.round || !strings.Contains(pe.Msg, c.want) {
				t.Errorf("got line %d round %d %q, want line %d round %d containing %q", pe.Line, pe.Round, pe.Msg, c.line, c.round, c.want)
			}
		})
	}
}

func TestTraceLineNumbers(t *testing.T) {
	tc := refTraceNamed(t, "dominator_s3_Demo-Demo-Demo-Demo.res.gz")
	raw := coursetest.ReadGz(t, tc.path)
	tr, err := ParseTrace(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	for _, k := range []int{0, 1, 57, 200} {
		if got := lines[tr.stateFieldLine(k, 0)-1]; got != "round "+strconv.Itoa(k) {
			t.Errorf("state %d: line %d is %q, want the round", k, tr.stateFieldLine(k, 0), got)
		}
		if got := lines[tr.unitLine(k, 127)]; got != "" {
			t.Errorf("state %d: the line after the last unit is %q, want empty", k, got)
		}
		if k < 200 && lines[tr.MovesLine(k)-1] != "movements" {
			t.Errorf("movements of round %d: line %d is %q", k+1, tr.MovesLine(k), lines[tr.MovesLine(k)-1])
		}
	}
}

func TestCommandLogRoundTrip(t *testing.T) {
	for _, tc := range traceCases(t) {
		if tc.cmdPath == "" {
			continue
		}
		raw := coursetest.ReadGz(t, tc.cmdPath)
		log, err := ParseCommandLog(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var buf bytes.Buffer
		if err := log.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), raw) {
			t.Errorf("%s: Write differs from the file: %s", tc.name, coursetest.FirstDiff(raw, buf.Bytes()))
		}
		if got, want := log.Complete(0), tc.name != "crowd2_s1_Chaos-Demo-Dummy-Chaos.partial.res.gz"; got != want {
			t.Errorf("%s: Complete(0) = %v, want %v", tc.name, got, want)
		}
	}
}

func TestParseCommandLogErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"word", "0 0 x\n", "not a 32-bit integer"},
		{"short", "0 0\n", "round player n"},
		{"round", "-1 0 0\n", "round -1"},
		{"player", "0 4 0\n", "player 4"},
		{"count", "0 0 2 5 1\n", "count 2"},
		{"twice", "0 0 0\n0 0 1 3 4\n", "given twice"},
		{"huge", "0 0 1 5 99999999999\n", "32-bit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseCommandLog(strings.NewReader(c.text))
			if !errors.Is(err, game.ErrCommandFile) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want game.ErrCommandFile containing %q", err, c.want)
			}
		})
	}
	log, err := ParseCommandLog(strings.NewReader("1 2 2 -2 12 7 4\n\n0 3 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := log.Round(1)[2], []Command{{ID: -2, Dir: 12}, {ID: 7, Dir: Top}}; !reflect.DeepEqual(got, want) {
		t.Errorf("round 1 player 2 = %v, want %v", got, want)
	}
	if log.Complete(0) || log.Complete(1) || len(log.Round(5)[0]) != 0 {
		t.Errorf("incomplete rounds reported complete")
	}
}
