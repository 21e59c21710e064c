package crematoria

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
	for _, tc := range traceCases(t) {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
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
	tc := refTraceNamed(t, "crematoria_s2_Null-Null-Null-Null_elev23.res.gz")
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
	var a, b bytes.Buffer
	gz.WriteTo(&a)
	plain.WriteTo(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("gzip and plain parses differ: %s", coursetest.FirstDiff(b.Bytes(), a.Bytes()))
	}
	if _, err := ParseTrace(bytes.NewReader(compressed[:len(compressed)/2])); !errors.Is(err, ErrTrace) {
		t.Errorf("truncated gzip: got %v, want an error wrapping ErrTrace", err)
	}
}

// Line numbers in the elev23 trace (2 rounds, 93 units): the header is
// lines 1-17, state 0 has its grid on lines 20-99, "round" on 101, the
// units on 105-197; round 0's "movements" is on line 199.
func TestParseTraceErrors(t *testing.T) {
	tc := refTraceNamed(t, "crematoria_s2_Null-Null-Null-Null_elev23.res.gz")
	raw := string(coursetest.ReadGz(t, tc.path))
	setLine := func(n int, text string) func(string) string {
		return func(s string) string {
			lines := strings.Split(s, "\n")
			lines[n-1] = text
			return strings.Join(lines, "\n")
		}
	}
	editLine := func(n int, old, new string) func(string) string {
		return func(s string) string {
			lines := strings.Split(s, "\n")
			lines[n-1] = strings.Replace(lines[n-1], old, new, 1)
			return strings.Join(lines, "\n")
		}
	}
	deleteLine := func(n int) func(string) string {
		return func(s string) string {
			lines := strings.Split(s, "\n")
			return strings.Join(append(lines[:n-1], lines[n:]...), "\n")
		}
	}
	for _, c := range []struct {
		name      string
		edit      func(string) string
		wantLine  int
		wantRound int
		wantMsg   string
	}{
		{"empty input", func(string) string { return "" }, 1, -1, "unexpected end of file"},
		{"CRLF line ends", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }, 1, -1, `want "Game"`},
		{"no final empty line", func(s string) string { return strings.TrimSuffix(s, "\n") }, 570, 2, `unexpected end of file, want ""`},
		{"no final newline", func(s string) string { return strings.TrimSuffix(s, "\n\n") }, 569, 2, "does not end with a newline"},
		{"truncated", func(s string) string { return s[:len(s)-300] }, 553, 2, "does not end with a newline"},
		{"data after the end", func(s string) string { return s + "\n" }, 571, 2, "data after the last state"},
		{"binary garbage", func(string) string { return "\x00\x01\x02" }, 1, -1, "does not end with a newline"},
		{"trailing space", setLine(3, "Seed 2 "), 3, -1, "integer"},
		{"leading zero", setLine(3, "Seed 02"), 3, -1, "integer"},
		{"negative seed", setLine(3, "Seed -2"), 3, -1, "negative"},
		{"plus sign", setLine(7, "nb_rounds           +2"), 7, -1, "integer"},
		{"unpadded key", setLine(7, "nb_rounds 2"), 7, -1, `"nb_rounds           "`},
		{"keys out of order", setLine(8, "nb_pioneers         5"), 8, -1, "nb_furyans"},
		{"5 players", setLine(6, "nb_players          5"), 16, -1, "nb_players must be 4"},
		{"absurd settings", func(s string) string {
			return setLine(9, "nb_pioneers         2000")(setLine(7, "nb_rounds           90000")(s))
		}, 16, -1, "too large"},
		{"three names", setLine(17, "names               Null Null Null"), 17, -1, "4 names"},
		{"name too long", editLine(17, "Null", "NullNullNullN"), 17, -1, "name 0"},
		{"tab in a name", editLine(17, "Null", "Nu\tl"), 17, -1, "name 0"},
		{"huge line", setLine(17, strings.Repeat("x", 5000)), 17, -1, "longer than"},
		{"gem on level 0", editLine(25, "R", "G"), 25, 0, "not one of"},
		{"short grid row", editLine(30, "R", ""), 30, 0, "80 characters"},
		{"round not a number", setLine(101, "round zero"), 101, 0, "integer"},
		{"double space", setLine(102, "nb_cells 15  15 15 15"), 102, 0, "nb_cells"},
		{"three counts", setLine(103, "nb_gems 0 0 0"), 103, 0, "nb_gems"},
		{"status", setLine(104, "status 0 0 0 0.5"), 104, 0, `want "status 0 0 0 0"`},
		{"unknown unit type", editLine(105, "f", "x"), 105, 0, "unit 0"},
		{"unit without level", editLine(106, " 0", ""), 106, 0, "unit 1"},
		{"minus zero", editLine(107, "-1", "-0"), 107, 0, "turns"},
		{"missing unit", deleteLine(150), 197, 0, "unit 92"},
		{"movements keyword", setLine(199, "movement"), 199, 0, `want "movements"`},
		{"bad direction", setLine(200, "90 q"), 200, 0, "movement"},
		{"negative id", setLine(200, "-3 l"), 200, 0, "movement"},
		{"two spaces", setLine(200, "90  l"), 200, 0, "movement"},
		{"more lines than units", editLine(200, "90", strings.Repeat("0 b\n", 94)+"90"), 293, 0, "more movement lines"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := c.edit(raw)
			if text == raw {
				t.Fatal("the edit changed nothing")
			}
			_, err := ParseTrace(strings.NewReader(text))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrTrace) {
				t.Fatalf("got %v, want a *ParseError", err)
			}
			if pe.Line != c.wantLine || pe.Round != c.wantRound || !strings.Contains(pe.Msg, c.wantMsg) {
				t.Errorf("got line %d round %d %q, want line %d round %d message containing %q",
					pe.Line, pe.Round, pe.Msg, c.wantLine, c.wantRound, c.wantMsg)
			}
		})
	}
}

// TestParseTraceLineNumbers checks the line helpers the divergences use.
func TestParseTraceLineNumbers(t *testing.T) {
	tc := refTraceNamed(t, "crematoria_s2_Null-Null-Null-Null_elev23.res.gz")
	raw := coursetest.ReadGz(t, tc.path)
	tr, err := ParseTrace(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	grid := func(k int, p Pos) string { return string(tr.States[k].Grid[p.Index() : p.Index()+Cols]) }
	for _, c := range []struct {
		name string
		line int
		want string
	}{
		{"first grid row", tr.StateLine(1), grid(1, Pos{0, 0, 0})},
		{"level 1 row 3", tr.gridLine(2, Pos{3, 0, 1}), grid(2, Pos{3, 0, 1})},
		{"round", tr.stateFieldLine(2, 0), "round 2"},
		{"status", tr.stateFieldLine(1, 3), "status 0 0 0 0"},
		{"hellhound 92", tr.unitLine(0, 92), string(AppendUnit(nil, &tr.States[0].Units[92]))},
		{"movements", tr.MovesLine(1), "movements"},
	} {
		if got := lines[c.line-1]; got != c.want {
			t.Errorf("%s: line %d is %q, want %q", c.name, c.line, got, c.want)
		}
	}
}
