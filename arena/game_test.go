package arena

import (
	"bytes"
	"errors"
	"testing"

	"jgym/cppbot"
	"jgym/policy"
)

func TestSplitSeatAndTraceName(t *testing.T) {
	for _, tc := range []struct {
		name, prefix, ref, trace string
	}{
		{"Demo", "", "Demo", "Demo"},
		{"policy:runs/x/Mine.onnx", "policy", "runs/x/Mine.onnx", "Mine"},
		{"cpp:AIMine.cc", "cpp", "AIMine.cc", "Mine"},
		{"cpp:/a/AIVeryLongPlayerName.cc", "cpp", "/a/AIVeryLongPlayerName.cc", "VeryLongPlay"},
		{"policy:@0123/ppo.onnx", "policy", "@0123/ppo.onnx", "ppo"},
	} {
		prefix, ref := SplitSeat(tc.name)
		if prefix != tc.prefix || ref != tc.ref {
			t.Errorf("SplitSeat(%q) = %q, %q, want %q, %q", tc.name, prefix, ref, tc.prefix, tc.ref)
		}
		if got := TraceName(tc.name); got != tc.trace {
			t.Errorf("TraceName(%q) = %q, want %q", tc.name, got, tc.trace)
		}
	}
}

func TestGameOf(t *testing.T) {
	for head, want := range map[string]string{
		"Game\n\nSeed 4\n\nCrematoria 1.2\nnb_players 4\n": "Crematoria",
		"Dominator 4.0\nnb_players       4\n":              "Dominator",
		"\n  Moria 1.1\n":                                  "Moria",
		"hello\n":                                          "hello",
		"":                                                 "",
	} {
		if got := GameOf([]byte(head)); got != want {
			t.Errorf("GameOf(%q) = %q, want %q", head, got, want)
		}
	}
}

func TestPrintResults(t *testing.T) {
	var b bytes.Buffer
	PrintResults(&b, []string{"Demo", "Null", "Demo", "Null"}, []int{235, 29, 357, 357})
	want := "info: player Demo got score 235\ninfo: player Null got score 29\ninfo: player Demo got score 357\n" +
		"info: player Null got score 357\ninfo: player(s) Demo Null got top score\ninfo: game played\n"
	if b.String() != want {
		t.Errorf("PrintResults wrote\n%s\nwant\n%s", b.String(), want)
	}
}

type describedLoader struct{}

func (describedLoader) Policy(string, policy.Signature) (*policy.Model, error) { return nil, nil }
func (describedLoader) Cpp(string, *cppbot.Kit) (*cppbot.Program, error)       { return nil, nil }
func (describedLoader) Describe() string                                       { return "a file of the shelf" }

func TestHintPrefixes(t *testing.T) {
	base := errors.New(`unknown bot "X"`)
	if err := HintPrefixes(base, nil); err != base {
		t.Errorf("HintPrefixes(err, nil) = %v, want err", err)
	}
	err := HintPrefixes(base, describedLoader{})
	if want := `unknown bot "X" (or prefix:NAME with prefix cpp or policy: a file of the shelf)`; err.Error() != want || !errors.Is(err, base) {
		t.Errorf("HintPrefixes = %v, want %s wrapping err", err, want)
	}
}
