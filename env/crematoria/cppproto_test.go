package crematoria

import (
	"errors"
	"reflect"
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
		{"commands 2 5 4 17 10\n", []Command{{ID: 5, Dir: Top}, {ID: 17, Dir: None}}, nil},
		{"commands 1 -3 0\n", []Command{{ID: -3, Dir: Bottom}}, nil},
		{"commands 1 5 11\n", nil, cppbot.ErrProtocol},
		{"commands 1 5 -1\n", nil, cppbot.ErrProtocol},
		{"commands 2 5 4\n", nil, cppbot.ErrProtocol},
		{"commands 1 5 4 6\n", nil, cppbot.ErrProtocol},
		{"commands 1001\n", nil, cppbot.ErrProtocol},
		{"commands x\n", nil, cppbot.ErrProtocol},
		{"hello\n", nil, cppbot.ErrProtocol},
	}
	for _, tc := range tests {
		got, err := parseCommands([]byte(tc.line), nil)
		if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("%q: error %v, want %v", tc.line, err, tc.err)
			continue
		}
		if err == nil && len(got)+len(tc.want) > 0 && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.line, got, tc.want)
		}
	}
}

// The round message of a new game: the grid as in the trace, every unit,
// the occupied cells and the lists.
func TestAppendRound(t *testing.T) {
	g, err := New(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	msg := string(appendRound(nil, &g.State))
	lines := strings.Split(msg, "\n")
	n := len(g.Units)
	if lines[0] != "round 0 93" {
		t.Errorf("header %q", lines[0])
	}
	for i := 1; i <= 80; i++ {
		if len(lines[i]) != 80 {
			t.Fatalf("grid line %d has %d characters", i, len(lines[i]))
		}
	}
	if !strings.HasPrefix(lines[81], "f 0 100 -1 ") || !strings.HasPrefix(lines[81+n-1], "h -1 -1 -1 ") {
		t.Errorf("units %q ... %q", lines[81], lines[81+n-1])
	}
	occ := strings.Fields(lines[81+n])
	if occ[0] != "occupied" || occ[1] != "83" || len(occ) != 2+2*83 { // 80 units and 3 hellhounds
		t.Errorf("occupied line %.60q", lines[81+n])
	}
	want := []string{"necromongers 0", "hellhounds 3 90 91 92", "cells 15 15 15 15", "gems 0 0 0 0", "status 0 0 0 0", "play", ""}
	if got := lines[len(lines)-len(want):]; !reflect.DeepEqual(got, want) {
		t.Errorf("tail %q, want %q", got, want)
	}
	if !strings.HasPrefix(lines[81+n+1], "furyans 5 0 1 2 3 4 5 20 21 22 23 24 5 40") {
		t.Errorf("furyans line %q", lines[81+n+1])
	}
	if init := string(appendInit(nil, 2, 7, g.Cfg)); init != "init 2 7 4 120 5 15 10 3 20 30 2 40 80\n" {
		t.Errorf("init %q", init)
	}
}
