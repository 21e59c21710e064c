package coursetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
