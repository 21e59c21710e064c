package policy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A protocol-buffers wire-format reader, just what decoding an ONNX file
// needs (https://protobuf.dev/programming-guides/encoding/). It is written
// here rather than imported so that the package, like every game package,
// depends on the standard library only (cmd/jgym/deps_test.go).

// wireType is the low 3 bits of a field tag.
type wireType uint8

const (
	varintType  wireType = 0
	fixed64Type wireType = 1
	bytesType   wireType = 2
	fixed32Type wireType = 5
)

var (
	errTruncated = errors.New("truncated field")
	errOverflow  = errors.New("varint overflows 64 bits")
	errWireType  = errors.New("unsupported wire type (groups are not used by ONNX)")
)

// consumeVarint decodes a base-128 varint, returning its value and length.
func consumeVarint(b []byte) (uint64, int, error) {
	var v uint64
	for i := 0; i < len(b) && i < 10; i++ {
		c := b[i]
		if i == 9 && c > 1 {
			return 0, 0, errOverflow
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1, nil
		}
	}
	if len(b) >= 10 {
		return 0, 0, errOverflow
	}
	return 0, 0, errTruncated
}

// consumeField decodes one field: its number, wire type, the payload of a
// length-delimited field, the value of a scalar one, and its total length.
func consumeField(b []byte) (num int, typ wireType, val []byte, v uint64, n int, err error) {
	tag, k, err := consumeVarint(b)
	if err != nil {
		return 0, 0, nil, 0, 0, err
	}
	num, typ = int(tag>>3), wireType(tag&7)
	if num <= 0 {
		return 0, 0, nil, 0, 0, errors.New("bad field number 0")
	}
	rest := b[k:]
	switch typ {
	case varintType:
		var m int
		v, m, err = consumeVarint(rest)
		return num, typ, nil, v, k + m, err
	case fixed64Type:
		if len(rest) < 8 {
			return 0, 0, nil, 0, 0, errTruncated
		}
		return num, typ, nil, binary.LittleEndian.Uint64(rest), k + 8, nil
	case fixed32Type:
		if len(rest) < 4 {
			return 0, 0, nil, 0, 0, errTruncated
		}
		return num, typ, nil, uint64(binary.LittleEndian.Uint32(rest)), k + 4, nil
	case bytesType:
		size, m, err := consumeVarint(rest)
		if err != nil {
			return 0, 0, nil, 0, 0, err
		}
		if size > uint64(len(rest)-m) {
			return 0, 0, nil, 0, 0, errTruncated
		}
		return num, typ, rest[m : m+int(size)], 0, k + m + int(size), nil
	}
	return 0, 0, nil, 0, 0, errWireType
}

// appendTag appends a field tag (used by tests to build models).
func appendTag(b []byte, num int, typ wireType) []byte {
	return binary.AppendUvarint(b, uint64(num)<<3|uint64(typ))
}

// fieldReader walks the fields of one message.
type fieldReader struct {
	b   []byte
	err error
}

// next returns the next field; ok is false at the end or on an error.
func (r *fieldReader) next() (num int, typ wireType, val []byte, v uint64, ok bool) {
	if r.err != nil || len(r.b) == 0 {
		return 0, 0, nil, 0, false
	}
	num, typ, val, v, n, err := consumeField(r.b)
	if err != nil {
		r.err = fmt.Errorf("%w: %v", ErrFormat, err)
		return 0, 0, nil, 0, false
	}
	r.b = r.b[n:]
	return num, typ, val, v, true
}

// wantBytes checks that a field that should be a message or string has
// the length-delimited wire type.
func (r *fieldReader) wantBytes(typ wireType, what string) bool {
	if typ != bytesType {
		r.err = fmt.Errorf("%w: %s has wire type %d", ErrFormat, what, typ)
		return false
	}
	return true
}

// appendVarints appends a repeated varint field given packed or unpacked.
func appendVarints(dst []int64, typ wireType, val []byte, v uint64) ([]int64, error) {
	if typ == varintType {
		return append(dst, int64(v)), nil
	}
	for len(val) > 0 {
		x, n, err := consumeVarint(val)
		if err != nil {
			return dst, fmt.Errorf("%w: packed varints: %v", ErrFormat, err)
		}
		dst = append(dst, int64(x))
		val = val[n:]
	}
	return dst, nil
}

// appendFloats appends a repeated float field given packed or unpacked.
func appendFloats(dst []float32, typ wireType, val []byte, v uint64) ([]float32, error) {
	if typ == fixed32Type {
		return append(dst, math.Float32frombits(uint32(v))), nil
	}
	if len(val)%4 != 0 {
		return dst, fmt.Errorf("%w: packed floats of %d bytes", ErrFormat, len(val))
	}
	for i := 0; i < len(val); i += 4 {
		dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(val[i:])))
	}
	return dst, nil
}

// appendDoubles appends a repeated double field given packed or unpacked.
func appendDoubles(dst []float64, typ wireType, val []byte, v uint64) ([]float64, error) {
	if typ == fixed64Type {
		return append(dst, math.Float64frombits(v)), nil
	}
	if len(val)%8 != 0 {
		return dst, fmt.Errorf("%w: packed doubles of %d bytes", ErrFormat, len(val))
	}
	for i := 0; i < len(val); i += 8 {
		dst = append(dst, math.Float64frombits(binary.LittleEndian.Uint64(val[i:])))
	}
	return dst, nil
}
