package policy

import "fmt"

// The data-movement operators: they copy elements without arithmetic
// (Concat, Gather, GatherElements, Transpose, Reshape, Unsqueeze, Slice).

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

func opConcat(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("no inputs")
	}
	first := in[0]
	axis, err := normAxis(n.AttrInt("axis", 0), len(first.Shape))
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
	outer := NumElems(shape[:axis])
	inner := NumElems(shape[axis+1:])
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
func opGather(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	data, idx := in[0], in[1]
	ix, err := idx.ints()
	if err != nil {
		return nil, fmt.Errorf("indices: %w", err)
	}
	axis, err := normAxis(n.AttrInt("axis", 0), len(data.Shape))
	if err != nil {
		return nil, err
	}
	shape := append(append(append([]int(nil), data.Shape[:axis]...), idx.Shape...), data.Shape[axis+1:]...)
	out := newTensor(data.DType, shape)
	outer := NumElems(data.Shape[:axis])
	inner := NumElems(data.Shape[axis+1:])
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
func opGatherElements(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
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
	axis, err := normAxis(n.AttrInt("axis", 0), rank)
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
	ds := Strides(data.Shape)
	// base is the offset of the current position's axes other than axis,
	// kept as the position advances (an odometer over idx's shape).
	eff := append([]int(nil), ds...)
	eff[axis] = 0
	pos := make([]int, rank)
	dim, step, base := int64(data.Shape[axis]), ds[axis], 0
	for k, v := range ix {
		if v < 0 {
			v += dim
		}
		if v < 0 || v >= dim {
			return nil, fmt.Errorf("index %d out of range [0, %d)", ix[k], dim)
		}
		if src := base + int(v)*step; out.DType == Float32 {
			out.F[k] = data.F[src]
		} else {
			e.copy(k, src)
		}
		for a := rank - 1; a >= 0; a-- {
			pos[a]++
			base += eff[a]
			if pos[a] < idx.Shape[a] {
				break
			}
			base -= eff[a] * pos[a]
			pos[a] = 0
		}
	}
	return out, nil
}

func opTranspose(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	x := in[0]
	rank := len(x.Shape)
	perm := n.AttrInts("perm")
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
	xs := Strides(x.Shape)
	eff := make([]int, rank) // input stride of each output axis
	for i, p := range perm {
		eff[i] = xs[p]
	}
	total := out.Len()
	if x.DType == Float32 && total > 0 {
		transposeFloat(out.F, x.F, shape, eff)
		return out, nil
	}
	e := elems{x, out}
	pos := make([]int, rank)
	src := 0
	for k := 0; k < total; k++ {
		e.copy(k, src)
		src = odometer(pos, shape, eff, src)
	}
	return out, nil
}

// transposeFloat writes out (of shape) from x, where output axis a steps
// x by eff[a]: a row of the last axis at a time, the odometer of the
// others between rows.
func transposeFloat(out, x []float32, shape, eff []int) {
	rank := len(shape)
	last, step := shape[rank-1], eff[rank-1]
	pos := make([]int, rank-1)
	src := 0
	for k := 0; k < len(out); k += last {
		row := out[k : k+last]
		for j, s := 0, src; j < len(row); j, s = j+1, s+step {
			row[j] = x[s]
		}
		src = odometer(pos, shape, eff, src) // pos has the axes before the last
	}
}

func opReshape(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	x := in[0]
	want, err := in[1].ints()
	if err != nil {
		return nil, fmt.Errorf("shape: %w", err)
	}
	allowZero := n.AttrInt("allowzero", 0) != 0
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
	if NumElems(shape) != x.Len() {
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
func axesOf(n *Node, in []*Tensor, fromInput bool) ([]int64, error) {
	if !fromInput {
		return n.AttrInts("axes"), nil
	}
	if len(in) < 2 || in[1] == nil {
		return nil, nil
	}
	return in[1].ints()
}

func opUnsqueeze(n *Node, opset int64, in []*Tensor) (*Tensor, error) {
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

// opSlice is the opset >= 10 Slice: starts, ends and the optional axes
// and steps are inputs; out-of-range bounds are clamped.
func opSlice(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
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
	xs := Strides(x.Shape)
	e := elems{x, out}
	pos := make([]int, rank)
	total := out.Len()
	for k := 0; k < total; k++ {
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
