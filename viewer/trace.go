package viewer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotTrace is wrapped by the errors LoadTrace returns when a file is not a
// Crematoria trace (its first token is neither "Game" nor "SecGame").
var ErrNotTrace = errors.New("not a Crematoria trace")

// maxTraceSize bounds the size of a decompressed trace. A default trace is
// about 1 MB; this leaves plenty of room for long non-default games while
// protecting against gzip bombs.
const maxTraceSize = 256 << 20

// gzipMagic are the first two bytes of every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// LoadTrace reads a Crematoria trace from path. Gzipped files (recognised by
// the gzip magic bytes, whatever their name) are decompressed. The result must
// start with the token "Game" or "SecGame", otherwise LoadTrace returns an
// error wrapping ErrNotTrace.
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
// "Game" or "SecGame", the two headers the course viewer accepts.
func checkTrace(data []byte) error {
	first := firstToken(data)
	if first == "Game" || first == "SecGame" {
		return nil
	}
	if first == "" {
		return fmt.Errorf("%w: the file is empty", ErrNotTrace)
	}
	if len(first) > 24 {
		first = first[:24] + "..."
	}
	return fmt.Errorf("%w: it should start with \"Game\" or \"SecGame\" but starts with %q", ErrNotTrace, first)
}

// firstToken returns the first whitespace-separated token of data (looking at
// most at the first few hundred bytes).
func firstToken(data []byte) string {
	if len(data) > 512 {
		data = data[:512]
	}
	fields := bytes.Fields(data)
	if len(fields) == 0 {
		return ""
	}
	return string(fields[0])
}
