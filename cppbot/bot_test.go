package cppbot

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

type pair struct{ id, dir int }

func TestParseCommands(t *testing.T) {
	mk := func(id, d int) (pair, bool) { return pair{id, d}, d != 99 }
	for _, c := range []struct {
		line   string
		digits int
		want   string // the commands, or the error's reason
	}{
		{"commands 0", 9, "[]"},
		{"commands 2 5 1 -3 10\n", 9, "[{5 1} {-3 10}]"},
		{"commands  2  5 1 7 0 ", 9, "[{5 1} {7 0}]"},
		{"commands 1 2147483647 -2147483648", 11, "[{2147483647 -2147483648}]"},
		{"commands 1 2147483648 0", 11, "bad command"},
		{"commands 1 1234567890 0", 9, "bad command"},
		{"commands 1 5 99", 9, "bad command"},
		{"commands 4 1 1 2 2 3 3 4 4", 9, "bad command count"},
		{"commands -1", 9, "bad command count"},
		{"commands 1 5", 9, "bad command"},
		{"commands 1 5 1 6", 9, "extra data"},
		{"command 1 5 1", 9, `want "commands <n> ..."`},
	} {
		got, err := ParseCommands([]byte(c.line), 3, c.digits, []pair{{9, 9}}, mk)
		if err != nil {
			if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), c.want+" in ") {
				t.Errorf("ParseCommands(%q) = %v, want %s", c.line, err, c.want)
			}
			continue
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("ParseCommands(%q) = %v, want %s", c.line, got, c.want)
		}
	}
}

func TestAppendIntsAndList(t *testing.T) {
	b := AppendInts(nil, "cells", []int{1, -2, 3})
	b = append(b, "ids"...)
	b = AppendList(b, []int{7, 8})
	b = AppendList(b, nil)
	if got, want := string(b), "cells 1 -2 3\nids 2 7 8 0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
