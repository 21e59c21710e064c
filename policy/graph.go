package policy

// The graph of an ONNX file as the decoder reads it (onnx.go), before any
// check or constant folding. The interpreter runs on it, and tools that
// translate the same files (cppexport) read it with
// DecodeGraph rather than decoding the file again.

// Graph is the GraphProto of an ONNX model: its nodes in file order, its
// initializers and its inputs and outputs.
type Graph struct {
	Name string
	// Nodes are the nodes in file (topological) order.
	Nodes []Node
	// Initializers are the constant tensors, each with its Name.
	Initializers []*Tensor
	// Inputs and Outputs are the graph's inputs and outputs. Old
	// exporters list the initializers among the inputs too.
	Inputs  []ValueInfo
	Outputs []ValueInfo
}

// Node is a NodeProto: an operator applied to named values. An empty
// input name is an omitted optional input. Domain "" is the default
// ai.onnx domain (the decoder maps "ai.onnx" to "").
type Node struct {
	Name    string
	OpType  string
	Domain  string
	Inputs  []string
	Outputs []string
	// Attrs maps the attribute names to their values (the last one of a
	// name that appears twice).
	Attrs map[string]*Attribute
}

// Attribute is an AttributeProto. Its value is in the field that matches
// its Type. String lists are only counted, and graph-valued attributes
// (control flow) are only recorded, so that they can be refused.
type Attribute struct {
	Name string
	// Type is the AttributeProto.AttributeType (1 FLOAT, 2 INT, 3 STRING,
	// 4 TENSOR, 6 FLOATS, 7 INTS, ...), 0 if the file does not say.
	Type   int64
	F      float32   // FLOAT
	I      int64     // INT
	S      string    // STRING
	T      *Tensor   // TENSOR, converted as the initializers are
	Floats []float32 // FLOATS
	Ints   []int64   // INTS
	// NumStrings is the number of STRINGS values (not kept).
	NumStrings int
	// HasGraph reports a GRAPH value.
	HasGraph bool
}

// ValueInfo is a graph input or output: its name, its ONNX element type
// (TensorProto.DataType: 1 float, 2 uint8, 7 int64, 9 bool, ...) and its
// shape, -1 for a symbolic or unknown dimension.
type ValueInfo struct {
	Name     string
	ElemType int64
	Shape    []int
}

// DecodeGraph decodes the graph of an ONNX model (the bytes of a
// ModelProto file). It only decodes: unlike Parse, it does not check the
// operators, the opset, the metadata or the signature, and it does not
// fold constants or run the graph. Tensors are converted as the
// interpreter holds them: floats and doubles to Float32, every integer
// type to Int64, bool to Bool. Errors about the encoding wrap ErrFormat.
func DecodeGraph(model []byte) (*Graph, error) {
	m, err := decodeModel(model)
	if err != nil {
		return nil, err
	}
	return m.graph, nil
}

// AttrInt returns the INT attribute name, or def if the node has none.
func (n *Node) AttrInt(name string, def int64) int64 {
	if a, ok := n.Attrs[name]; ok {
		return a.I
	}
	return def
}

// AttrInts returns the INTS attribute name, or nil if the node has none.
func (n *Node) AttrInts(name string) []int64 {
	if a, ok := n.Attrs[name]; ok {
		return a.Ints
	}
	return nil
}

// AttrFloat returns the FLOAT attribute name, or def if the node has none.
func (n *Node) AttrFloat(name string, def float32) float32 {
	if a, ok := n.Attrs[name]; ok {
		return a.F
	}
	return def
}
