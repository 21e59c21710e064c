package policy

import (
	"encoding/binary"
	"fmt"
	"math"
)

// This file decodes an ONNX TensorProto (an initializer or the value of a
// tensor attribute) into a Tensor, converting the element type as the
// interpreter holds it (DTypeOf).

// TensorProto.DataType values.
const (
	onnxFloat  = 1
	onnxUint8  = 2
	onnxInt8   = 3
	onnxUint16 = 4
	onnxInt16  = 5
	onnxInt32  = 6
	onnxInt64  = 7
	onnxBool   = 9
	onnxDouble = 11
	onnxUint32 = 12
	onnxUint64 = 13
)

// decodeTensor decodes a TensorProto into a Tensor. Integer types become
// int64 elements, bool becomes bool, float and double become float32.
func decodeTensor(b []byte) (*Tensor, error) {
	var (
		dims     []int64
		dataType int64
		name     string
		raw      []byte
		hasRaw   bool
		floats   []float32
		ints     []int64
		doubles  []float64
		external bool
	)
	r := fieldReader{b: b}
	for {
		num, typ, val, v, ok := r.next()
		if !ok {
			break
		}
		var err error
		switch num {
		case tensorDims:
			dims, err = appendVarints(dims, typ, val, v)
		case tensorDataType:
			dataType = int64(v)
		case tensorName:
			name = string(val)
		case tensorRawData:
			raw, hasRaw = val, true
		case tensorFloatData:
			floats, err = appendFloats(floats, typ, val, v)
		case tensorInt32Data, tensorInt64Data:
			ints, err = appendVarints(ints, typ, val, v)
		case tensorDoubleData:
			doubles, err = appendDoubles(doubles, typ, val, v)
		case tensorDataLocation:
			external = v == 1
		}
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("tensor %q: %w", name, r.err)
	}
	if external {
		return nil, fmt.Errorf("%w: tensor %q: external data is not supported", ErrFormat, name)
	}
	shape := make([]int, len(dims))
	n := 1
	for i, d := range dims {
		if d < 0 || d > maxElems || (d > 0 && n > maxElems/int(d)) {
			return nil, fmt.Errorf("%w: tensor %q: dimensions %v too large", ErrFormat, name, dims)
		}
		shape[i] = int(d)
		n *= int(d)
	}
	dt, err := DTypeOf(dataType)
	if err != nil {
		return nil, fmt.Errorf("tensor %q: %w", name, err)
	}
	size := elemSize(dataType)
	have := len(ints)
	switch {
	case hasRaw:
		have = len(raw) / size
		if len(raw)%size != 0 {
			have = -1
		}
	case dt == Float32 && dataType == onnxDouble:
		have = len(doubles)
	case dt == Float32:
		have = len(floats)
	}
	if have != n {
		if hasRaw {
			return nil, fmt.Errorf("%w: tensor %q: %d raw bytes for %d elements of type %d", ErrFormat, name, len(raw), n, dataType)
		}
		return nil, fmt.Errorf("%w: tensor %q: %d values for %d elements", ErrFormat, name, have, n)
	}
	t := newTensor(dt, shape)
	t.Name = name
	switch {
	case hasRaw:
		for i := 0; i < n; i++ {
			p := raw[i*size:]
			switch dataType {
			case onnxFloat:
				t.F[i] = math.Float32frombits(binary.LittleEndian.Uint32(p))
			case onnxDouble:
				t.F[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(p)))
			case onnxUint8:
				t.I[i] = int64(p[0])
			case onnxInt8:
				t.I[i] = int64(int8(p[0]))
			case onnxUint16:
				t.I[i] = int64(binary.LittleEndian.Uint16(p))
			case onnxInt16:
				t.I[i] = int64(int16(binary.LittleEndian.Uint16(p)))
			case onnxInt32:
				t.I[i] = int64(int32(binary.LittleEndian.Uint32(p)))
			case onnxUint32:
				t.I[i] = int64(binary.LittleEndian.Uint32(p))
			case onnxInt64, onnxUint64:
				t.I[i] = int64(binary.LittleEndian.Uint64(p))
			case onnxBool:
				t.B[i] = p[0] != 0
			}
		}
	case dt == Float32 && dataType == onnxDouble:
		for i, x := range doubles {
			t.F[i] = float32(x)
		}
	case dt == Float32:
		copy(t.F, floats)
	default:
		for i, x := range ints {
			switch dt {
			case Bool:
				t.B[i] = x != 0
			default:
				t.I[i] = x
			}
		}
	}
	return t, nil
}

// maxElems bounds the elements of one tensor of a file (1 GiB of float32).
const maxElems = 1 << 28

// elemSize is the size in raw_data of one element of an ONNX data type.
func elemSize(dataType int64) int {
	switch dataType {
	case onnxUint8, onnxInt8, onnxBool:
		return 1
	case onnxUint16, onnxInt16:
		return 2
	case onnxFloat, onnxInt32, onnxUint32:
		return 4
	}
	return 8
}
