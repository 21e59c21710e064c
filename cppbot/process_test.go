package cppbot

import (
	"strings"
	"testing"
)

func TestLastLines(t *testing.T) {
	long := strings.Repeat("x", 2000)
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"one\n", "one"},
		{"a\nb\nb\nb\nc\n", "a\nb  (3 times)\nc"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "3\n4\n5\n6\n7\n8\n9\n10"},
		{long + "\nend\n", "end"},
	}
	for _, tc := range tests {
		if got := lastLines([]byte(tc.in)); got != tc.want {
			t.Errorf("lastLines(%.20q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTailBuffer(t *testing.T) {
	var all strings.Builder
	tb := newTailBuffer(10, &all)
	for _, w := range []string{"hello ", "world", "", "0123456789abc", "de"} {
		tb.Write([]byte(w))
	}
	got, total := tb.Bytes()
	if string(got) != "56789abcde" {
		t.Errorf("tail %q", got)
	}
	if total != 26 || all.String() != "hello world0123456789abcde" {
		t.Errorf("total %d, copy %q", total, all.String())
	}
}

func TestBotName(t *testing.T) {
	tests := []struct{ path, want string }{
		{"AIMine.cc", "Mine"},
		{"dir/AIDummy.o", "Dummy"},
		{"bot.cpp", "bot"},
		{"AI.cc", "AI"},
	}
	for _, tc := range tests {
		if got := BotName(tc.path); got != tc.want {
			t.Errorf("BotName(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
