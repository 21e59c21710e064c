package policy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// This file decodes the few parts of an ONNX ModelProto that the
// interpreter needs, straight from the wire format (wire.go). The field
// numbers are those of onnx/onnx.proto (IR version 3 and later), written
// here from the spec; fields not listed are skipped.

// ErrFormat is wrapped by every error about a file that is not a valid
// ONNX model.
var ErrFormat = errors.New("not a valid ONNX model")

// Field numbers of onnx.proto.
const (
	// ModelProto
	modelIRVersion     = 1
	modelProducerName  = 2
	modelGraph         = 7
	modelOpsetImport   = 8
	modelMetadataProps = 14
	// OperatorSetIdProto
	opsetDomain  = 1
	opsetVersion = 2
	// StringStringEntryProto
	entryKey   = 1
	entryValue = 2
	// GraphProto
	graphNode        = 1
	graphName        = 2
	graphInitializer = 5
	graphInput       = 11
	graphOutput      = 12
	// NodeProto
	nodeInput     = 1
	nodeOutput    = 2
	nodeName      = 3
	nodeOpType    = 4
	nodeAttribute = 5
	nodeDomain    = 7
	// AttributeProto
	attrName    = 1
	attrF       = 2
	attrI       = 3
	attrS       = 4
	attrT       = 5
	attrG       = 6
	attrFloats  = 7
	attrInts    = 8
	attrStrings = 9
	attrType    = 20
	// TensorProto
	tensorDims         = 1
	tensorDataType     = 2
	tensorFloatData    = 4
	tensorInt32Data    = 5
	tensorInt64Data    = 7
	tensorName         = 8
	tensorRawData      = 9
	tensorDoubleData   = 10
	tensorDataLocation = 14
	// ValueInfoProto
	valueName = 1
	valueType = 2
	// TypeProto
	typeTensor = 1
	// TypeProto.Tensor
	ttElemType = 1
	ttShape    = 2
	// TensorShapeProto
	shapeDim = 1
	// TensorShapeProto.Dimension
	dimValue = 1
	dimParam = 2
)

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

// modelProto is the decoded part of an ONNX ModelProto.
type modelProto struct {
	irVersion int64
	producer  string
	opsets    map[string]int64 // domain ("" = ai.onnx) -> version
	metadata  map[string]string
	graph     graphProto
}

type graphProto struct {
	name         string
	nodes        []nodeProto
	initializers []*Tensor
	inputs       []valueInfo
	outputs      []valueInfo
	hasGraph     bool
}

type nodeProto struct {
	name    string
	opType  string
	domain  string
	inputs  []string
	outputs []string
	attrs   map[string]*attribute
}

// attribute is an AttributeProto; graph-valued attributes (control flow)
// are only recorded so that they can be refused.
type attribute struct {
	name    string
	typ     int64
	f       float32
	i       int64
	s       string
	t       *Tensor
	floats  []float32
	ints    []int64
	strings int
	graph   bool
}

// valueInfo is a graph input or output: its name, element type and shape
// (-1 for a symbolic or unknown dimension).
type valueInfo struct {
	name     string
	elemType int64
	shape    []int
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

// decodeModel decodes a ModelProto.
func decodeModel(b []byte) (*modelProto, error) {
	m := &modelProto{opsets: map[string]int64{}, metadata: map[string]string{}}
	r := fieldReader{b: b}
	for {
		num, typ, val, v, ok := r.next()
		if !ok {
			break
		}
		switch num {
		case modelIRVersion:
			m.irVersion = int64(v)
		case modelProducerName:
			if r.wantBytes(typ, "producer_name") {
				m.producer = string(val)
			}
		case modelOpsetImport:
			if !r.wantBytes(typ, "opset_import") {
				break
			}
			var domain string
			var version int64
			or := fieldReader{b: val}
			for {
				n, t, x, y, ok := or.next()
				if !ok {
					break
				}
				switch {
				case n == opsetDomain && t == bytesType:
					domain = string(x)
				case n == opsetVersion:
					version = int64(y)
				}
			}
			if or.err != nil {
				return nil, fmt.Errorf("opset_import: %w", or.err)
			}
			if domain == "ai.onnx" {
				domain = ""
			}
			m.opsets[domain] = version
		case modelMetadataProps:
			if !r.wantBytes(typ, "metadata_props") {
				break
			}
			var key, value string
			er := fieldReader{b: val}
			for {
				n, t, x, _, ok := er.next()
				if !ok {
					break
				}
				switch {
				case n == entryKey && t == bytesType:
					key = string(x)
				case n == entryValue && t == bytesType:
					value = string(x)
				}
			}
			if er.err != nil {
				return nil, fmt.Errorf("metadata_props: %w", er.err)
			}
			m.metadata[key] = value
		case modelGraph:
			if !r.wantBytes(typ, "graph") {
				break
			}
			g, err := decodeGraph(val)
			if err != nil {
				return nil, fmt.Errorf("graph: %w", err)
			}
			m.graph = *g
			m.graph.hasGraph = true
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if !m.graph.hasGraph {
		return nil, fmt.Errorf("%w: no graph", ErrFormat)
	}
	return m, nil
}

func decodeGraph(b []byte) (*graphProto, error) {
	g := &graphProto{}
	r := fieldReader{b: b}
	for {
		num, typ, val, _, ok := r.next()
		if !ok {
			break
		}
		if typ != bytesType {
			continue
		}
		switch num {
		case graphName:
			g.name = string(val)
		case graphNode:
			n, err := decodeNode(val)
			if err != nil {
				return nil, fmt.Errorf("node %d: %w", len(g.nodes), err)
			}
			g.nodes = append(g.nodes, *n)
		case graphInitializer:
			t, err := decodeTensor(val)
			if err != nil {
				return nil, fmt.Errorf("initializer %d: %w", len(g.initializers), err)
			}
			g.initializers = append(g.initializers, t)
		case graphInput, graphOutput:
			vi, err := decodeValueInfo(val)
			if err != nil {
				return nil, fmt.Errorf("input/output: %w", err)
			}
			if num == graphInput {
				g.inputs = append(g.inputs, *vi)
			} else {
				g.outputs = append(g.outputs, *vi)
			}
		}
	}
	return g, r.err
}

func decodeNode(b []byte) (*nodeProto, error) {
	n := &nodeProto{attrs: map[string]*attribute{}}
	r := fieldReader{b: b}
	for {
		num, typ, val, _, ok := r.next()
		if !ok {
			break
		}
		if typ != bytesType {
			continue
		}
		switch num {
		case nodeInput:
			n.inputs = append(n.inputs, string(val))
		case nodeOutput:
			n.outputs = append(n.outputs, string(val))
		case nodeName:
			n.name = string(val)
		case nodeOpType:
			n.opType = string(val)
		case nodeDomain:
			n.domain = string(val)
		case nodeAttribute:
			a, err := decodeAttribute(val)
			if err != nil {
				return nil, err
			}
			n.attrs[a.name] = a
		}
	}
	if n.domain == "ai.onnx" {
		n.domain = ""
	}
	return n, r.err
}

func decodeAttribute(b []byte) (*attribute, error) {
	a := &attribute{}
	r := fieldReader{b: b}
	for {
		num, typ, val, v, ok := r.next()
		if !ok {
			break
		}
		var err error
		switch num {
		case attrName:
			a.name = string(val)
		case attrType:
			a.typ = int64(v)
		case attrF:
			a.f = math.Float32frombits(uint32(v))
		case attrI:
			a.i = int64(v)
		case attrS:
			a.s = string(val)
		case attrT:
			if a.t, err = decodeTensor(val); err != nil {
				return nil, fmt.Errorf("attribute %q: %w", a.name, err)
			}
		case attrG:
			a.graph = true
		case attrFloats:
			a.floats, err = appendFloats(a.floats, typ, val, v)
		case attrInts:
			a.ints, err = appendVarints(a.ints, typ, val, v)
		case attrStrings:
			a.strings++
		}
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", a.name, err)
		}
	}
	return a, r.err
}

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
	dt, err := dtypeOf(dataType)
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

func decodeValueInfo(b []byte) (*valueInfo, error) {
	vi := &valueInfo{}
	r := fieldReader{b: b}
	for {
		num, typ, val, _, ok := r.next()
		if !ok {
			break
		}
		if typ != bytesType {
			continue
		}
		switch num {
		case valueName:
			vi.name = string(val)
		case valueType:
			tr := fieldReader{b: val}
			for {
				n, t, x, _, ok := tr.next()
				if !ok {
					break
				}
				if n == typeTensor && t == bytesType {
					if err := decodeTensorType(x, vi); err != nil {
						return nil, err
					}
				}
			}
			if tr.err != nil {
				return nil, tr.err
			}
		}
	}
	return vi, r.err
}

func decodeTensorType(b []byte, vi *valueInfo) error {
	r := fieldReader{b: b}
	for {
		num, typ, val, v, ok := r.next()
		if !ok {
			break
		}
		switch {
		case num == ttElemType:
			vi.elemType = int64(v)
		case num == ttShape && typ == bytesType:
			sr := fieldReader{b: val}
			for {
				n, t, d, _, ok := sr.next()
				if !ok {
					break
				}
				if n != shapeDim || t != bytesType {
					continue
				}
				size := -1
				dr := fieldReader{b: d}
				for {
					k, _, _, x, ok := dr.next()
					if !ok {
						break
					}
					if k == dimValue {
						size = int(x)
					}
				}
				if dr.err != nil {
					return dr.err
				}
				vi.shape = append(vi.shape, size)
			}
			if sr.err != nil {
				return sr.err
			}
		}
	}
	return r.err
}
