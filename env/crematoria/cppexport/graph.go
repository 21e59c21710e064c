package cppexport

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"jgym/env/crematoria"
	"jgym/env/crematoria/policy"
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
	dt    dtype
	shape []int
	konst *tensor // constant: its data
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
	nodes    []*node
	vals     map[string]*value
	order    []*value // values in creation order (stable output)
	logits   *value
	scratch  []scratch
}

// Input names and C++ members of the observation tensors.
var inputMembers = map[string]string{
	policy.InputBoard:   "in_board_",
	policy.InputUnits:   "in_units_",
	policy.InputGlobals: "in_globals_",
	policy.InputMask:    "in_mask_",
}

// build reads the graph of a model that policy.Parse accepted and prepares
// the program: constants folded as the interpreter folds them, shapes and
// types taken from the interpreter's own trial run, nodes that do not
// lead to the logits dropped.
func build(raw []byte, m *policy.Model) (*program, error) {
	g, err := decodeGraph(raw)
	if err != nil {
		return nil, err
	}
	u := m.NumSlots
	p := &program{model: m, numSlots: u, vals: map[string]*value{}}

	// The interpreter's values on a zero observation give the shape and
	// type of every value computed at play time.
	zero := map[string]*policy.Tensor{
		policy.InputBoard:   policy.NewInt64([]int{1, crematoria.BoardPlanes, crematoria.Rows, crematoria.Cols}, make([]int64, crematoria.BoardBytes)),
		policy.InputUnits:   policy.NewInt64([]int{1, u, crematoria.UnitFeatures}, make([]int64, u*crematoria.UnitFeatures)),
		policy.InputGlobals: policy.NewFloat32([]int{1, crematoria.NumGlobals}, make([]float32, crematoria.NumGlobals)),
		policy.InputMask:    policy.NewBool([]int{1, u, crematoria.NumDirs}, make([]bool, u*crematoria.NumDirs)),
	}
	ran, err := m.Run(zero)
	if err != nil {
		return nil, fmt.Errorf("trial run: %w", err)
	}
	for _, name := range []string{policy.InputBoard, policy.InputUnits, policy.InputGlobals, policy.InputMask} {
		t := zero[name]
		p.add(&value{name: name, id: inputMembers[name], dt: goDtype(t.DType), shape: t.Shape, input: true})
	}
	for _, t := range g.initializers {
		if p.vals[t.name] != nil {
			continue // an initializer listed as an input by an old exporter
		}
		p.add(&value{name: t.name, dt: t.dt, shape: t.shape, konst: t})
	}
	for _, n := range g.nodes {
		if n.domain != "" {
			return nil, fmt.Errorf("%w: node %q: operator %s.%s", ErrUnsupported, n.name, n.domain, n.op)
		}
		if len(n.outputs) != 1 {
			return nil, fmt.Errorf("%w: node %q (%s) has %d outputs", ErrUnsupported, n.name, n.op, len(n.outputs))
		}
		if n.op == "Constant" {
			t, err := constantValue(n)
			if err != nil {
				return nil, err
			}
			t.name = n.outputs[0]
			p.add(&value{name: t.name, dt: t.dt, shape: t.shape, konst: t})
			continue
		}
		allConst := true
		for _, in := range n.inputs {
			if in == "" {
				continue
			}
			v := p.vals[in]
			if v == nil {
				return nil, fmt.Errorf("node %q (%s): input %q is not computed before it", n.name, n.op, in)
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
			t.name = n.outputs[0]
			p.add(&value{name: t.name, dt: t.dt, shape: t.shape, konst: t})
			continue
		}
		if _, ok := emitters[n.op]; !ok {
			return nil, fmt.Errorf("%w: operator %s (node %q); the exporter translates %s",
				ErrUnsupported, n.op, n.name, strings.Join(Operators(), ", "))
		}
		out, ok := ran[n.outputs[0]]
		if !ok {
			return nil, fmt.Errorf("node %q (%s): the interpreter did not compute %q", n.name, n.op, n.outputs[0])
		}
		p.add(&value{name: n.outputs[0], dt: goDtype(out.DType), shape: append([]int(nil), out.Shape...)})
		p.nodes = append(p.nodes, n)
	}
	p.logits = p.vals[policy.OutputLogits]
	if p.logits == nil || p.logits.konst != nil || p.logits.dt != f32 || numElems(p.logits.shape) != u*crematoria.NumDirs {
		return nil, fmt.Errorf("%w: no float logits [1 %d %d] computed from the observation", ErrUnsupported, u, crematoria.NumDirs)
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
	var kept []*node
	for i := len(p.nodes) - 1; i >= 0; i-- {
		n := p.nodes[i]
		if !need[n.outputs[0]] {
			continue
		}
		kept = append(kept, n)
		for _, in := range n.inputs {
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
		for k, in := range n.inputs {
			if v := p.vals[in]; v != nil && v.konst != nil && !structural(n.op, k) {
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

func goDtype(d policy.DType) dtype {
	switch d {
	case policy.Float32:
		return f32
	case policy.Int64:
		return i64
	}
	return bln
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
func constantValue(n *node) (*tensor, error) {
	if a, ok := n.attrs["value"]; ok && a.t != nil {
		t := *a.t
		return &t, nil
	}
	if a, ok := n.attrs["value_float"]; ok {
		return &tensor{dt: f32, f: []float32{a.f}}, nil
	}
	if a, ok := n.attrs["value_int"]; ok {
		return &tensor{dt: i64, i: []int64{a.i}}, nil
	}
	if a, ok := n.attrs["value_floats"]; ok {
		return &tensor{dt: f32, shape: []int{len(a.floats)}, f: a.floats}, nil
	}
	if a, ok := n.attrs["value_ints"]; ok {
		return &tensor{dt: i64, shape: []int{len(a.ints)}, i: a.ints}, nil
	}
	return nil, fmt.Errorf("%w: Constant node %q without a value", ErrUnsupported, n.name)
}

// constInts returns the integers of a constant input (shapes, axes, Slice
// bounds), which the exporter needs at generation time.
func constInts(n *node, k int, vals map[string]*value) ([]int64, bool, error) {
	if k >= len(n.inputs) || n.inputs[k] == "" {
		return nil, false, nil
	}
	v := vals[n.inputs[k]]
	if v == nil || v.konst == nil || v.dt != i64 {
		return nil, false, fmt.Errorf("%w: node %q (%s): input %d must be a constant integer tensor", ErrUnsupported, n.name, n.op, k)
	}
	return v.konst.i, true, nil
}

// fold evaluates a node whose inputs are all constants. Only operators
// that move elements without arithmetic are folded (their result does not
// depend on how they are computed); torch.onnx.export folds everything
// else itself.
func fold(n *node, vals map[string]*value) (*tensor, error) {
	in := make([]*tensor, len(n.inputs))
	for k, name := range n.inputs {
		if name != "" {
			in[k] = vals[name].konst
		}
	}
	if len(in) == 0 || in[0] == nil {
		return nil, fmt.Errorf("%w: node %q (%s) has no data input", ErrUnsupported, n.name, n.op)
	}
	x := in[0]
	switch n.op {
	case "Identity":
		t := *x
		return &t, nil
	case "Reshape", "Unsqueeze":
		v := &value{dt: x.dt, shape: x.shape}
		shape, err := aliasShape(n, v, vals)
		if err != nil {
			return nil, err
		}
		t := *x
		t.shape = shape
		return &t, nil
	case "Cast":
		to, err := dtypeOf(n.attrInt("to", 0))
		if err != nil {
			return nil, fmt.Errorf("node %q: %w", n.name, err)
		}
		if to == x.dt {
			t := *x
			return &t, nil
		}
		if x.dt == i64 && to == f32 {
			t := &tensor{dt: f32, shape: x.shape, f: make([]float32, x.len())}
			for k, v := range x.i {
				t.f[k] = float32(v)
			}
			return t, nil
		}
	}
	return nil, fmt.Errorf("%w: node %q (%s) has only constant inputs; export the model with constant folding (torch.onnx.export does it by default)",
		ErrUnsupported, n.name, n.op)
}

// aliasShape returns the output shape of a Reshape or Unsqueeze of v.
func aliasShape(n *node, v *value, vals map[string]*value) ([]int, error) {
	switch n.op {
	case "Reshape":
		want, ok, err := constInts(n, 1, vals)
		if err != nil || !ok {
			return nil, fmt.Errorf("%w: node %q (Reshape): constant shape needed", ErrUnsupported, n.name)
		}
		shape := make([]int, len(want))
		infer, known := -1, 1
		for i, d := range want {
			switch {
			case d == -1:
				infer = i
				continue
			case d == 0 && n.attrInt("allowzero", 0) == 0:
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
		axes := n.attrInts("axes")
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
	return nil, fmt.Errorf("%w: %s is not an alias", ErrUnsupported, n.op)
}
