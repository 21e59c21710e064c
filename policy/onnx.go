package policy

import (
	"errors"
	"fmt"
	"math"
)

// This file decodes the few parts of an ONNX ModelProto that the
// interpreter needs, straight from the wire format (wire.go), into the
// types of graph.go (tensors: onnxtensor.go). The field numbers are those
// of onnx/onnx.proto (IR version 3 and later), written here from the
// spec; fields not listed are skipped.

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

// modelProto is the decoded part of an ONNX ModelProto.
type modelProto struct {
	irVersion int64
	producer  string
	opsets    map[string]int64 // domain ("" = ai.onnx) -> version
	metadata  map[string]string
	graph     *Graph // nil if the file has none
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
			g, err := decodeGraphProto(val)
			if err != nil {
				return nil, fmt.Errorf("graph: %w", err)
			}
			m.graph = g
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if m.graph == nil {
		return nil, fmt.Errorf("%w: no graph", ErrFormat)
	}
	return m, nil
}

func decodeGraphProto(b []byte) (*Graph, error) {
	g := &Graph{}
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
			g.Name = string(val)
		case graphNode:
			n, err := decodeNode(val)
			if err != nil {
				return nil, fmt.Errorf("node %d: %w", len(g.Nodes), err)
			}
			g.Nodes = append(g.Nodes, *n)
		case graphInitializer:
			t, err := decodeTensor(val)
			if err != nil {
				return nil, fmt.Errorf("initializer %d: %w", len(g.Initializers), err)
			}
			g.Initializers = append(g.Initializers, t)
		case graphInput, graphOutput:
			vi, err := decodeValueInfo(val)
			if err != nil {
				return nil, fmt.Errorf("input/output: %w", err)
			}
			if num == graphInput {
				g.Inputs = append(g.Inputs, *vi)
			} else {
				g.Outputs = append(g.Outputs, *vi)
			}
		}
	}
	return g, r.err
}

func decodeNode(b []byte) (*Node, error) {
	n := &Node{Attrs: map[string]*Attribute{}}
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
			n.Inputs = append(n.Inputs, string(val))
		case nodeOutput:
			n.Outputs = append(n.Outputs, string(val))
		case nodeName:
			n.Name = string(val)
		case nodeOpType:
			n.OpType = string(val)
		case nodeDomain:
			n.Domain = string(val)
		case nodeAttribute:
			a, err := decodeAttribute(val)
			if err != nil {
				return nil, err
			}
			n.Attrs[a.Name] = a
		}
	}
	if n.Domain == "ai.onnx" {
		n.Domain = ""
	}
	return n, r.err
}

func decodeAttribute(b []byte) (*Attribute, error) {
	a := &Attribute{}
	r := fieldReader{b: b}
	for {
		num, typ, val, v, ok := r.next()
		if !ok {
			break
		}
		var err error
		switch num {
		case attrName:
			a.Name = string(val)
		case attrType:
			a.Type = int64(v)
		case attrF:
			a.F = math.Float32frombits(uint32(v))
		case attrI:
			a.I = int64(v)
		case attrS:
			a.S = string(val)
		case attrT:
			if a.T, err = decodeTensor(val); err != nil {
				return nil, fmt.Errorf("attribute %q: %w", a.Name, err)
			}
		case attrG:
			a.HasGraph = true
		case attrFloats:
			a.Floats, err = appendFloats(a.Floats, typ, val, v)
		case attrInts:
			a.Ints, err = appendVarints(a.Ints, typ, val, v)
		case attrStrings:
			a.NumStrings++
		}
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", a.Name, err)
		}
	}
	return a, r.err
}

func decodeValueInfo(b []byte) (*ValueInfo, error) {
	vi := &ValueInfo{}
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
			vi.Name = string(val)
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

func decodeTensorType(b []byte, vi *ValueInfo) error {
	r := fieldReader{b: b}
	for {
		num, typ, val, v, ok := r.next()
		if !ok {
			break
		}
		switch {
		case num == ttElemType:
			vi.ElemType = int64(v)
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
				vi.Shape = append(vi.Shape, size)
			}
			if sr.err != nil {
				return sr.err
			}
		}
	}
	return r.err
}
