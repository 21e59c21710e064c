// Package coursetest holds the test helpers every game's tests share:
// reading and writing gzip-compressed reference traces, showing where two
// traces first differ, a trace file that is never closed, and an ONNX
// file with one more metadata entry.
package coursetest

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"os"
	"slices"
	"strconv"
	"testing"
)

// ReadGz returns the uncompressed content of a gzip file, failing the
// test on any error.
func ReadGz(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Gzip returns b gzip-compressed.
func Gzip(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// FirstDiff describes where got first departs from want: the byte, its
// line and the text around it on both sides.
func FirstDiff(want, got []byte) string {
	n := min(len(want), len(got))
	for i := 0; i < n; i++ {
		if want[i] != got[i] {
			line := bytes.Count(want[:i], []byte("\n")) + 1
			s := max(0, i-80)
			return "first difference at byte " + strconv.Itoa(i) + " (line " + strconv.Itoa(line) + "):\nwant: " +
				strconv.Quote(string(want[s:min(len(want), i+40)])) + "\n got: " + strconv.Quote(string(got[s:min(len(got), i+40)]))
		}
	}
	return "lengths differ: want " + strconv.Itoa(len(want)) + " got " + strconv.Itoa(len(got))
}

// NopCloser is a trace file whose Close does nothing.
type NopCloser struct{ io.Writer }

// Close does nothing.
func (NopCloser) Close() error { return nil }

// WithMetadata returns an ONNX file with one more metadata_props entry
// (ModelProto field 14, a StringStringEntryProto of key 1 and value 2):
// a repeated field may come after the others, and a later entry of a key
// wins in policy.Parse.
func WithMetadata(onnx []byte, key, value string) []byte {
	entry := appendField(appendField(nil, 1, []byte(key)), 2, []byte(value))
	return appendField(slices.Clone(onnx), 14, entry)
}

// appendField appends protobuf field f of wire type 2 (length-delimited)
// holding v.
func appendField(b []byte, f uint64, v []byte) []byte {
	b = binary.AppendUvarint(b, f<<3|2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}
