package course

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

func TestCanonInt(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"0", 0, true}, {"-1", -1, true}, {"120", 120, true}, {"2147483647", 2147483647, true},
		{"-2147483648", -2147483648, true}, {"2147483648", 0, false}, {"", 0, false}, {"-", 0, false},
		{"-0", 0, false}, {"007", 0, false}, {"+5", 0, false}, {"1e3", 0, false}, {" 1", 0, false},
		{"99999999999", 0, false},
	} {
		got, ok := CanonInt([]byte(c.in))
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("CanonInt(%q) = %d, %v, want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestIntFields(t *testing.T) {
	var a, b, c int
	for _, tc := range []struct {
		in   string
		bad  int
		want [3]int
	}{
		{"1 -2 3", -1, [3]int{1, -2, 3}},
		{"1 2", 1, [3]int{}},
		{"1  2 3", 1, [3]int{}},
		{"1 2 3 ", 2, [3]int{}},
		{"1 x 3", 1, [3]int{}},
	} {
		if got := IntFields([]byte(tc.in), []*int{&a, &b, &c}); got != tc.bad {
			t.Errorf("IntFields(%q) = %d, want %d", tc.in, got, tc.bad)
		} else if got < 0 && [3]int{a, b, c} != tc.want {
			t.Errorf("IntFields(%q) read %v, want %v", tc.in, [3]int{a, b, c}, tc.want)
		}
	}
}

func reader(t *testing.T, s string) *TraceReader {
	t.Helper()
	p, err := NewTraceReader(strings.NewReader(s), 64)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTraceReader reads a small trace-like text with every helper.
func TestTraceReader(t *testing.T) {
	text := "Game\nSeed 42\nnb_cells 1 2 -3 4\nnames    a bb ccc dddd\nend\n"
	for _, compressed := range []bool{false, true} {
		in := []byte(text)
		if compressed {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(in)
			zw.Close()
			in = buf.Bytes()
		}
		p, err := NewTraceReader(bytes.NewReader(in), 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Literal("Game"); err != nil {
			t.Fatal(err)
		}
		if seed, err := p.IntAfter("Seed "); err != nil || seed != 42 {
			t.Fatalf("IntAfter = %d, %v, want 42", seed, err)
		}
		var v [4]int
		if err := p.Ints("nb_cells", v[:]); err != nil || v != [4]int{1, 2, -3, 4} {
			t.Fatalf("Ints = %v, %v", v, err)
		}
		var names [4]string
		if err := p.Names("names   ", "names", names[:]); err != nil || names != [4]string{"a", "bb", "ccc", "dddd"} {
			t.Fatalf("Names = %v, %v", names, err)
		}
		if err := p.End(3); err == nil || !strings.Contains(err.Error(), "line 5 (header): data after the last state (round 3)") {
			t.Fatalf("End before the end = %v", err)
		}
		if got, err := p.Next("end"); err != nil || string(got) != "end" || p.Line != 6 {
			t.Fatalf("Next = %q, %v at line %d", got, err, p.Line)
		}
		if err := p.End(3); err != nil {
			t.Fatalf("End at the end = %v", err)
		}
	}
}

// TestTraceReaderErrors checks the messages of malformed lines.
func TestTraceReaderErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		sayWant  bool
		read     func(p *TraceReader) error
		want     string
	}{
		{"empty", "", false, func(p *TraceReader) error { return p.Literal("Game") }, `bad trace: line 1 (header): unexpected end of file, want "Game"`},
		{"no newline", "Gam", false, func(p *TraceReader) error { return p.Literal("Game") }, `line 1 (header): last line "Gam" does not end with a newline`},
		{"no newline, say want", "Gam", true, func(p *TraceReader) error { return p.Literal("Game") }, `last line "Gam" does not end with a newline, want "Game"`},
		{"long", strings.Repeat("x", 100) + "\n", false, func(p *TraceReader) error { return p.Literal("Game") }, `line longer than 64 bytes, want "Game"`},
		{"literal", "Gamer\n", false, func(p *TraceReader) error { return p.Literal("Game") }, `want "Game", got "Gamer"`},
		{"int prefix", "Sed 1\n", false, func(p *TraceReader) error { _, err := p.IntAfter("Seed "); return err }, `want "Seed " followed by an integer, got "Sed 1"`},
		{"int", "Seed 01\n", false, func(p *TraceReader) error { _, err := p.IntAfter("Seed "); return err }, `after "Seed " want an integer, got "01"`},
		{"ints label", "gems 1 2 3 4\n", false, func(p *TraceReader) error { return p.Ints("cells", make([]int, 4)) }, `want "cells" and 4 integers separated by single spaces, got "gems 1 2 3 4"`},
		{"ints", "cells 1 2 x 4\n", false, func(p *TraceReader) error { return p.Ints("cells", make([]int, 4)) }, `cells: want 4 integers separated by single spaces, value 2 is not: "cells 1 2 x 4"`},
		{"names", "names a b\n", false, func(p *TraceReader) error { return p.Names("names", `"names" and 4 names`, make([]string, 4)) }, `want "names" and 4 names, got "names a b"`},
		{"long name", "names a b c abcdefghijklm\n", false, func(p *TraceReader) error { return p.Names("names", "x", make([]string, 4)) }, `name 3: want 1 to 12 printable characters without spaces, got "abcdefghijklm"`},
		{"read error", "", false, nil, "read error: timeout"},
		{"read error, say want", "", true, nil, `read error: timeout, want "Game"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p *TraceReader
			if c.read == nil {
				var err error
				if p, err = NewTraceReader(iotest.TimeoutReader(strings.NewReader("xx")), 64); err != nil {
					t.Fatal(err)
				}
				c.read = func(p *TraceReader) error { return p.Literal("Game") }
			} else {
				p = reader(t, c.in)
			}
			p.SayWant = c.sayWant
			err := c.read(p)
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrTrace) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want a *ParseError containing %q", err, c.want)
			}
		})
	}
	if _, err := NewTraceReader(bytes.NewReader([]byte{0x1f, 0x8b, 1}), 64); !errors.Is(err, ErrTrace) {
		t.Errorf("NewTraceReader of a broken gzip header = %v, want ErrTrace", err)
	}
	p := reader(t, "x\n")
	p.Round = 7
	if _, err := p.IntAfter("round "); err == nil || !strings.Contains(err.Error(), "line 1 (round 7)") {
		t.Errorf("error in round 7 = %v", err)
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{"Demo": true, "": false, "abcdefghijkl": true, "abcdefghijklm": false, "a b": false, "a\x7f": false, "é": true} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestDivergenceError(t *testing.T) {
	for _, c := range []struct {
		d    Divergence
		want string
	}{
		{Divergence{Round: -1, Unit: -1, Field: "nb_rounds", Want: "200", Got: "100", Line: 7}, "header, nb_rounds: want 200, got 100 (line 7)"},
		{Divergence{Round: 3, Unit: 12, Field: "health", Want: "50", Got: "40"}, "round 3, unit 12, health: want 50, got 40"},
	} {
		if got := c.d.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

type move struct {
	id int
	c  byte
}

func TestReadMoves(t *testing.T) {
	block := MoveBlock{Keyword: "movements", Noun: "movement", Want: "<direction>", Chars: "ab"}
	mk := func(id int, c byte) (move, bool) { return move{id, c}, c == 'a' || c == 'b' }
	p := reader(t, "movements\n3 a\n0 b\n-1\nmovements\n-1\n")
	got, err := ReadMoves(p, block, 2, mk)
	if err != nil || len(got) != 2 || got[0] != (move{3, 'a'}) || got[1] != (move{0, 'b'}) {
		t.Fatalf("ReadMoves = %v, %v", got, err)
	}
	if got, err := ReadMoves(p, block, 2, mk); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("empty block: ReadMoves = %#v, %v, want an empty non-nil list", got, err)
	}
	for _, c := range []struct{ in, want string }{
		{"moves\n", `want "movements", got "moves"`},
		{"movements\n1 a\n2 a\n3 a\n", `line 4 (header): more movement lines than units (2), want "-1"`},
		{"movements\n1 c\n", `want a movement "<id> <one of ab>" or "-1", got "1 c"`},
		{"movements\n-1 a\n", `want a movement "<id> <one of ab>" or "-1", got "-1 a"`},
		{"movements\n01 a\n", `got "01 a"`},
		{"movements\n1  a\n", `got "1  a"`},
		{"movements\n1 a", `last line "1 a" does not end with a newline`},
		{"movements\n", `unexpected end of file, want a movement "<id> <direction>" or "-1"`},
	} {
		if _, err := ReadMoves(reader(t, c.in), block, 2, mk); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadMoves(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestDiffMoves(t *testing.T) {
	text := func(m move) string { return strconv.Quote(fmt.Sprintf("%d %c", m.id, m.c)) }
	unit := func(m move) int { return m.id }
	a, b, c := move{1, 'a'}, move{2, 'b'}, move{3, 'a'}
	for _, tc := range []struct {
		want, got []move
		d         string
	}{
		{[]move{a, b}, []move{a, b}, ""},
		{[]move{a, b}, []move{a, c}, `round 4, unit 3, movement: want "2 b", got "3 a" (line 11)`},
		{[]move{a, b}, []move{a}, `round 4, unit 2, movement: want "2 b", got "-1" (end of the block) (line 11)`},
		{[]move{a}, []move{a, c}, `round 4, unit 3, movement: want "-1" (end of the block), got "3 a" (line 11)`},
	} {
		d := DiffMoves(4, "movement", 10, tc.want, tc.got, unit, text)
		if got := fmt.Sprint(d); (d == nil && tc.d != "") || (d != nil && got != tc.d) {
			t.Errorf("DiffMoves(%v, %v) = %v, want %q", tc.want, tc.got, d, tc.d)
		}
	}
}
