package pandemic

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"jgym/cppbot"
	"jgym/game"
)

func TestParseCommands(t *testing.T) {
	tests := []struct {
		line string
		want []Command
		err  error
	}{
		{"commands 0\n", nil, nil},
		{"commands 2 5 2 17 4\n", []Command{{ID: 5, Dir: Top}, {ID: 17, Dir: None}}, nil},
		{"commands 3 -3 0 70 9 8 -1\n", []Command{{ID: -3, Dir: Bottom}, {ID: 70, Dir: 9}, {ID: 8, Dir: -1}}, nil},
		{"commands 2 1 300 2 -2147483648\n", []Command{{ID: 1, Dir: 127}, {ID: 2, Dir: -128}}, nil},
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

// The init message holds the settings and the map; the round message the
// grid as in the trace, every unit, the lists and the scores.
func TestAppendMessages(t *testing.T) {
	cfg := DefaultConfig()
	cfg.InfectionFactor = 0.1
	g, err := New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	init := strings.Split(string(appendInit(nil, 2, 7, &g.State)), "\n")
	if want := "init 2 7 4 70 70 200 100 15 1 1 2 0.1 20"; init[0] != want {
		t.Errorf("init line %q, want %q", init[0], want)
	}
	// Seed 1: 8 cities, city 0 at (5, 57) with 4 cells; path 0 joins
	// cities 4 and 7 with 24 cells (SPEC §4.9).
	if init[1] != "cities 8" || !strings.HasPrefix(init[2], "4 5 57 ") || init[10] != "paths 7" ||
		!strings.HasPrefix(init[11], "4 7 24 ") || len(strings.Fields(init[11])) != 3+2*24 || len(init) != 19 {
		t.Errorf("init map %q", init[1:])
	}

	lines := strings.Split(string(appendRound(nil, &g.State)), "\n")
	if lines[0] != "round 0" {
		t.Errorf("header %q", lines[0])
	}
	for i := 1; i <= 70; i++ {
		if len(lines[i]) != 70 || lines[i][0] != 'W' {
			t.Fatalf("grid line %d: %q", i, lines[i])
		}
	}
	// Unit 0 starts at (55, 68), infected with damage 1 for 1 turn;
	// unit 59 at (32, 1).
	if lines[71] != "units 60" || lines[72] != "0 55 68 100 1 1 0 0" || lines[72+59] != "3 32 1 100 0 0 0 0" {
		t.Errorf("units %q %q %q", lines[71], lines[72], lines[72+59])
	}
	want := []string{
		"my_units 15 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 15 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 15 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59",
		"masks 0", "city_owners -1 -1 -1 -1 -1 -1 -1 -1", "path_owners -1 -1 -1 -1 -1 -1 -1",
		"scores 0 0 0 0", "status 0 0 0 0", "play", "",
	}
	if got := lines[132:]; !slices.Equal(got, want) {
		t.Errorf("tail %q, want %q", got, want)
	}
}

// FuzzParseCommands: a bot's answer never panics the parser, and what it
// accepts is a list of at most game.MaxCommands commands that reads back the
// same once written in the runner's format.
func FuzzParseCommands(f *testing.F) {
	for _, s := range []string{"commands 0", "commands 2 5 2 17 4", "commands 1 -3 300", "commands 1 1", "error protocol x", "commands 1  2  3 "} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got, err := parseCommands(line, nil)
		if err != nil {
			if !errors.Is(err, cppbot.ErrProtocol) {
				t.Fatalf("error %v is not a protocol error", err)
			}
			return
		}
		if len(got) > game.MaxCommands {
			t.Fatalf("%d commands accepted", len(got))
		}
		b := appendInt([]byte("commands "), len(got))
		for _, c := range got {
			b = append(b, ' ')
			b = appendInt(b, c.ID)
			b = append(b, ' ')
			b = appendInt(b, int(c.Dir))
		}
		again, err := parseCommands(b, nil)
		if err != nil || !slices.Equal(again, got) {
			t.Fatalf("%q: written back as %q, read %v, %v", line, b, again, err)
		}
	})
}
