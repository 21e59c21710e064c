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
	"syscall"
)

// ErrNotTrace is wrapped by the errors LoadTrace returns when a file is not a
// trace of a game the viewer replays: its first token is neither "Game" nor
// "SecGame", or it names another game.
var ErrNotTrace = errors.New("not a game trace")

// games are the games the page replays (static/games/index.js registers
// them), by the name a trace gives after its "Seed N" line.
var games = []string{"Crematoria", "Dominator", "Pandemic", "Moria"}

// MaxTraceBytes is the default bound of LoadTrace on the size of a trace,
// as a file (plain or gzipped) and once decompressed. A default trace is
// about 1 MB; this leaves plenty of room for long non-default games while
// refusing gzip bombs and endless inputs.
const MaxTraceBytes = 256 << 20

// gzipMagic are the first two bytes of every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// LoadTrace reads a trace (of Crematoria, Dominator, Pandemic or Moria) from
// path. Gzipped files (recognised by the gzip magic bytes, whatever their
// name) are decompressed. The result must start with the token "Game" or
// "SecGame" and, when it goes on to "Seed N" and a game's name, name one of
// those games; otherwise LoadTrace returns an error wrapping ErrNotTrace. The
// rest is read by the page, which reports what it cannot read. The file
// must be a regular file (a device such as /dev/zero, a FIFO or a
// directory is refused before anything is read) of at most MaxTraceBytes,
// and so must its decompressed text.
func LoadTrace(path string) ([]byte, error) { return LoadTraceLimit(path, MaxTraceBytes) }

// LoadTraceLimit is LoadTrace with limit in place of MaxTraceBytes.
func LoadTraceLimit(path string, limit int64) ([]byte, error) {
	raw, err := readRegular(path, limit)
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	data, err := decodeTrace(raw, limit)
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

// readRegular reads path, a regular file of at most limit bytes: other
// files are refused from their metadata, before any read (O_NONBLOCK: a
// FIFO without a writer does not block the open), and a file that grows
// past limit while it is read is refused after limit+1 bytes.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file", path, fileKind(fi.Mode()))
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, over the limit of %d (--max-trace-bytes)", path, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: grew over the limit of %d bytes while read", path, limit)
	}
	return data, nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// decodeTrace returns data, gunzipped (to at most limit bytes) when it
// starts with the gzip magic.
func decodeTrace(data []byte, limit int64) ([]byte, error) {
	if !isGzip(data) {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("bad gzip data: %w", err)
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("bad gzip data: %w", err)
	}
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("decompressed trace is larger than %d bytes (--max-trace-bytes)", limit)
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
