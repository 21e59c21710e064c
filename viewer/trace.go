package viewer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// ErrNotTrace is wrapped by the errors LoadTrace returns when a file is not a
// trace of a game the viewer replays: its first token is neither "Game" nor
// "SecGame", or it names another game.
var ErrNotTrace = errors.New("not a game trace")

// games are the games the page replays (static/games/index.js registers
// them), by the name a trace gives after its "Seed N" line.
var games = []string{"Crematoria", "Dominator", "Pandemic", "Moria"}

// maxTraceSize bounds the size of a decompressed trace. A default trace is
// about 1 MB; this leaves plenty of room for long non-default games while
// protecting against gzip bombs.
const maxTraceSize = 256 << 20

// gzipMagic are the first two bytes of every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// LoadTrace reads a trace (of Crematoria, Dominator, Pandemic or Moria) from
// path. Gzipped files (recognised by the gzip magic bytes, whatever their
// name) are decompressed. The result must start with the token "Game" or
// "SecGame" and, when it goes on to "Seed N" and a game's name, name one of
// those games; otherwise LoadTrace returns an error wrapping ErrNotTrace. The
// rest is read by the page, which reports what it cannot read.
func LoadTrace(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	data, err := decodeTrace(raw)
	if err != nil {
		return nil, fmt.Errorf("viewer: %s: %w", path, err)
	}
	if err := checkTrace(data); err != nil {
		return nil, fmt.Errorf("viewer: %s: %w", path, err)
	}
	return data, nil
}

// isGzip reports whether data starts with the gzip magic bytes.
func isGzip(data []byte) bool {
	return bytes.HasPrefix(data, gzipMagic)
}

// decodeTrace returns data, gunzipped when it starts with the gzip magic.
func decodeTrace(data []byte) ([]byte, error) {
	if !isGzip(data) {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("bad gzip data: %w", err)
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, maxTraceSize+1))
	if err != nil {
		return nil, fmt.Errorf("bad gzip data: %w", err)
	}
	if len(out) > maxTraceSize {
		return nil, fmt.Errorf("decompressed trace is larger than %d MB", maxTraceSize>>20)
	}
	return out, nil
}

// checkTrace verifies that the first whitespace-separated token of data is
// "Game" or "SecGame", the two headers the course viewers accept, and that
// the game named after "Seed N", if any, is one the page replays.
func checkTrace(data []byte) error {
	fields := leadingFields(data)
	first := ""
	if len(fields) > 0 {
		first = string(fields[0])
	}
	if first == "Game" || first == "SecGame" {
		if len(fields) < 4 || string(fields[1]) != "Seed" || slices.Contains(games, string(fields[3])) {
			return nil
		}
		name := string(fields[3])
		if len(name) > 24 {
			name = name[:24] + "..."
		}
		return fmt.Errorf("%w: it is a trace of %q; the viewer replays %s", ErrNotTrace, name, strings.Join(games, ", "))
	}
	if first == "" {
		return fmt.Errorf("%w: the file is empty", ErrNotTrace)
	}
	if len(first) > 24 {
		first = first[:24] + "..."
	}
	return fmt.Errorf("%w: it should start with \"Game\" or \"SecGame\" but starts with %q", ErrNotTrace, first)
}

// leadingFields returns the first few whitespace-separated tokens of data
// (looking at most at the first few hundred bytes).
func leadingFields(data []byte) [][]byte {
	if len(data) > 512 {
		data = data[:512]
	}
	fields := bytes.Fields(data)
	return fields[:min(len(fields), 4)]
}
