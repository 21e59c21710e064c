package cppexport

import (
	"fmt"
	"strings"

	"jgym/policy"
)

// emitter writes the forward pass: one block of C++ per node, and a member
// function per convolution.
type emitter struct {
	p     *program
	body  code // forward()'s body
	funcs code // helper member functions
	nvar  int
	v4s   map[string]bool // the jgym_v4 copies of constants written (constV4)
}

// emitters translate the operators of the Go interpreter, each with the
// interpreter's element order and arithmetic (package policy:
// elementwise.go, movement.go, matmul.go, reduce.go and conv.go, which
// the files of the same names here follow): every output element is
// computed by the same sequence of float operations, so the C++ results
// equal the Go ones bit for bit.
var emitters = map[string]func(e *emitter, n *policy.Node) error{
	"Add":            emitBinary,
	"Mul":            emitBinary,
	"Where":          emitWhere,
	"Relu":           emitRelu,
	"Cast":           emitCast,
	"Gather":         emitGather,
	"GatherElements": emitGatherElements,
	"Transpose":      emitTranspose,
	"Slice":          emitSlice,
	"Concat":         emitConcat,
	"MatMul":         emitMatMul,
	"Gemm":           emitGemm,
	"ReduceMean":     emitReduceMean,
	"Conv":           emitConv,
	"Reshape":        emitAlias,
	"Unsqueeze":      emitAlias,
	"Identity":       emitAlias,
}

func (e *emitter) in(n *policy.Node, k int) *value {
	if k >= len(n.Inputs) || n.Inputs[k] == "" {
		return nil
	}
	return e.p.vals[n.Inputs[k]]
}

func (e *emitter) out(n *policy.Node) *value { return e.p.vals[n.Outputs[0]] }

// ptr is the expression of a value's data: the player's member array.
func ptr(v *value) string { return v.id }

// loops opens one for loop per axis of shape longer than 1 and returns the
// index expression of each axis ("0" for the others).
func (e *emitter) loops(shape []int) (vars []string, opened int) {
	for _, d := range shape {
		if d == 1 {
			vars = append(vars, "0")
			continue
		}
		e.nvar++
		v := fmt.Sprintf("i%d", e.nvar)
		e.body.open("for (int %s = 0; %s < %d; ++%s)", v, v, d, v)
		vars = append(vars, v)
		opened++
	}
	return vars, opened
}

func (e *emitter) closeLoops(n int) {
	for ; n > 0; n-- {
		e.body.close()
	}
}

func (e *emitter) header(n *policy.Node) {
	var ins []string
	for _, name := range n.Inputs {
		if v := e.p.vals[name]; v != nil {
			ins = append(ins, fmt.Sprintf("%s%v", v.id, v.shape))
		}
	}
	o := e.out(n)
	e.body.line("// %s (%s): %s -> %s%v", sanitize(n.Name), n.OpType, strings.Join(ins, ", "), o.id, o.shape)
}

func typeOf(v *value) string {
	if v == nil {
		return "<missing>"
	}
	return fmt.Sprintf("%s%v", v.dt, v.shape)
}

func unsupported(n *policy.Node, format string, a ...any) error {
	return fmt.Errorf("%w: node %q (%s): %s", ErrUnsupported, n.Name, n.OpType, fmt.Sprintf(format, a...))
}
