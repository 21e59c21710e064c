package dominator

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"jgym/cppbot"
)

func TestParseCommands(t *testing.T) {
	tests := []struct {
		line string
		want []Command
		err  error
	}{
		{"commands 0\n", nil, nil},
		{"commands 2 5 4 17 8\n", []Command{{ID: 5, Dir: Top}, {ID: 17, Dir: None}}, nil},
		{"commands 2 -3 0 130 -1\n", []Command{{ID: -3, Dir: Bottom}, {ID: 130, Dir: -1}}, nil}, // the engine drops them
		{"commands 1 2147483647 -2147483648\n", []Command{{ID: 2147483647, Dir: -2147483648}}, nil},
		{"commands 1 2147483648 0\n", nil, cppbot.ErrProtocol},
		{"commands 2 5 4\n", nil, cppbot.ErrProtocol},
		{"commands 1 5 4 6\n", nil, cppbot.ErrProtocol},
		{"commands 1001\n", nil, cppbot.ErrProtocol},
		{"commands -1\n", nil, cppbot.ErrProtocol},
		{"commands x\n", nil, cppbot.ErrProtocol},
		{"hello\n", nil, cppbot.ErrProtocol},
	}
	for _, tc := range tests {
		got, err := parseCommands([]byte(tc.line), nil)
		if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("parseCommands(%q) error = %v, want %v", tc.line, err, tc.err)
			continue
		}
		if err == nil && !slices.Equal(got, tc.want) {
			t.Errorf("parseCommands(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func FuzzParseCommands(f *testing.F) {
	f.Add([]byte("commands 2 5 4 17 8\n"))
	f.Add([]byte("commands 1 -3 100\n"))
	f.Add([]byte("commands 0"))
	f.Fuzz(func(t *testing.T, line []byte) {
		cmds, err := parseCommands(line, nil)
		if err != nil {
			return
		}
		// What parses is printed back the same way.
		b := []byte("commands " + strconv.Itoa(len(cmds)))
		for _, c := range cmds {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(c.ID), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(c.Dir), 10)
		}
		again, err := parseCommands(b, nil)
		if err != nil || !slices.Equal(again, cmds) {
			t.Fatalf("%q parses as %v, printed %q parses as %v, %v", line, cmds, b, again, err)
		}
	})
}

// The messages of player 1 in a new game: the init line with the 13
// settings, and its rotated view: the grid turned, every unit with its view
// position and player, the occupied and haunted cells, the lists
// re-indexed.
func TestCppMessages(t *testing.T) {
	g, err := New(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if init := string(appendInit(nil, 2, 7, g.Cfg)); init != "init 2 7 4 200 20 10 2 100 200 30 30 60 90 37 37\n" {
		t.Errorf("init %q", init)
	}
	var v State
	g.View(1, &v)
	lines := strings.Split(string(appendRound(nil, &v)), "\n")
	n := len(v.Units)
	if lines[0] != "round 0 128" {
		t.Errorf("header %q", lines[0])
	}
	for i := 0; i < 37; i++ {
		row := lines[1+i]
		for j := 0; j < 37; j++ {
			if c := &v.Grid[i*37+j]; len(row) != 37 || row[j] != CellChar(c) {
				t.Fatalf("grid line %d = %q", i, row)
			}
		}
	}
	// Unit 32 is the first witch of real player 1, so of view player 0.
	u := v.Units[32]
	if want := "w 0 " + strconv.Itoa(u.Pos.I) + " " + strconv.Itoa(u.Pos.J) + " -1 1"; lines[38+32] != want {
		t.Errorf("unit 32 %q, want %q", lines[38+32], want)
	}
	if u.Pos != ViewPos(g.Units[32].Pos, 1, 37) {
		t.Errorf("unit 32 at %v in the view, real %v", u.Pos, g.Units[32].Pos)
	}
	occ := strings.Fields(lines[38+n])
	if occ[0] != "occupied" || occ[1] != "128" || len(occ) != 2+2*128 {
		t.Errorf("occupied line %.60q", lines[38+n])
	}
	haunted := strings.Fields(lines[39+n])
	if haunted[0] != "haunted" || len(haunted) < 2+8*5 {
		t.Errorf("haunted line %.60q", lines[39+n])
	}
	want := []string{"land 20 20 20 20", "total_score 20 20 20 20"}
	if got := lines[40+n : 42+n]; !slices.Equal(got, want) {
		t.Errorf("scores %q, want %q", got, want)
	}
	if !strings.HasPrefix(lines[42+n], "farmers 20 44 45 ") || !strings.HasPrefix(lines[43+n], "knights 10 34 35 ") ||
		lines[44+n] != "witches 2 32 33 2 64 65 2 96 97 2 0 1" {
		t.Errorf("lists %q, %q, %q", lines[42+n][:20], lines[43+n][:20], lines[44+n])
	}
	if tail := lines[45+n:]; !slices.Equal(tail, []string{"status 0 0 0 0", "play", ""}) {
		t.Errorf("tail %q", tail)
	}
}
