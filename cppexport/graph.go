package cppexport

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"jgym/policy"
)

// ErrUnsupported is wrapped by the errors about models the exporter cannot
// translate (an operator or an attribute value it has no C++ for), even
// though the Go interpreter may run them.
var ErrUnsupported = errors.New("not exportable to C++")

// value is a tensor of the exported program: an input, a constant or the
// output of a node, with its static shape (batch 1).
type value struct {
	name  string
	id    string // C++ member holding it (aliases share their source's)
	dt    policy.DType
	shape []int
	konst *policy.Tensor // constant: its data
	input bool
	used  bool // a constant read by the C++ code
	alias bool // shares the storage of the value it reshapes
}

// scratch is a work buffer of a node (a member array).
type scratch struct {
	id, ctype string
	n         int
}

func (v *value) len() int { return numElems(v.shape) }

// program is a model ready to be written as C++: the nodes that run at
// play time, in the file's (topological) order, and every value they read
// or write.
type program struct {
	model    *policy.Model
	numSlots int
	nodes    []*policy.Node
	vals     map[string]*value
	order    []*value // values in creation order (stable output)
	logits   *value
	scratch  []scratch
	init     []string // statements the constructor runs after loading the weights
	v4       bool     // the code uses jgym_v4 (v4CC)
}

// build reads the graph of a model that policy.Parse accepted (with
// policy.DecodeGraph) and prepares the program: constants folded as the
// interpreter folds them, shapes and types taken from the interpreter's
// own trial run, nodes that do not lead to the logits dropped.
func build(raw []byte, m *policy.Model, tg *Target) (*program, error) {
	g, err := policy.DecodeGraph(raw)
	if err != nil {
		return nil, err
	}
	u := m.NumSlots
	p := &program{model: m, numSlots: u, vals: map[string]*value{}}

	// The interpreter's values on a zero observation give the shape and
	// type of every value computed at play time.
	zero := map[string]*policy.Tensor{}
	for _, in := range tg.Signature.Inputs {
		t, err := inputTensor(in, u)
		if err != nil {
			return nil, err
		}
		zero[in.Name] = t
	}
	ran, err := m.Run(zero)
	if err != nil {
		return nil, fmt.Errorf("trial run: %w", err)
	}
	for _, in := range tg.Signature.Inputs {
		t := zero[in.Name]
		p.add(&value{name: in.Name, id: tg.member(in.Name), dt: t.DType, shape: t.Shape, input: true})
	}
	for _, t := range g.Initializers {
		if p.vals[t.Name] != nil {
			continue // an initializer listed as an input by an old exporter
		}
		p.add(&value{name: t.Name, dt: t.DType, shape: t.Shape, konst: t})
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.Domain != "" {
			return nil, fmt.Errorf("%w: node %q: operator %s.%s", ErrUnsupported, n.Name, n.Domain, n.OpType)
		}
		if len(n.Outputs) != 1 {
			return nil, fmt.Errorf("%w: node %q (%s) has %d outputs", ErrUnsupported, n.Name, n.OpType, len(n.Outputs))
		}
		if n.OpType == "Constant" {
			t, err := constantValue(n)
			if err != nil {
				return nil, err
			}
			t.Name = n.Outputs[0]
			p.add(&value{name: t.Name, dt: t.DType, shape: t.Shape, konst: t})
			continue
		}
		allConst := true
		for _, in := range n.Inputs {
			if in == "" {
				continue
			}
			v := p.vals[in]
			if v == nil {
				return nil, fmt.Errorf("node %q (%s): input %q is not computed before it", n.Name, n.OpType, in)
			}
			allConst = allConst && v.konst != nil
		}
		if allConst {
			// The interpreter folds the node once at load time; the
			// exporter folds the data-movement operators the same way
			// (they only copy elements) and refuses the others.
			t, err := fold(n, p.vals)
			if err != nil {
				return nil, err
			}
			t.Name = n.Outputs[0]
			p.add(&value{name: t.Name, dt: t.DType, shape: t.Shape, konst: t})
			continue
		}
		if _, ok := emitters[n.OpType]; !ok {
			return nil, fmt.Errorf("%w: operator %s (node %q); the exporter translates %s",
				ErrUnsupported, n.OpType, n.Name, strings.Join(Operators(), ", "))
		}
		out, ok := ran[n.Outputs[0]]
		if !ok {
			return nil, fmt.Errorf("node %q (%s): the interpreter did not compute %q", n.Name, n.OpType, n.Outputs[0])
		}
		p.add(&value{name: n.Outputs[0], dt: out.DType, shape: append([]int(nil), out.Shape...)})
		p.nodes = append(p.nodes, n)
	}
	p.logits = p.vals[policy.OutputLogits]
	if a := tg.Signature.Actions; p.logits == nil || p.logits.konst != nil || p.logits.dt != policy.Float32 || numElems(p.logits.shape) != u*a {
		return nil, fmt.Errorf("%w: no float logits [1 %d %d] computed from the observation", ErrUnsupported, u, a)
	}
	p.prune()
	return p, nil
}

func (p *program) add(v *value) {
	if v.id == "" {
		v.id = fmt.Sprintf("t%d_", len(p.order))
	}
	p.vals[v.name] = v
	p.order = append(p.order, v)
}

// prune drops the nodes the logits do not depend on, and marks the
// constants the remaining nodes read.
func (p *program) prune() {
	need := map[string]bool{p.logits.name: true}
	var kept []*policy.Node
	for i := len(p.nodes) - 1; i >= 0; i-- {
		n := p.nodes[i]
		if !need[n.Outputs[0]] {
			continue
		}
		kept = append(kept, n)
		for _, in := range n.Inputs {
			if in != "" {
				need[in] = true
			}
		}
	}
	for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
		kept[i], kept[j] = kept[j], kept[i]
	}
	p.nodes = kept
	for _, n := range kept {
		for k, in := range n.Inputs {
			if v := p.vals[in]; v != nil && v.konst != nil && !structural(n.OpType, k) {
				v.used = true
			}
		}
	}
}

// structural reports whether input k of op is read by the exporter at
// generation time (shapes, axes, bounds), not by the C++ code.
func structural(op string, k int) bool {
	switch op {
	case "Reshape", "Unsqueeze", "ReduceMean":
		return k >= 1
	case "Slice":
		return k >= 1
	}
	return false
}

// Operators returns the ONNX operators the exporter translates, sorted.
func Operators() []string {
	names := []string{"Constant"}
	for n := range emitters {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// constantValue returns the value of a Constant node.
func constantValue(n *policy.Node) (*policy.Tensor, error) {
	if a, ok := n.Attrs["value"]; ok && a.T != nil {
		t := *a.T
		return &t, nil
	}
	if a, ok := n.Attrs["value_float"]; ok {
		return &policy.Tensor{DType: policy.Float32, F: []float32{a.F}}, nil
	}
	if a, ok := n.Attrs["value_int"]; ok {
		return &policy.Tensor{DType: policy.Int64, I: []int64{a.I}}, nil
	}
	if a, ok := n.Attrs["value_floats"]; ok {
		return &policy.Tensor{DType: policy.Float32, Shape: []int{len(a.Floats)}, F: a.Floats}, nil
	}
	if a, ok := n.Attrs["value_ints"]; ok {
		return &policy.Tensor{DType: policy.Int64, Shape: []int{len(a.Ints)}, I: a.Ints}, nil
	}
	return nil, fmt.Errorf("%w: Constant node %q without a value", ErrUnsupported, n.Name)
}

// constInts returns the integers of a constant input (shapes, axes, Slice
// bounds), which the exporter needs at generation time.
func constInts(n *policy.Node, k int, vals map[string]*value) ([]int64, bool, error) {
	if k >= len(n.Inputs) || n.Inputs[k] == "" {
		return nil, false, nil
	}
	v := vals[n.Inputs[k]]
	if v == nil || v.konst == nil || v.dt != policy.Int64 {
		return nil, false, fmt.Errorf("%w: node %q (%s): input %d must be a constant integer tensor", ErrUnsupported, n.Name, n.OpType, k)
	}
	return v.konst.I, true, nil
}

// fold evaluates a node whose inputs are all constants. Only operators
// that move elements without arithmetic are folded (their result does not
// depend on how they are computed); torch.onnx.export folds everything
// else itself.
func fold(n *policy.Node, vals map[string]*value) (*policy.Tensor, error) {
	in := make([]*policy.Tensor, len(n.Inputs))
	for k, name := range n.Inputs {
		if name != "" {
			in[k] = vals[name].konst
		}
	}
	if len(in) == 0 || in[0] == nil {
		return nil, fmt.Errorf("%w: node %q (%s) has no data input", ErrUnsupported, n.Name, n.OpType)
	}
	x := in[0]
	switch n.OpType {
	case "Identity":
		t := *x
		return &t, nil
	case "Reshape", "Unsqueeze":
		v := &value{dt: x.DType, shape: x.Shape}
		shape, err := aliasShape(n, v, vals)
		if err != nil {
			return nil, err
		}
		t := *x
		t.Shape = shape
		return &t, nil
	case "Cast":
		to, err := policy.DTypeOf(n.AttrInt("to", 0))
		if err != nil {
			return nil, fmt.Errorf("node %q: %w", n.Name, err)
		}
		if to == x.DType {
			t := *x
			return &t, nil
		}
		if x.DType == policy.Int64 && to == policy.Float32 {
			t := &policy.Tensor{DType: policy.Float32, Shape: x.Shape, F: make([]float32, x.Len())}
			for k, v := range x.I {
				t.F[k] = float32(v)
			}
			return t, nil
		}
	}
	return nil, fmt.Errorf("%w: node %q (%s) has only constant inputs; export the model with constant folding (torch.onnx.export does it by default)",
		ErrUnsupported, n.Name, n.OpType)
}

// aliasShape returns the output shape of a Reshape or Unsqueeze of v.
func aliasShape(n *policy.Node, v *value, vals map[string]*value) ([]int, error) {
	switch n.OpType {
	case "Reshape":
		want, ok, err := constInts(n, 1, vals)
		if err != nil || !ok {
			return nil, fmt.Errorf("%w: node %q (Reshape): constant shape needed", ErrUnsupported, n.Name)
		}
		shape := make([]int, len(want))
		infer, known := -1, 1
		for i, d := range want {
			switch {
			case d == -1:
				infer = i
				continue
			case d == 0 && n.AttrInt("allowzero", 0) == 0:
				shape[i] = v.shape[i]
			default:
				shape[i] = int(d)
			}
			known *= shape[i]
		}
		if infer >= 0 && known > 0 {
			shape[infer] = v.len() / known
		}
		return shape, nil
	case "Unsqueeze":
		axes := n.AttrInts("axes")
		if a, ok, err := constInts(n, 1, vals); err != nil {
			return nil, err
		} else if ok {
			axes = a
		}
		rank := len(v.shape) + len(axes)
		ins := make([]bool, rank)
		for _, a := range axes {
			if a < 0 {
				a += int64(rank)
			}
			ins[a] = true
		}
		var shape []int
		j := 0
		for i := 0; i < rank; i++ {
			if ins[i] {
				shape = append(shape, 1)
			} else {
				shape = append(shape, v.shape[j])
				j++
			}
		}
		return shape, nil
	}
	return nil, fmt.Errorf("%w: %s is not an alias", ErrUnsupported, n.OpType)
}
