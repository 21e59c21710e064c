package moria

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
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

// smallTrace returns the first rounds of a Null game as a complete trace
// of that many rounds (a game with fewer rounds has the same first states).
func smallTrace(t testing.TB, rounds int) []byte {
	t.Helper()
	raw := coursetest.ReadGz(t, refTraceNamed(t, "moria_s2_Null-Null-Null-Null.res.gz").path)
	tr, err := ParseTrace(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	end := tr.unitLine(rounds, tr.Config.NumUnits()-1) + 1
	out := append([]string(nil), lines[:end]...)
	out[6] = "nb_rounds          " + strconv.Itoa(rounds)
	return []byte(strings.Join(out, "\n") + "\n")
}

func TestParseTraceGzip(t *testing.T) {
	path := refTraceNamed(t, "moria_s2_Null-Null-Null-Null.res.gz").path
	compressed, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gz, err := ParseTrace(bytes.NewReader(compressed))
	if err != nil {
		t.Fatal(err)
	}
	var a bytes.Buffer
	gz.WriteTo(&a)
	if want := coursetest.ReadGz(t, path); !bytes.Equal(a.Bytes(), want) {
		t.Errorf("gzip parse differs: %s", coursetest.FirstDiff(want, a.Bytes()))
	}
	if _, err := ParseTrace(bytes.NewReader(compressed[:len(compressed)/2])); !errors.Is(err, ErrTrace) {
		t.Errorf("truncated gzip: got %v, want an error wrapping ErrTrace", err)
	}
}

// Line numbers in the 2-round trace (125 units): the header is lines 1-16,
// state 0 has its grid on lines 19-78, "round" on 80, the units on 84-208;
// round 1's "movements" is on line 210 and its lines on 211-215.
func TestParseTraceErrors(t *testing.T) {
	raw := string(smallTrace(t, 2))
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
	total := strings.Count(raw, "\n")
	for _, c := range []struct {
		name      string
		edit      func(string) string
		wantLine  int
		wantRound int
		wantMsg   string
	}{
		{"empty input", func(string) string { return "" }, 1, -1, "unexpected end of file"},
		{"CRLF line ends", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }, 1, -1, `want "Game"`},
		{"no final empty line", func(s string) string { return strings.TrimSuffix(s, "\n") }, total, 2, `unexpected end of file, want ""`},
		{"no final newline", func(s string) string { return strings.TrimSuffix(s, "\n\n") }, total - 1, 2, "does not end with a newline"},
		{"cut in a state", func(s string) string { return s[:len(s)-300] }, total - 23, 2, "does not end with a newline"},
		{"data after the end", func(s string) string { return s + "\n" }, total + 1, 2, "data after the last state"},
		{"binary garbage", func(string) string { return "\x00\x01\x02" }, 1, -1, "does not end with a newline"},
		{"trailing space", setLine(3, "Seed 2 "), 3, -1, "integer"},
		{"leading zero", setLine(3, "Seed 02"), 3, -1, "integer"},
		{"negative seed", setLine(3, "Seed -2"), 3, -1, "negative"},
		{"plus sign", setLine(7, "nb_rounds          +2"), 7, -1, "integer"},
		{"unpadded key", setLine(7, "nb_rounds 2"), 7, -1, `"nb_rounds          "`},
		{"keys out of order", setLine(8, "nb_wizards         5"), 8, -1, "nb_dwarves"},
		{"5 players", setLine(6, "nb_players         5"), 15, -1, "nb_players must be 4"},
		{"absurd settings", func(s string) string {
			return setLine(8, "nb_dwarves         2000")(setLine(7, "nb_rounds          90000")(s))
		}, 15, -1, "too large"},
		{"three names", setLine(16, "names              Null Null Null"), 16, -1, "4 names"},
		{"two spaces between names", setLine(16, "names              Null  Null Null Null"), 16, -1, "4 names"},
		{"name too long", editLine(16, "Null", "NullNullNullN"), 16, -1, "name 0"},
		{"tab in a name", editLine(16, "Null", "Nu\tl"), 16, -1, "name 0"},
		{"huge line", setLine(16, strings.Repeat("x", 5000)), 16, -1, "longer than"},
		{"unknown cell", editLine(25, "R", "X"), 25, 0, "not one of"},
		{"rock letter beyond the resistance", editLine(25, "R", "e"), 25, 0, "not one of"},
		{"short grid row", editLine(30, "R", ""), 30, 0, "60 characters"},
		{"round not a number", setLine(80, "round zero"), 80, 0, "integer"},
		{"double space", setLine(81, "nb_cells 20  20 20 20"), 81, 0, "nb_cells"},
		{"three counts", setLine(82, "nb_treasures 0 0 0"), 82, 0, "nb_treasures"},
		{"status", setLine(83, "status 0 0 0 0.5"), 83, 0, `want "status 0 0 0 0"`},
		{"unknown unit type", editLine(84, "d", "x"), 84, 0, "unit 0"},
		{"unit without health", editLine(85, " 100", ""), 85, 0, "unit 1"},
		{"minus zero", editLine(190, "-1 -1 -1", "-0 -1 -1"), 190, 0, "player"},
		{"missing unit", deleteLine(150), 208, 0, "unit 124"},
		{"movements keyword", setLine(210, "movement"), 210, 1, `want "movements"`},
		{"bad direction", setLine(211, "120 q"), 211, 1, "movement"},
		{"negative id", setLine(211, "-3 l"), 211, 1, "movement"},
		{"two spaces", setLine(211, "120  l"), 211, 1, "movement"},
		{"more lines than units", editLine(211, "120", strings.Repeat("0 b\n", 125)+"120"), 336, 1, "more movement lines"},
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

// TestParseTraceTruncated checks that a trace may end after any complete
// state (an aborted game), and not elsewhere.
func TestParseTraceTruncated(t *testing.T) {
	raw := smallTrace(t, 2)
	cut := raw[:bytes.Index(raw, []byte("movements\n"))]
	tr, err := ParseTrace(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.States) != 1 || len(tr.Moves) != 0 || !tr.Truncated() {
		t.Errorf("got %d states, %d movements blocks, truncated %v, want 1, 0, true", len(tr.States), len(tr.Moves), tr.Truncated())
	}
	var buf bytes.Buffer
	tr.WriteTo(&buf)
	if !bytes.Equal(buf.Bytes(), cut) {
		t.Errorf("WriteTo of a truncated trace: %s", coursetest.FirstDiff(cut, buf.Bytes()))
	}
	if _, err := ParseTrace(bytes.NewReader(cut[:len(cut)-1])); !errors.Is(err, ErrTrace) {
		t.Errorf("cut before the state's last empty line: got %v, want ErrTrace", err)
	}
}

// TestParseTraceLineNumbers checks the line helpers the divergences use.
func TestParseTraceLineNumbers(t *testing.T) {
	raw := coursetest.ReadGz(t, refTraceNamed(t, "moria_s1_Demo-Null-Demo-Null.res.gz").path)
	tr, err := ParseTrace(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	grid := func(k, i int) string { return string(tr.States[k].Grid[i*Cols : (i+1)*Cols]) }
	for _, c := range []struct {
		name string
		line int
		want string
	}{
		{"first grid row", tr.StateLine(1), grid(1, 0)},
		{"row 33 of state 150", tr.gridLine(150, 33), grid(150, 33)},
		{"round", tr.stateFieldLine(7, 0), "round 7"},
		{"status", tr.stateFieldLine(1, 3), "status 0 0 0 0"},
		{"Balrog", tr.unitLine(200, 124), string(AppendUnit(nil, &tr.States[200].Units[124]))},
		{"movements", tr.MovesLine(1), "movements"},
		{"movements of the last round", tr.MovesLine(200), "movements"},
	} {
		if got := lines[c.line-1]; got != c.want {
			t.Errorf("%s: line %d is %q, want %q", c.name, c.line, got, c.want)
		}
	}
}
