package policy

import (
	"fmt"
	"math"
	"sort"
)

// opFunc computes the single output of a node from its inputs (nil for an
// omitted optional input). opset is the model's ai.onnx opset version.
type opFunc func(n *nodeProto, opset int64, in []*Tensor) (*Tensor, error)

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

// attrInt returns an int attribute or def.
func (n *nodeProto) attrInt(name string, def int64) int64 {
	if a, ok := n.attrs[name]; ok {
		return a.i
	}
	return def
}

// attrInts returns an ints attribute or nil.
func (n *nodeProto) attrInts(name string) []int64 {
	if a, ok := n.attrs[name]; ok {
		return a.ints
	}
	return nil
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

func opAdd(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	return elementwise(in, func(a, b float32) float32 { return a + b }, func(a, b int64) int64 { return a + b })
}

func opMul(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	return elementwise(in, func(a, b float32) float32 { return a * b }, func(a, b int64) int64 { return a * b })
}

// elementwise applies an elementwise operation with numpy broadcasting.
func elementwise(in []*Tensor, f func(a, b float32) float32, g func(a, b int64) int64) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	a, b := in[0], in[1]
	if a.DType != b.DType || a.DType == Bool {
		return nil, fmt.Errorf("unsupported input types %s and %s", a, b)
	}
	shape, err := broadcastShape(a.Shape, b.Shape)
	if err != nil {
		return nil, err
	}
	out := newTensor(a.DType, shape)
	// Fast path: same shapes, or b a trailing vector/scalar.
	if a.DType == Float32 && equalShape(a.Shape, shape) {
		nb := b.Len()
		if equalShape(b.Shape, shape) || (nb > 0 && len(a.F)%nb == 0 && isTrailing(b.Shape, shape)) {
			for i, x := range a.F {
				out.F[i] = f(x, b.F[i%nb])
			}
			return out, nil
		}
	}
	ia, ib := broadcastIndex(a.Shape, shape), broadcastIndex(b.Shape, shape)
	if a.DType == Float32 {
		for k := range out.F {
			out.F[k] = f(a.F[ia[k]], b.F[ib[k]])
		}
	} else {
		for k := range out.I {
			out.I[k] = g(a.I[ia[k]], b.I[ib[k]])
		}
	}
	return out, nil
}

// isTrailing reports whether shape s, once its leading 1s are dropped,
// is a suffix of out (so that it repeats every numElems(s) elements).
func isTrailing(s, out []int) bool {
	i := 0
	for i < len(s) && s[i] == 1 {
		i++
	}
	s = s[i:]
	if len(s) > len(out) {
		return false
	}
	return equalShape(s, out[len(out)-len(s):])
}

func opWhere(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 3); err != nil {
		return nil, err
	}
	c, x, y := in[0], in[1], in[2]
	if c.DType != Bool || x.DType != y.DType {
		return nil, fmt.Errorf("unsupported input types %s, %s, %s", c, x, y)
	}
	shape, err := broadcastShape(c.Shape, x.Shape, y.Shape)
	if err != nil {
		return nil, err
	}
	out := newTensor(x.DType, shape)
	ic, ix, iy := broadcastIndex(c.Shape, shape), broadcastIndex(x.Shape, shape), broadcastIndex(y.Shape, shape)
	for k := range ic {
		switch x.DType {
		case Float32:
			if c.B[ic[k]] {
				out.F[k] = x.F[ix[k]]
			} else {
				out.F[k] = y.F[iy[k]]
			}
		case Int64:
			if c.B[ic[k]] {
				out.I[k] = x.I[ix[k]]
			} else {
				out.I[k] = y.I[iy[k]]
			}
		case Bool:
			if c.B[ic[k]] {
				out.B[k] = x.B[ix[k]]
			} else {
				out.B[k] = y.B[iy[k]]
			}
		}
	}
	return out, nil
}

func opRelu(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	if in[0].DType != Float32 {
		return nil, fmt.Errorf("want float input, got %s", in[0])
	}
	out := newTensor(Float32, in[0].Shape)
	for i, x := range in[0].F {
		if x > 0 {
			out.F[i] = x
		}
	}
	return out, nil
}

// opCast converts between float, the integer types (all held as int64)
// and bool. Float to integer truncates toward zero, as C++ and PyTorch do.
func opCast(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	a, ok := n.attrs["to"]
	if !ok {
		return nil, fmt.Errorf("missing attribute \"to\"")
	}
	dt, err := dtypeOf(a.i)
	if err != nil {
		return nil, err
	}
	x := in[0]
	out := newTensor(dt, x.Shape)
	for i := 0; i < x.Len(); i++ {
		var f float64
		switch x.DType {
		case Float32:
			f = float64(x.F[i])
		case Int64:
			f = float64(x.I[i])
		case Bool:
			if x.B[i] {
				f = 1
			}
		}
		switch dt {
		case Float32:
			if x.DType == Int64 {
				out.F[i] = float32(x.I[i])
			} else {
				out.F[i] = float32(f)
			}
		case Int64:
			if x.DType == Int64 {
				out.I[i] = x.I[i]
			} else {
				out.I[i] = int64(math.Trunc(f))
			}
		case Bool:
			out.B[i] = f != 0
		}
	}
	return out, nil
}

func opIdentity(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	return in[0], nil
}

func opConstant(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if a, ok := n.attrs["value"]; ok && a.t != nil {
		return a.t, nil
	}
	if a, ok := n.attrs["value_float"]; ok {
		return NewFloat32(nil, []float32{a.f}), nil
	}
	if a, ok := n.attrs["value_int"]; ok {
		return NewInt64(nil, []int64{a.i}), nil
	}
	if a, ok := n.attrs["value_floats"]; ok {
		return NewFloat32([]int{len(a.floats)}, a.floats), nil
	}
	if a, ok := n.attrs["value_ints"]; ok {
		return NewInt64([]int{len(a.ints)}, a.ints), nil
	}
	return nil, fmt.Errorf("%w: Constant without a value, value_float(s) or value_int(s) attribute", ErrUnsupported)
}

// elems is a type-generic view used by the data-movement operators: they
// copy elements by flat index whatever the element type.
type elems struct{ t, out *Tensor }

func (e elems) copy(dst, src int) {
	switch e.t.DType {
	case Float32:
		e.out.F[dst] = e.t.F[src]
	case Int64:
		e.out.I[dst] = e.t.I[src]
	case Bool:
		e.out.B[dst] = e.t.B[src]
	}
}

// copyRun copies n consecutive elements.
func copyRun(out *Tensor, dst int, t *Tensor, src, n int) {
	switch t.DType {
	case Float32:
		copy(out.F[dst:dst+n], t.F[src:src+n])
	case Int64:
		copy(out.I[dst:dst+n], t.I[src:src+n])
	case Bool:
		copy(out.B[dst:dst+n], t.B[src:src+n])
	}
}

func opConcat(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("no inputs")
	}
	first := in[0]
	axis, err := normAxis(n.attrInt("axis", 0), len(first.Shape))
	if err != nil {
		return nil, err
	}
	shape := append([]int(nil), first.Shape...)
	shape[axis] = 0
	for i, t := range in {
		if t == nil || t.DType != first.DType || len(t.Shape) != len(first.Shape) {
			return nil, fmt.Errorf("input %d: %v does not match %v", i, t, first)
		}
		for a := range shape {
			if a != axis && t.Shape[a] != first.Shape[a] {
				return nil, fmt.Errorf("input %d: shape %v does not match %v on axis %d", i, t.Shape, first.Shape, a)
			}
		}
		shape[axis] += t.Shape[axis]
	}
	out := newTensor(first.DType, shape)
	outer := numElems(shape[:axis])
	inner := numElems(shape[axis+1:])
	dst := 0
	for o := 0; o < outer; o++ {
		for _, t := range in {
			run := t.Shape[axis] * inner
			copyRun(out, dst, t, o*run, run)
			dst += run
		}
	}
	return out, nil
}

// opGather is numpy's take along an axis: out shape = data.shape[:axis] +
// indices.shape + data.shape[axis+1:]. Negative indices count from the end.
func opGather(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	data, idx := in[0], in[1]
	ix, err := idx.ints()
	if err != nil {
		return nil, fmt.Errorf("indices: %w", err)
	}
	axis, err := normAxis(n.attrInt("axis", 0), len(data.Shape))
	if err != nil {
		return nil, err
	}
	shape := append(append(append([]int(nil), data.Shape[:axis]...), idx.Shape...), data.Shape[axis+1:]...)
	out := newTensor(data.DType, shape)
	outer := numElems(data.Shape[:axis])
	inner := numElems(data.Shape[axis+1:])
	dim := data.Shape[axis]
	dst := 0
	for o := 0; o < outer; o++ {
		for _, k := range ix {
			if k < 0 {
				k += int64(dim)
			}
			if k < 0 || k >= int64(dim) {
				return nil, fmt.Errorf("index %d out of range [0, %d)", k, dim)
			}
			copyRun(out, dst, data, (o*dim+int(k))*inner, inner)
			dst += inner
		}
	}
	return out, nil
}

// opGatherElements: out[i0..ir] = data[i0.., indices[i0..ir], ..ir] with
// the index replacing the coordinate on axis.
func opGatherElements(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	data, idx := in[0], in[1]
	ix, err := idx.ints()
	if err != nil {
		return nil, fmt.Errorf("indices: %w", err)
	}
	rank := len(data.Shape)
	if len(idx.Shape) != rank {
		return nil, fmt.Errorf("indices rank %d, data rank %d", len(idx.Shape), rank)
	}
	axis, err := normAxis(n.attrInt("axis", 0), rank)
	if err != nil {
		return nil, err
	}
	for a := range idx.Shape {
		if a != axis && idx.Shape[a] > data.Shape[a] {
			return nil, fmt.Errorf("indices shape %v exceeds data shape %v", idx.Shape, data.Shape)
		}
	}
	out := newTensor(data.DType, idx.Shape)
	e := elems{data, out}
	ds := strides(data.Shape)
	pos := make([]int, rank)
	dim := int64(data.Shape[axis])
	for k, v := range ix {
		if v < 0 {
			v += dim
		}
		if v < 0 || v >= dim {
			return nil, fmt.Errorf("index %d out of range [0, %d)", ix[k], dim)
		}
		src := 0
		for a, p := range pos {
			if a == axis {
				src += int(v) * ds[a]
			} else {
				src += p * ds[a]
			}
		}
		e.copy(k, src)
		for a := rank - 1; a >= 0; a-- {
			pos[a]++
			if pos[a] < idx.Shape[a] {
				break
			}
			pos[a] = 0
		}
	}
	return out, nil
}

// opMatMul is numpy's matmul for float tensors of rank >= 2 (rank-1
// operands are promoted as numpy does), with broadcast batch dimensions.
func opMatMul(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	a, b := in[0], in[1]
	if a.DType != Float32 || b.DType != Float32 {
		return nil, fmt.Errorf("want float inputs, got %s and %s", a, b)
	}
	as, bs := a.Shape, b.Shape
	if len(as) == 0 || len(bs) == 0 {
		return nil, fmt.Errorf("scalar operands %v and %v", as, bs)
	}
	dropM, dropN := len(as) == 1, len(bs) == 1
	if dropM {
		as = []int{1, as[0]}
	}
	if dropN {
		bs = []int{bs[0], 1}
	}
	m, k, k2, nn := as[len(as)-2], as[len(as)-1], bs[len(bs)-2], bs[len(bs)-1]
	if k != k2 {
		return nil, fmt.Errorf("shapes %v and %v do not multiply", a.Shape, b.Shape)
	}
	batch, err := broadcastShape(as[:len(as)-2], bs[:len(bs)-2])
	if err != nil {
		return nil, err
	}
	shape := append(append([]int(nil), batch...), m, nn)
	out := newTensor(Float32, shape)
	ia, ib := broadcastIndex(as[:len(as)-2], batch), broadcastIndex(bs[:len(bs)-2], batch)
	for p := range ia {
		A := a.F[ia[p]*m*k : (ia[p]+1)*m*k]
		B := b.F[ib[p]*k*nn : (ib[p]+1)*k*nn]
		C := out.F[p*m*nn : (p+1)*m*nn]
		matmul(C, A, B, m, k, nn)
	}
	if dropM || dropN {
		s := append([]int(nil), batch...)
		if !dropM {
			s = append(s, m)
		}
		if !dropN {
			s = append(s, nn)
		}
		out.Shape = s
	}
	return out, nil
}

// matmul adds A [m,k] times B [k,n] into C [m,n].
func matmul(C, A, B []float32, m, k, n int) {
	for i := 0; i < m; i++ {
		c := C[i*n : (i+1)*n]
		for p, x := range A[i*k : (i+1)*k] {
			axpy(c, B[p*n:(p+1)*n], x)
		}
	}
}

// axpy adds x*b to c (len(b) >= len(c)).
func axpy(c, b []float32, x float32) {
	b = b[:len(c)]
	for j := range c {
		c[j] += x * b[j]
	}
}

// opGemm is alpha*A'*B' + beta*C for 2-D A and B (' = optional transpose).
func opGemm(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	a, b := in[0], in[1]
	if a.DType != Float32 || b.DType != Float32 || len(a.Shape) != 2 || len(b.Shape) != 2 {
		return nil, fmt.Errorf("want 2-D float inputs, got %s and %s", a, b)
	}
	alpha, beta := float32(1), float32(1)
	if x, ok := n.attrs["alpha"]; ok {
		alpha = x.f
	}
	if x, ok := n.attrs["beta"]; ok {
		beta = x.f
	}
	ta, tb := n.attrInt("transA", 0) != 0, n.attrInt("transB", 0) != 0
	if ta {
		a = transpose2(a)
	}
	if tb {
		b = transpose2(b)
	}
	m, k, nn := a.Shape[0], a.Shape[1], b.Shape[1]
	if b.Shape[0] != k {
		return nil, fmt.Errorf("shapes %v and %v do not multiply", a.Shape, b.Shape)
	}
	out := newTensor(Float32, []int{m, nn})
	matmul(out.F, a.F, b.F, m, k, nn)
	if alpha != 1 {
		for i := range out.F {
			out.F[i] *= alpha
		}
	}
	if len(in) > 2 && in[2] != nil {
		c := in[2]
		if c.DType != Float32 {
			return nil, fmt.Errorf("want float C, got %s", c)
		}
		if _, err := broadcastShape(c.Shape, out.Shape); err != nil {
			return nil, fmt.Errorf("C: %w", err)
		}
		ic := broadcastIndex(c.Shape, out.Shape)
		for i := range out.F {
			out.F[i] += beta * c.F[ic[i]]
		}
	}
	return out, nil
}

func transpose2(t *Tensor) *Tensor {
	r, c := t.Shape[0], t.Shape[1]
	out := newTensor(Float32, []int{c, r})
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out.F[j*r+i] = t.F[i*c+j]
		}
	}
	return out
}

func opTranspose(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	x := in[0]
	rank := len(x.Shape)
	perm := n.attrInts("perm")
	if perm == nil {
		for i := rank - 1; i >= 0; i-- {
			perm = append(perm, int64(i))
		}
	}
	if len(perm) != rank {
		return nil, fmt.Errorf("perm %v for rank %d", perm, rank)
	}
	seen := make([]bool, rank)
	shape := make([]int, rank)
	for i, p := range perm {
		if p < 0 || int(p) >= rank || seen[p] {
			return nil, fmt.Errorf("bad perm %v", perm)
		}
		seen[p] = true
		shape[i] = x.Shape[p]
	}
	out := newTensor(x.DType, shape)
	xs := strides(x.Shape)
	eff := make([]int, rank) // input stride of each output axis
	for i, p := range perm {
		eff[i] = xs[p]
	}
	e := elems{x, out}
	pos := make([]int, rank)
	src := 0
	for k := 0; k < out.Len(); k++ {
		e.copy(k, src)
		for a := rank - 1; a >= 0; a-- {
			pos[a]++
			src += eff[a]
			if pos[a] < shape[a] {
				break
			}
			src -= eff[a] * pos[a]
			pos[a] = 0
		}
	}
	return out, nil
}

func opReshape(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	x := in[0]
	want, err := in[1].ints()
	if err != nil {
		return nil, fmt.Errorf("shape: %w", err)
	}
	allowZero := n.attrInt("allowzero", 0) != 0
	shape := make([]int, len(want))
	infer := -1
	known := 1
	for i, d := range want {
		switch {
		case d == -1:
			if infer >= 0 {
				return nil, fmt.Errorf("shape %v has two -1", want)
			}
			infer = i
			continue
		case d == 0 && !allowZero:
			if i >= len(x.Shape) {
				return nil, fmt.Errorf("shape %v copies a missing dimension of %v", want, x.Shape)
			}
			shape[i] = x.Shape[i]
		case d < 0:
			return nil, fmt.Errorf("bad shape %v", want)
		default:
			shape[i] = int(d)
		}
		known *= shape[i]
	}
	if infer >= 0 {
		if known == 0 || x.Len()%known != 0 {
			return nil, fmt.Errorf("cannot reshape %v to %v", x.Shape, want)
		}
		shape[infer] = x.Len() / known
	}
	if numElems(shape) != x.Len() {
		return nil, fmt.Errorf("cannot reshape %v to %v", x.Shape, want)
	}
	out := *x
	out.Name = ""
	out.Shape = shape
	return &out, nil
}

// axesOf returns the axes of Unsqueeze or ReduceMean: the attribute in old
// opsets, the second input in new ones (13 for Unsqueeze, 18 for
// ReduceMean).
func axesOf(n *nodeProto, in []*Tensor, fromInput bool) ([]int64, error) {
	if !fromInput {
		return n.attrInts("axes"), nil
	}
	if len(in) < 2 || in[1] == nil {
		return nil, nil
	}
	return in[1].ints()
}

func opUnsqueeze(n *nodeProto, opset int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	x := in[0]
	axes, err := axesOf(n, in, opset >= 13)
	if err != nil {
		return nil, fmt.Errorf("axes: %w", err)
	}
	rank := len(x.Shape) + len(axes)
	ins := make([]bool, rank)
	for _, a := range axes {
		ax, err := normAxis(a, rank)
		if err != nil {
			return nil, err
		}
		if ins[ax] {
			return nil, fmt.Errorf("repeated axis %d", a)
		}
		ins[ax] = true
	}
	shape := make([]int, 0, rank)
	j := 0
	for i := 0; i < rank; i++ {
		if ins[i] {
			shape = append(shape, 1)
		} else {
			shape = append(shape, x.Shape[j])
			j++
		}
	}
	out := *x
	out.Name = ""
	out.Shape = shape
	return &out, nil
}

func opReduceMean(n *nodeProto, opset int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	x := in[0]
	if x.DType != Float32 {
		return nil, fmt.Errorf("want float input, got %s", x)
	}
	axes, err := axesOf(n, in, opset >= 18)
	if err != nil {
		return nil, fmt.Errorf("axes: %w", err)
	}
	rank := len(x.Shape)
	red := make([]bool, rank)
	if len(axes) == 0 {
		if n.attrInt("noop_with_empty_axes", 0) != 0 {
			return x, nil
		}
		for i := range red {
			red[i] = true
		}
	}
	for _, a := range axes {
		ax, err := normAxis(a, rank)
		if err != nil {
			return nil, err
		}
		red[ax] = true
	}
	keep := n.attrInt("keepdims", 1) != 0
	var shape, kept []int
	count := 1
	for i, d := range x.Shape {
		if red[i] {
			count *= d
			kept = append(kept, 1)
			if keep {
				shape = append(shape, 1)
			}
		} else {
			kept = append(kept, d)
			shape = append(shape, d)
		}
	}
	sum := make([]float64, numElems(kept))
	idx := broadcastIndex(kept, x.Shape) // input element -> output element
	for k, v := range x.F {
		sum[idx[k]] += float64(v)
	}
	out := newTensor(Float32, shape)
	for i, s := range sum {
		out.F[i] = float32(s / float64(count))
	}
	return out, nil
}

// opSlice is the opset >= 10 Slice: starts, ends and the optional axes
// and steps are inputs; out-of-range bounds are clamped.
func opSlice(n *nodeProto, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 3); err != nil {
		return nil, err
	}
	x := in[0]
	rank := len(x.Shape)
	starts, err := in[1].ints()
	if err != nil {
		return nil, fmt.Errorf("starts: %w", err)
	}
	ends, err := in[2].ints()
	if err != nil {
		return nil, fmt.Errorf("ends: %w", err)
	}
	if len(ends) != len(starts) {
		return nil, fmt.Errorf("%d starts and %d ends", len(starts), len(ends))
	}
	axes := make([]int64, len(starts))
	for i := range axes {
		axes[i] = int64(i)
	}
	if len(in) > 3 && in[3] != nil {
		if axes, err = in[3].ints(); err != nil {
			return nil, fmt.Errorf("axes: %w", err)
		}
	}
	steps := make([]int64, len(starts))
	for i := range steps {
		steps[i] = 1
	}
	if len(in) > 4 && in[4] != nil {
		if steps, err = in[4].ints(); err != nil {
			return nil, fmt.Errorf("steps: %w", err)
		}
	}
	if len(axes) != len(starts) || len(steps) != len(starts) {
		return nil, fmt.Errorf("starts, ends, axes and steps differ in length")
	}
	first := make([]int, rank)
	step := make([]int, rank)
	shape := append([]int(nil), x.Shape...)
	for i := range step {
		step[i] = 1
	}
	for i, a := range axes {
		ax, err := normAxis(a, rank)
		if err != nil {
			return nil, err
		}
		dim := int64(x.Shape[ax])
		s, e, st := starts[i], ends[i], steps[i]
		if st == 0 {
			return nil, fmt.Errorf("step 0")
		}
		if s < 0 {
			s += dim
		}
		if e < 0 {
			e += dim
		}
		var cnt int64
		if st > 0 {
			s, e = clamp(s, 0, dim), clamp(e, 0, dim)
			if e > s {
				cnt = (e - s + st - 1) / st
			}
		} else {
			s, e = clamp(s, 0, dim-1), clamp(e, -1, dim-1)
			if s > e {
				cnt = (s - e - st - 1) / -st
			}
		}
		first[ax], step[ax], shape[ax] = int(s), int(st), int(cnt)
	}
	out := newTensor(x.DType, shape)
	if out.Len() == 0 {
		return out, nil
	}
	xs := strides(x.Shape)
	e := elems{x, out}
	pos := make([]int, rank)
	for k := 0; k < out.Len(); k++ {
		src := 0
		for a, p := range pos {
			src += (first[a] + p*step[a]) * xs[a]
		}
		e.copy(k, src)
		for a := rank - 1; a >= 0; a-- {
			pos[a]++
			if pos[a] < shape[a] {
				break
			}
			pos[a] = 0
		}
	}
	return out, nil
}

func clamp(v, lo, hi int64) int64 {
	return min(max(v, lo), hi)
}
