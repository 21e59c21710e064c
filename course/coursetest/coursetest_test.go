package coursetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jgym/env/crematoria"
	"jgym/policy"
)

func TestGzipRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.gz")
	if err := os.WriteFile(path, Gzip(t, []byte("Game\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := string(ReadGz(t, path)); got != "Game\n" {
		t.Errorf("ReadGz = %q", got)
	}
}

func TestFirstDiff(t *testing.T) {
	if got := FirstDiff([]byte("a\nbc"), []byte("a\nbd")); !strings.HasPrefix(got, "first difference at byte 3 (line 2)") {
		t.Errorf("FirstDiff = %q", got)
	}
	if got := FirstDiff([]byte("ab"), []byte("a")); got != "lengths differ: want 2 got 1" {
		t.Errorf("FirstDiff = %q", got)
	}
}

func TestWithMetadata(t *testing.T) {
	raw, err := os.ReadFile("../../cppexport/testdata/small.onnx")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{policy.OpponentsByScore, policy.OpponentsBySeat} {
		m, err := policy.Parse(WithMetadata(raw, policy.KeyOpponentOrder, v), crematoria.Def.PolicySignature())
		if err != nil {
			t.Fatal(err)
		}
		if m.OpponentOrder != v || m.Metadata[policy.KeyOpponentOrder] != v {
			t.Errorf("opponent_order %q: parsed %q", v, m.OpponentOrder)
		}
	}
	if m, err := policy.Parse(raw, crematoria.Def.PolicySignature()); err != nil || m.OpponentOrder != policy.OpponentsBySeat {
		t.Errorf("the file itself: %v, %q", err, m.OpponentOrder)
	}
}
