package policy

import (
	"fmt"
	"sort"
)

// opFunc computes the single output of a node from its inputs (nil for an
// omitted optional input). opset is the model's ai.onnx opset version.
type opFunc func(n *Node, opset int64, in []*Tensor) (*Tensor, error)

// ops are the supported operators, ai.onnx domain. docs/export.md lists
// them with the attributes each accepts.
var ops = map[string]opFunc{
	"Add":            opAdd,
	"Cast":           opCast,
	"Concat":         opConcat,
	"Constant":       opConstant,
	"Conv":           opConv,
	"Gather":         opGather,
	"GatherElements": opGatherElements,
	"Gemm":           opGemm,
	"Identity":       opIdentity,
	"MatMul":         opMatMul,
	"Mul":            opMul,
	"ReduceMean":     opReduceMean,
	"Relu":           opRelu,
	"Reshape":        opReshape,
	"Slice":          opSlice,
	"Transpose":      opTranspose,
	"Unsqueeze":      opUnsqueeze,
	"Where":          opWhere,
}

// Operators returns the names of the supported operators, sorted.
func Operators() []string {
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// needInputs checks the number of inputs given (non-nil) up to want.
func needInputs(in []*Tensor, want int) error {
	if len(in) < want {
		return fmt.Errorf("want %d inputs, got %d", want, len(in))
	}
	for i := 0; i < want; i++ {
		if in[i] == nil {
			return fmt.Errorf("input %d is missing", i)
		}
	}
	return nil
}

func opIdentity(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	return in[0], nil
}

func opConstant(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	if a, ok := n.Attrs["value"]; ok && a.T != nil {
		return a.T, nil
	}
	if a, ok := n.Attrs["value_float"]; ok {
		return NewFloat32(nil, []float32{a.F}), nil
	}
	if a, ok := n.Attrs["value_int"]; ok {
		return NewInt64(nil, []int64{a.I}), nil
	}
	if a, ok := n.Attrs["value_floats"]; ok {
		return NewFloat32([]int{len(a.Floats)}, a.Floats), nil
	}
	if a, ok := n.Attrs["value_ints"]; ok {
		return NewInt64([]int{len(a.Ints)}, a.Ints), nil
	}
	return nil, fmt.Errorf("%w: Constant without a value, value_float(s) or value_int(s) attribute", ErrUnsupported)
}
