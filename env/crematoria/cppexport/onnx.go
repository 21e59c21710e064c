package cppexport

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// This file reads the graph of an ONNX model: its nodes in file order,
// their attributes, the initializers and the names of the inputs and
// outputs. policy.Parse has already checked the file (operators, opset,
// observation version, signature) and run it once; the decoder only needs
// the structure, which the policy package does not expose. It follows the
// policy package's decoder field by field (onnx/onnx.proto, IR version 3
// and later) and converts tensors the same way: floats and doubles to
// float32, every integer type to int64, bool to bool.

var errFormat = errors.New("not a valid ONNX model")

// ONNX TensorProto.DataType values.
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

// dtype is the element type of a value as the Go interpreter holds it.
type dtype uint8

const (
	f32 dtype = iota + 1 // float32: C++ float
	i64                  // every integer type: C++ long long
	bln                  // bool: C++ unsigned char (0 or 1)
)

func (d dtype) String() string {
	switch d {
	case f32:
		return "float32"
	case i64:
		return "int64"
	case bln:
		return "bool"
	}
	return fmt.Sprintf("dtype(%d)", int(d))
}

// ctype is the C++ element type of a dtype.
func (d dtype) ctype() string {
	switch d {
	case f32:
		return "float"
	case i64:
		return "long long"
	}
	return "unsigned char"
}

func dtypeOf(dataType int64) (dtype, error) {
	switch dataType {
	case onnxFloat, onnxDouble:
		return f32, nil
	case onnxUint8, onnxInt8, onnxUint16, onnxInt16, onnxInt32, onnxInt64, onnxUint32, onnxUint64:
		return i64, nil
	case onnxBool:
		return bln, nil
	}
	return 0, fmt.Errorf("unsupported tensor data type %d", dataType)
}

// tensor is a constant: an initializer or the value of a Constant node.
type tensor struct {
	name  string
	dt    dtype
	shape []int
	f     []float32
	i     []int64
	b     []bool
}

func (t *tensor) len() int { return numElems(t.shape) }

type node struct {
	name, op, domain string
	inputs, outputs  []string
	attrs            map[string]*attribute
}

type attribute struct {
	f      float32
	i      int64
	s      string
	t      *tensor
	floats []float32
	ints   []int64
	hasF   bool
}

// attrInt returns an int attribute or def.
func (n *node) attrInt(name string, def int64) int64 {
	if a, ok := n.attrs[name]; ok {
		return a.i
	}
	return def
}

// attrInts returns an ints attribute or nil.
func (n *node) attrInts(name string) []int64 {
	if a, ok := n.attrs[name]; ok {
		return a.ints
	}
	return nil
}

// attrFloat returns a float attribute or def.
func (n *node) attrFloat(name string, def float32) float32 {
	if a, ok := n.attrs[name]; ok {
		return a.f
	}
	return def
}

type graph struct {
	nodes        []*node
	initializers []*tensor
	inputs       []string
	outputs      []string
}

// wire types
const (
	varintType  = 0
	fixed64Type = 1
	bytesType   = 2
	fixed32Type = 5
)

// reader walks the fields of one protobuf message.
type reader struct {
	b   []byte
	err error
}

func uvarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, -1
}

// next returns the next field: its number, wire type, payload (bytes and
// fixed types) and value (varint, fixed32, fixed64).
func (r *reader) next() (num int, typ int, val []byte, v uint64, ok bool) {
	if r.err != nil || len(r.b) == 0 {
		return 0, 0, nil, 0, false
	}
	tag, n := uvarint(r.b)
	if n < 0 {
		r.err = fmt.Errorf("%w: bad field tag", errFormat)
		return
	}
	r.b = r.b[n:]
	num, typ = int(tag>>3), int(tag&7)
	switch typ {
	case varintType:
		v, n = uvarint(r.b)
		if n < 0 {
			r.err = fmt.Errorf("%w: bad varint", errFormat)
			return
		}
		r.b = r.b[n:]
	case fixed64Type:
		if len(r.b) < 8 {
			r.err = fmt.Errorf("%w: truncated fixed64", errFormat)
			return
		}
		val, v = r.b[:8], binary.LittleEndian.Uint64(r.b)
		r.b = r.b[8:]
	case fixed32Type:
		if len(r.b) < 4 {
			r.err = fmt.Errorf("%w: truncated fixed32", errFormat)
			return
		}
		val, v = r.b[:4], uint64(binary.LittleEndian.Uint32(r.b))
		r.b = r.b[4:]
	case bytesType:
		l, n := uvarint(r.b)
		if n < 0 || uint64(len(r.b)-n) < l {
			r.err = fmt.Errorf("%w: truncated field", errFormat)
			return
		}
		val = r.b[n : n+int(l)]
		r.b = r.b[n+int(l):]
	default:
		r.err = fmt.Errorf("%w: wire type %d", errFormat, typ)
		return
	}
	return num, typ, val, v, true
}

// varints appends a repeated int64 field, packed or not.
func varints(dst []int64, typ int, val []byte, v uint64) ([]int64, error) {
	if typ == varintType {
		return append(dst, int64(v)), nil
	}
	if typ != bytesType {
		return dst, fmt.Errorf("%w: bad repeated integer", errFormat)
	}
	for len(val) > 0 {
		x, n := uvarint(val)
		if n < 0 {
			return dst, fmt.Errorf("%w: bad packed varint", errFormat)
		}
		dst = append(dst, int64(x))
		val = val[n:]
	}
	return dst, nil
}

// floats appends a repeated float field, packed or not.
func floats(dst []float32, typ int, val []byte, v uint64) ([]float32, error) {
	switch {
	case typ == fixed32Type:
		return append(dst, math.Float32frombits(uint32(v))), nil
	case typ == bytesType && len(val)%4 == 0:
		for ; len(val) > 0; val = val[4:] {
			dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(val)))
		}
		return dst, nil
	}
	return dst, fmt.Errorf("%w: bad repeated float", errFormat)
}

// doubles appends a repeated double field, packed or not.
func doubles(dst []float64, typ int, val []byte, v uint64) ([]float64, error) {
	switch {
	case typ == fixed64Type:
		return append(dst, math.Float64frombits(v)), nil
	case typ == bytesType && len(val)%8 == 0:
		for ; len(val) > 0; val = val[8:] {
			dst = append(dst, math.Float64frombits(binary.LittleEndian.Uint64(val)))
		}
		return dst, nil
	}
	return dst, fmt.Errorf("%w: bad repeated double", errFormat)
}

// decodeGraph returns the graph of a ModelProto.
func decodeGraph(b []byte) (*graph, error) {
	r := reader{b: b}
	var gb []byte
	for {
		num, typ, val, _, ok := r.next()
		if !ok {
			break
		}
		if num == 7 && typ == bytesType { // ModelProto.graph
			gb = val
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if gb == nil {
		return nil, fmt.Errorf("%w: no graph", errFormat)
	}
	g := &graph{}
	r = reader{b: gb}
	for {
		num, typ, val, _, ok := r.next()
		if !ok {
			break
		}
		if typ != bytesType {
			continue
		}
		switch num {
		case 1: // node
			n, err := decodeNode(val)
			if err != nil {
				return nil, err
			}
			g.nodes = append(g.nodes, n)
		case 5: // initializer
			t, err := decodeTensor(val)
			if err != nil {
				return nil, err
			}
			g.initializers = append(g.initializers, t)
		case 11, 12: // input, output: ValueInfoProto, name = 1
			name := ""
			vr := reader{b: val}
			for {
				n, ty, v, _, ok := vr.next()
				if !ok {
					break
				}
				if n == 1 && ty == bytesType {
					name = string(v)
				}
			}
			if vr.err != nil {
				return nil, vr.err
			}
			if num == 11 {
				g.inputs = append(g.inputs, name)
			} else {
				g.outputs = append(g.outputs, name)
			}
		}
	}
	return g, r.err
}

func decodeNode(b []byte) (*node, error) {
	n := &node{attrs: map[string]*attribute{}}
	r := reader{b: b}
	for {
		num, typ, val, _, ok := r.next()
		if !ok {
			break
		}
		if typ != bytesType {
			continue
		}
		switch num {
		case 1:
			n.inputs = append(n.inputs, string(val))
		case 2:
			n.outputs = append(n.outputs, string(val))
		case 3:
			n.name = string(val)
		case 4:
			n.op = string(val)
		case 5:
			name, a, err := decodeAttribute(val)
			if err != nil {
				return nil, fmt.Errorf("node %q: %w", n.name, err)
			}
			n.attrs[name] = a
		case 7:
			n.domain = string(val)
		}
	}
	return n, r.err
}

func decodeAttribute(b []byte) (string, *attribute, error) {
	a := &attribute{}
	name := ""
	r := reader{b: b}
	for {
		num, typ, val, v, ok := r.next()
		if !ok {
			break
		}
		var err error
		switch num {
		case 1:
			name = string(val)
		case 2:
			a.f, a.hasF = math.Float32frombits(uint32(v)), true
		case 3:
			a.i = int64(v)
		case 4:
			a.s = string(val)
		case 5:
			a.t, err = decodeTensor(val)
		case 7:
			a.floats, err = floats(a.floats, typ, val, v)
		case 8:
			a.ints, err = varints(a.ints, typ, val, v)
		}
		if err != nil {
			return name, nil, fmt.Errorf("attribute %q: %w", name, err)
		}
	}
	return name, a, r.err
}

func decodeTensor(b []byte) (*tensor, error) {
	var (
		dims, ints []int64
		fl         []float32
		db         []float64
		raw        []byte
		hasRaw     bool
		dataType   int64
		name       string
		external   bool
	)
	r := reader{b: b}
	for {
		num, typ, val, v, ok := r.next()
		if !ok {
			break
		}
		var err error
		switch num {
		case 1:
			dims, err = varints(dims, typ, val, v)
		case 2:
			dataType = int64(v)
		case 4:
			fl, err = floats(fl, typ, val, v)
		case 5, 7:
			ints, err = varints(ints, typ, val, v)
		case 8:
			name = string(val)
		case 9:
			raw, hasRaw = val, true
		case 10:
			db, err = doubles(db, typ, val, v)
		case 14:
			external = v == 1
		}
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if external {
		return nil, fmt.Errorf("%w: tensor %q: external data", errFormat, name)
	}
	dt, err := dtypeOf(dataType)
	if err != nil {
		return nil, fmt.Errorf("tensor %q: %w", name, err)
	}
	t := &tensor{name: name, dt: dt}
	for _, d := range dims {
		if d < 0 {
			return nil, fmt.Errorf("%w: tensor %q: negative dimension", errFormat, name)
		}
		t.shape = append(t.shape, int(d))
	}
	n := numElems(t.shape)
	switch dt {
	case f32:
		t.f = make([]float32, n)
	case i64:
		t.i = make([]int64, n)
	case bln:
		t.b = make([]bool, n)
	}
	size := elemSize(dataType)
	bad := func(got int) error {
		return fmt.Errorf("%w: tensor %q: %d values for %d elements", errFormat, name, got, n)
	}
	switch {
	case hasRaw:
		if len(raw) != n*size {
			return nil, bad(len(raw) / size)
		}
		for k := 0; k < n; k++ {
			p := raw[k*size:]
			switch dataType {
			case onnxFloat:
				t.f[k] = math.Float32frombits(binary.LittleEndian.Uint32(p))
			case onnxDouble:
				t.f[k] = float32(math.Float64frombits(binary.LittleEndian.Uint64(p)))
			case onnxUint8:
				t.i[k] = int64(p[0])
			case onnxInt8:
				t.i[k] = int64(int8(p[0]))
			case onnxUint16:
				t.i[k] = int64(binary.LittleEndian.Uint16(p))
			case onnxInt16:
				t.i[k] = int64(int16(binary.LittleEndian.Uint16(p)))
			case onnxInt32:
				t.i[k] = int64(int32(binary.LittleEndian.Uint32(p)))
			case onnxUint32:
				t.i[k] = int64(binary.LittleEndian.Uint32(p))
			case onnxInt64, onnxUint64:
				t.i[k] = int64(binary.LittleEndian.Uint64(p))
			case onnxBool:
				t.b[k] = p[0] != 0
			}
		}
	case dataType == onnxDouble:
		if len(db) != n {
			return nil, bad(len(db))
		}
		for k, x := range db {
			t.f[k] = float32(x)
		}
	case dt == f32:
		if len(fl) != n {
			return nil, bad(len(fl))
		}
		copy(t.f, fl)
	default:
		if len(ints) != n {
			return nil, bad(len(ints))
		}
		for k, x := range ints {
			if dt == bln {
				t.b[k] = x != 0
			} else {
				t.i[k] = x
			}
		}
	}
	return t, nil
}

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

func numElems(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// strides returns the row-major strides of a shape.
func strides(shape []int) []int {
	s := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = n
		n *= shape[i]
	}
	return s
}
