package cppexport

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// code accumulates C++ text with indentation.
type code struct {
	b      strings.Builder
	indent int
}

func (c *code) line(format string, a ...any) {
	if format == "" {
		c.b.WriteByte('\n')
		return
	}
	c.b.WriteString(strings.Repeat("  ", c.indent))
	fmt.Fprintf(&c.b, format, a...)
	c.b.WriteByte('\n')
}

func (c *code) open(format string, a ...any) {
	if format == "" {
		c.line("{")
	} else {
		c.line(format+" {", a...)
	}
	c.indent++
}

func (c *code) close() {
	c.indent--
	c.line("}")
}

// emitter writes the forward pass: one block of C++ per node, and a member
// function per convolution.
type emitter struct {
	p     *program
	body  code // forward()'s body
	funcs code // helper member functions
	nvar  int
}

// emitters translate the operators of the Go interpreter, each with the
// interpreter's element order and arithmetic (env/crematoria/policy/ops.go
// and conv.go): every output element is computed by the same sequence of
// float operations, so the C++ results equal the Go ones bit for bit.
var emitters = map[string]func(e *emitter, n *node) error{
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

func (e *emitter) in(n *node, k int) *value {
	if k >= len(n.inputs) || n.inputs[k] == "" {
		return nil
	}
	return e.p.vals[n.inputs[k]]
}

func (e *emitter) out(n *node) *value { return e.p.vals[n.outputs[0]] }

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

// index returns sum(vars[a] * strides[a]) + base as C++.
func index(vars []string, str []int, base int) string {
	var terms []string
	for a, v := range vars {
		if v == "0" || str[a] == 0 {
			continue
		}
		if str[a] == 1 {
			terms = append(terms, v)
		} else {
			terms = append(terms, fmt.Sprintf("%s * %d", v, str[a]))
		}
	}
	if base != 0 || len(terms) == 0 {
		terms = append(terms, strconv.Itoa(base))
	}
	return strings.Join(terms, " + ")
}

// coalesce drops the axes of size 1 and merges neighbouring axes that
// every stride vector walks as one (the element order is unchanged).
func coalesce(shape []int, sets ...[]int) ([]int, [][]int) {
	var sh []int
	out := make([][]int, len(sets))
	for a, d := range shape {
		if d == 1 {
			continue
		}
		if len(sh) > 0 {
			last := len(sh) - 1
			merge := true
			for k, s := range sets {
				if out[k][last] != s[a]*d {
					merge = false
					break
				}
			}
			if merge {
				sh[last] *= d
				for k, s := range sets {
					out[k][last] = s[a]
				}
				continue
			}
		}
		sh = append(sh, d)
		for k, s := range sets {
			out[k] = append(out[k], s[a])
		}
	}
	return sh, out
}

func scale(s []int, k int) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = v * k
	}
	return out
}

// bcast returns the strides of an input of shape in broadcast to out
// (numpy rules, right-aligned; 0 on broadcast axes).
func bcast(in, out []int) ([]int, error) {
	if len(in) > len(out) {
		return nil, fmt.Errorf("shape %v does not broadcast to %v", in, out)
	}
	off := len(out) - len(in)
	s := strides(in)
	eff := make([]int, len(out))
	for i, d := range in {
		switch {
		case d == out[off+i]:
			if d != 1 {
				eff[off+i] = s[i]
			}
		case d == 1:
		default:
			return nil, fmt.Errorf("shape %v does not broadcast to %v", in, out)
		}
	}
	return eff, nil
}

func (e *emitter) header(n *node) {
	var ins []string
	for _, name := range n.inputs {
		if v := e.p.vals[name]; v != nil {
			ins = append(ins, fmt.Sprintf("%s%v", v.id, v.shape))
		}
	}
	o := e.out(n)
	e.body.line("// %s (%s): %s -> %s%v", sanitize(n.name), n.op, strings.Join(ins, ", "), o.id, o.shape)
}

// sanitize keeps a node name safe inside a C++ comment.
func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e {
			return '?'
		}
		return r
	}, s)
	s = strings.ReplaceAll(s, "*/", "*?")
	return strings.ReplaceAll(s, "\\", "/")
}

func emitBinary(e *emitter, n *node) error {
	a, b, o := e.in(n, 0), e.in(n, 1), e.out(n)
	if a == nil || b == nil || a.dt != b.dt || a.dt == bln {
		return unsupported(n, "inputs of types %v and %v", typeOf(a), typeOf(b))
	}
	ea, err := bcast(a.shape, o.shape)
	if err != nil {
		return unsupported(n, "%v", err)
	}
	eb, err := bcast(b.shape, o.shape)
	if err != nil {
		return unsupported(n, "%v", err)
	}
	op := "+"
	if n.op == "Mul" {
		op = "*"
	}
	e.header(n)
	e.body.open("")
	e.body.line("const %s* a = %s;", a.dt.ctype(), ptr(a))
	e.body.line("const %s* b = %s;", b.dt.ctype(), ptr(b))
	e.body.line("%s* y = %s;", o.dt.ctype(), ptr(o))
	sh, st := coalesce(o.shape, strides(o.shape), ea, eb)
	vars, k := e.loops(sh)
	if a.dt == i64 {
		// Wrapping arithmetic, as Go's int64.
		e.body.line("y[%s] = (long long)((unsigned long long)a[%s] %s (unsigned long long)b[%s]);",
			index(vars, st[0], 0), index(vars, st[1], 0), op, index(vars, st[2], 0))
	} else {
		e.body.line("y[%s] = a[%s] %s b[%s];", index(vars, st[0], 0), index(vars, st[1], 0), op, index(vars, st[2], 0))
	}
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitWhere(e *emitter, n *node) error {
	c, x, y, o := e.in(n, 0), e.in(n, 1), e.in(n, 2), e.out(n)
	if c == nil || x == nil || y == nil || c.dt != bln || x.dt != y.dt {
		return unsupported(n, "inputs of types %v, %v, %v", typeOf(c), typeOf(x), typeOf(y))
	}
	var effs [3][]int
	for k, v := range []*value{c, x, y} {
		eff, err := bcast(v.shape, o.shape)
		if err != nil {
			return unsupported(n, "%v", err)
		}
		effs[k] = eff
	}
	e.header(n)
	e.body.open("")
	e.body.line("const unsigned char* c = %s;", ptr(c))
	e.body.line("const %s* a = %s;", x.dt.ctype(), ptr(x))
	e.body.line("const %s* b = %s;", y.dt.ctype(), ptr(y))
	e.body.line("%s* y = %s;", o.dt.ctype(), ptr(o))
	sh, st := coalesce(o.shape, strides(o.shape), effs[0], effs[1], effs[2])
	vars, k := e.loops(sh)
	e.body.line("y[%s] = c[%s] ? a[%s] : b[%s];", index(vars, st[0], 0),
		index(vars, st[1], 0), index(vars, st[2], 0), index(vars, st[3], 0))
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitRelu(e *emitter, n *node) error {
	x, o := e.in(n, 0), e.out(n)
	if x == nil || x.dt != f32 {
		return unsupported(n, "input of type %v", typeOf(x))
	}
	e.header(n)
	e.body.open("")
	e.body.line("const float* x = %s;", ptr(x))
	e.body.line("float* y = %s;", ptr(o))
	e.body.line("for (int i = 0; i < %d; ++i) y[i] = x[i] > 0 ? x[i] : 0.0f;", o.len())
	e.body.close()
	return nil
}

func emitCast(e *emitter, n *node) error {
	x, o := e.in(n, 0), e.out(n)
	if x == nil {
		return unsupported(n, "no input")
	}
	var conv string
	switch {
	case x.dt == o.dt:
		conv = "x[i]"
	case o.dt == f32: // from an integer or a bool
		conv = "(float)x[i]"
	case o.dt == i64 && x.dt == f32: // truncation toward zero, as Go's math.Trunc
		conv = "(long long)x[i]"
	case o.dt == i64: // from bool
		conv = "(long long)x[i]"
	default: // to bool
		conv = "(unsigned char)(x[i] != 0)"
	}
	e.header(n)
	e.body.open("")
	e.body.line("const %s* x = %s;", x.dt.ctype(), ptr(x))
	e.body.line("%s* y = %s;", o.dt.ctype(), ptr(o))
	e.body.line("for (int i = 0; i < %d; ++i) y[i] = %s;", o.len(), conv)
	e.body.close()
	return nil
}

// normAxis turns a possibly negative axis into 0..rank-1.
func normAxis(n *node, axis int64, rank int) (int, error) {
	a := int(axis)
	if a < 0 {
		a += rank
	}
	if a < 0 || a >= rank {
		return 0, unsupported(n, "axis %d for rank %d", axis, rank)
	}
	return a, nil
}

func emitGather(e *emitter, n *node) error {
	data, idx, o := e.in(n, 0), e.in(n, 1), e.out(n)
	if data == nil || idx == nil || idx.dt != i64 {
		return unsupported(n, "indices of type %v", typeOf(idx))
	}
	axis, err := normAxis(n, n.attrInt("axis", 0), len(data.shape))
	if err != nil {
		return err
	}
	outer := numElems(data.shape[:axis])
	inner := numElems(data.shape[axis+1:])
	dim := data.shape[axis]
	ni := idx.len()
	e.header(n)
	e.body.open("")
	e.body.line("const %s* x = %s;", data.dt.ctype(), ptr(data))
	e.body.line("const long long* ix = %s;", ptr(idx))
	e.body.line("%s* y = %s;", o.dt.ctype(), ptr(o))
	e.body.open("for (int q = 0; q < %d; ++q)", ni)
	e.body.line("long long k = ix[q];")
	e.body.line("if (k < 0) k += %d;", dim)
	e.body.line("if (k < 0 || k >= %d) return false;", dim)
	vars, lk := e.loops([]int{outer, inner})
	e.body.line("y[%s] = x[%s + k * %d];", index([]string{vars[0], "q", vars[1]}, []int{ni * inner, inner, 1}, 0),
		index(vars, []int{dim * inner, 1}, 0), inner)
	e.closeLoops(lk)
	e.body.close()
	e.body.close()
	return nil
}

func emitGatherElements(e *emitter, n *node) error {
	data, idx, o := e.in(n, 0), e.in(n, 1), e.out(n)
	if data == nil || idx == nil || idx.dt != i64 || len(idx.shape) != len(data.shape) {
		return unsupported(n, "indices %v for data %v", typeOf(idx), typeOf(data))
	}
	rank := len(data.shape)
	axis, err := normAxis(n, n.attrInt("axis", 0), rank)
	if err != nil {
		return err
	}
	ds := strides(data.shape)
	base := make([]int, rank)
	copy(base, ds)
	base[axis] = 0
	e.header(n)
	e.body.open("")
	e.body.line("const %s* x = %s;", data.dt.ctype(), ptr(data))
	e.body.line("const long long* ix = %s;", ptr(idx))
	e.body.line("%s* y = %s;", o.dt.ctype(), ptr(o))
	vars, k := e.loops(idx.shape)
	lin := index(vars, strides(idx.shape), 0)
	e.body.line("long long v = ix[%s];", lin)
	e.body.line("if (v < 0) v += %d;", data.shape[axis])
	e.body.line("if (v < 0 || v >= %d) return false;", data.shape[axis])
	e.body.line("y[%s] = x[%s + v * %d];", lin, index(vars, base, 0), ds[axis])
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitTranspose(e *emitter, n *node) error {
	x, o := e.in(n, 0), e.out(n)
	rank := len(x.shape)
	perm := n.attrInts("perm")
	if perm == nil {
		for i := rank - 1; i >= 0; i-- {
			perm = append(perm, int64(i))
		}
	}
	if len(perm) != rank {
		return unsupported(n, "perm %v for rank %d", perm, rank)
	}
	xs := strides(x.shape)
	eff := make([]int, rank)
	for i, p := range perm {
		eff[i] = xs[p]
	}
	e.header(n)
	e.body.open("")
	e.body.line("const %s* x = %s;", x.dt.ctype(), ptr(x))
	e.body.line("%s* y = %s;", o.dt.ctype(), ptr(o))
	sh, st := coalesce(o.shape, strides(o.shape), eff)
	vars, k := e.loops(sh)
	e.body.line("y[%s] = x[%s];", index(vars, st[0], 0), index(vars, st[1], 0))
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitSlice(e *emitter, n *node) error {
	x, o := e.in(n, 0), e.out(n)
	rank := len(x.shape)
	starts, _, err := constInts(n, 1, e.p.vals)
	if err != nil {
		return err
	}
	ends, _, err := constInts(n, 2, e.p.vals)
	if err != nil {
		return err
	}
	axes, hasAxes, err := constInts(n, 3, e.p.vals)
	if err != nil {
		return err
	}
	steps, hasSteps, err := constInts(n, 4, e.p.vals)
	if err != nil {
		return err
	}
	if !hasAxes {
		axes = make([]int64, len(starts))
		for i := range axes {
			axes[i] = int64(i)
		}
	}
	if !hasSteps {
		steps = make([]int64, len(starts))
		for i := range steps {
			steps[i] = 1
		}
	}
	if len(ends) != len(starts) || len(axes) != len(starts) || len(steps) != len(starts) {
		return unsupported(n, "starts, ends, axes and steps differ in length")
	}
	first := make([]int, rank)
	step := make([]int, rank)
	for i := range step {
		step[i] = 1
	}
	for i, a := range axes {
		ax, err := normAxis(n, a, rank)
		if err != nil {
			return err
		}
		dim := int64(x.shape[ax])
		s, st := starts[i], steps[i]
		if st == 0 {
			return unsupported(n, "step 0")
		}
		if s < 0 {
			s += dim
		}
		if st > 0 {
			s = min(max(s, 0), dim)
		} else {
			s = min(max(s, 0), dim-1)
		}
		first[ax], step[ax] = int(s), int(st)
	}
	xs := strides(x.shape)
	base := 0
	eff := make([]int, rank)
	for a := range xs {
		base += first[a] * xs[a]
		eff[a] = step[a] * xs[a]
	}
	e.header(n)
	if o.len() == 0 {
		return nil
	}
	e.body.open("")
	e.body.line("const %s* x = %s;", x.dt.ctype(), ptr(x))
	e.body.line("%s* y = %s;", o.dt.ctype(), ptr(o))
	sh, st := coalesce(o.shape, strides(o.shape), eff)
	vars, k := e.loops(sh)
	e.body.line("y[%s] = x[%s];", index(vars, st[0], 0), index(vars, st[1], base))
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitConcat(e *emitter, n *node) error {
	o := e.out(n)
	axis, err := normAxis(n, n.attrInt("axis", 0), len(o.shape))
	if err != nil {
		return err
	}
	outer := numElems(o.shape[:axis])
	inner := numElems(o.shape[axis+1:])
	orun := o.shape[axis] * inner
	e.header(n)
	e.body.open("")
	e.body.line("%s* y = %s;", o.dt.ctype(), ptr(o))
	off := 0
	for k := range n.inputs {
		t := e.in(n, k)
		if t == nil || t.dt != o.dt {
			return unsupported(n, "input %d of type %v", k, typeOf(t))
		}
		run := t.shape[axis] * inner
		if run == 0 {
			continue
		}
		e.body.open("")
		e.body.line("const %s* x = %s;", t.dt.ctype(), ptr(t))
		vars, lk := e.loops([]int{outer, run})
		e.body.line("y[%s] = x[%s];", index(vars, []int{orun, 1}, off), index(vars, []int{run, 1}, 0))
		e.closeLoops(lk)
		e.body.close()
		off += run
	}
	e.body.close()
	return nil
}

// matmulShapes returns m, k, n and the batch loops of a MatMul (numpy
// rules: rank-1 operands promoted, batch dimensions broadcast).
func matmulShapes(a, b []int) (m, k, nn int, batch, ea, eb []int, err error) {
	if len(a) == 0 || len(b) == 0 {
		return 0, 0, 0, nil, nil, nil, fmt.Errorf("scalar operands")
	}
	if len(a) == 1 {
		a = []int{1, a[0]}
	}
	if len(b) == 1 {
		b = []int{b[0], 1}
	}
	m, k, nn = a[len(a)-2], a[len(a)-1], b[len(b)-1]
	if b[len(b)-2] != k {
		return 0, 0, 0, nil, nil, nil, fmt.Errorf("shapes %v and %v do not multiply", a, b)
	}
	ab, bb := a[:len(a)-2], b[:len(b)-2]
	rank := max(len(ab), len(bb))
	batch = make([]int, rank)
	for i := range batch {
		batch[i] = 1
	}
	for _, s := range [][]int{ab, bb} {
		off := rank - len(s)
		for i, d := range s {
			if d != 1 {
				batch[off+i] = d
			}
		}
	}
	if ea, err = bcast(ab, batch); err != nil {
		return
	}
	eb, err = bcast(bb, batch)
	return
}

// matmul emits C[m,n] = A[m,k] B[k,n] as the interpreter computes it: C
// starts at zero and row i of C adds A[i,p] * B[p,:] for p = 0..k-1. Each
// row is accumulated in a local array, which nothing else can alias, so
// that the loop over j vectorizes. A, B and C are the expressions of the
// first elements.
func (e *emitter) matmul(m, k, nn int, b, bOff, c, cOff string, aAt func(i, p string) string) {
	e.body.open("for (int i = 0; i < %d; ++i)", m)
	e.body.line("float acc[%d];", nn)
	e.body.line("for (int j = 0; j < %d; ++j) acc[j] = 0.0f;", nn)
	e.body.open("for (int p = 0; p < %d; ++p)", k)
	e.body.line("const float x = %s;", aAt("i", "p"))
	e.body.line("const float* r = %s + %s + p * %d;", b, bOff, nn)
	e.body.line("for (int j = 0; j < %d; ++j) acc[j] += x * r[j];", nn)
	e.body.close()
	e.body.line("for (int j = 0; j < %d; ++j) %s[%s + i * %d + j] = acc[j];", nn, c, cOff, nn)
	e.body.close()
}

func emitMatMul(e *emitter, n *node) error {
	a, b, o := e.in(n, 0), e.in(n, 1), e.out(n)
	if a == nil || b == nil || a.dt != f32 || b.dt != f32 {
		return unsupported(n, "inputs of types %v and %v", typeOf(a), typeOf(b))
	}
	m, k, nn, batch, ea, eb, err := matmulShapes(a.shape, b.shape)
	if err != nil {
		return unsupported(n, "%v", err)
	}
	e.header(n)
	e.body.open("")
	vars, lk := e.loops(batch)
	aOff := index(vars, scale(ea, m*k), 0)
	e.matmul(m, k, nn, ptr(b), index(vars, scale(eb, k*nn), 0), ptr(o), index(vars, scale(strides(batch), m*nn), 0),
		func(i, p string) string { return fmt.Sprintf("%s[%s + %s * %d + %s]", ptr(a), aOff, i, k, p) })
	e.closeLoops(lk)
	e.body.close()
	return nil
}

func emitGemm(e *emitter, n *node) error {
	a, b, c, o := e.in(n, 0), e.in(n, 1), e.in(n, 2), e.out(n)
	if a == nil || b == nil || a.dt != f32 || b.dt != f32 || len(a.shape) != 2 || len(b.shape) != 2 {
		return unsupported(n, "inputs %v and %v", typeOf(a), typeOf(b))
	}
	ta, tb := n.attrInt("transA", 0) != 0, n.attrInt("transB", 0) != 0
	alpha, beta := n.attrFloat("alpha", 1), n.attrFloat("beta", 1)
	m, k := a.shape[0], a.shape[1]
	if ta {
		m, k = k, m
	}
	nn := b.shape[1]
	if tb {
		nn = b.shape[0]
	}
	e.header(n)
	e.body.open("")
	B := ptr(b)
	if tb {
		// The interpreter transposes B first (a copy): so does the C++.
		B = o.id + "bt_"
		e.p.scratch = append(e.p.scratch, scratch{B, "float", k * nn})
		e.body.line("for (int i = 0; i < %d; ++i) for (int j = 0; j < %d; ++j) %s[j * %d + i] = %s[i * %d + j];", nn, k, B, nn, ptr(b), k)
	}
	A := ptr(a)
	aAt := func(i, p string) string { return fmt.Sprintf("%s[%s * %d + %s]", A, i, k, p) }
	if ta {
		aAt = func(i, p string) string { return fmt.Sprintf("%s[%s * %d + %s]", A, p, m, i) }
	}
	e.matmul(m, k, nn, B, "0", ptr(o), "0", aAt)
	e.body.line("float* C = %s;", ptr(o))
	if alpha != 1 {
		e.body.line("for (int i = 0; i < %d; ++i) C[i] *= %s;", m*nn, floatLit(alpha))
	}
	if c != nil {
		if c.dt != f32 {
			return unsupported(n, "C of type %v", c.dt)
		}
		ec, err := bcast(c.shape, []int{m, nn})
		if err != nil {
			return unsupported(n, "C: %v", err)
		}
		e.body.line("const float* Cb = %s;", ptr(c))
		vars, lk := e.loops([]int{m, nn})
		e.body.line("C[%s] += %s * Cb[%s];", index(vars, []int{nn, 1}, 0), floatLit(beta), index(vars, ec, 0))
		e.closeLoops(lk)
	}
	e.body.close()
	return nil
}

func emitReduceMean(e *emitter, n *node) error {
	x, o := e.in(n, 0), e.out(n)
	if x == nil || x.dt != f32 {
		return unsupported(n, "input of type %v", typeOf(x))
	}
	var axes []int64
	if e.p.model.Opset >= 18 {
		a, _, err := constInts(n, 1, e.p.vals)
		if err != nil {
			return err
		}
		axes = a
	} else {
		axes = n.attrInts("axes")
	}
	rank := len(x.shape)
	red := make([]bool, rank)
	if len(axes) == 0 {
		if n.attrInt("noop_with_empty_axes", 0) != 0 {
			return emitAlias(e, n)
		}
		for i := range red {
			red[i] = true
		}
	}
	for _, a := range axes {
		ax, err := normAxis(n, a, rank)
		if err != nil {
			return err
		}
		red[ax] = true
	}
	kept := make([]int, rank)
	count := 1
	for i, d := range x.shape {
		if red[i] {
			kept[i] = 1
			count *= d
		} else {
			kept[i] = d
		}
	}
	ks, err := bcast(kept, x.shape)
	if err != nil {
		return unsupported(n, "%v", err)
	}
	nk := numElems(kept)
	e.p.scratch = append(e.p.scratch, scratch{o.id + "sum_", "double", nk})
	e.header(n)
	e.body.open("")
	e.body.line("// Sums in double, in the order of the input, as the interpreter.")
	e.body.line("const float* x = %s;", ptr(x))
	e.body.line("double* s = %ssum_;", o.id)
	e.body.line("float* y = %s;", ptr(o))
	e.body.line("for (int i = 0; i < %d; ++i) s[i] = 0;", nk)
	sh, st := coalesce(x.shape, ks, strides(x.shape))
	vars, lk := e.loops(sh)
	e.body.line("s[%s] += (double)x[%s];", index(vars, st[0], 0), index(vars, st[1], 0))
	e.closeLoops(lk)
	e.body.line("for (int i = 0; i < %d; ++i) y[i] = (float)(s[i] / %d.0);", nk, count)
	e.body.close()
	return nil
}

// emitAlias handles the operators that only change the shape: the output
// shares the input's storage.
func emitAlias(e *emitter, n *node) error {
	x, o := e.in(n, 0), e.out(n)
	if x == nil || x.len() != o.len() || x.dt != o.dt {
		return unsupported(n, "cannot view %v as %v", typeOf(x), typeOf(o))
	}
	o.id = x.id
	o.alias = true
	e.body.line("// %s (%s): %s%v viewed as %v", sanitize(n.name), n.op, x.id, x.shape, o.shape)
	return nil
}

func typeOf(v *value) string {
	if v == nil {
		return "<missing>"
	}
	return fmt.Sprintf("%s%v", v.dt, v.shape)
}

func unsupported(n *node, format string, a ...any) error {
	return fmt.Errorf("%w: node %q (%s): %s", ErrUnsupported, n.name, n.op, fmt.Sprintf(format, a...))
}

// floatLit returns a C++ float literal that converts to exactly f: the
// shortest decimal that rounds back to f (at most 9 significant digits),
// with the f suffix so that the compiler rounds it once, to float.
func floatLit(f float32) string {
	switch {
	case math.IsNaN(float64(f)):
		return "NAN"
	case math.IsInf(float64(f), 1):
		return "HUGE_VALF"
	case math.IsInf(float64(f), -1):
		return "(-HUGE_VALF)"
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s + "f"
}
