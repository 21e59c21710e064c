package policy

import (
	"fmt"
	"math"
)

// The element-wise operators: Add and Mul with numpy broadcasting, Where,
// Relu and Cast.

func opAdd(n *Node, _ int64, in []*Tensor) (*Tensor, error) { return elementwise(in, false) }

func opMul(n *Node, _ int64, in []*Tensor) (*Tensor, error) { return elementwise(in, true) }

// elementwise applies a*b (mul) or a+b with numpy broadcasting.
func elementwise(in []*Tensor, mul bool) (*Tensor, error) {
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
	// Fast paths, without a call per element: the operands swapped so that
	// a has the output's shape (both operations commute), then b of the
	// same shape, a trailing block that repeats (a bias), or a leading
	// block whose every element repeats over the trailing axes (a mask).
	if a.DType == Float32 && !equalShape(a.Shape, shape) && equalShape(b.Shape, shape) {
		a, b = b, a
	}
	if a.DType == Float32 && equalShape(a.Shape, shape) {
		if fastFloat(out.F, a.F, b, shape, mul) {
			return out, nil
		}
	}
	ia, ib := broadcastIndex(a.Shape, shape), broadcastIndex(b.Shape, shape)
	switch {
	case a.DType == Float32 && mul:
		for k := range out.F {
			out.F[k] = a.F[ia[k]] * b.F[ib[k]]
		}
	case a.DType == Float32:
		for k := range out.F {
			out.F[k] = a.F[ia[k]] + b.F[ib[k]]
		}
	case mul:
		for k := range out.I {
			out.I[k] = a.I[ia[k]] * b.I[ib[k]]
		}
	default:
		for k := range out.I {
			out.I[k] = a.I[ia[k]] + b.I[ib[k]]
		}
	}
	return out, nil
}

// fastFloat writes a (of the output's shape) op b into out and reports
// true when b is the same shape, a trailing block (repeated) or a block of
// leading axes whose elements each repeat over the other axes; otherwise
// it writes nothing and reports false.
func fastFloat(out, a []float32, b *Tensor, shape []int, mul bool) bool {
	nb := len(b.F)
	if nb == 0 || len(a)%nb != 0 {
		return false
	}
	switch {
	case equalShape(b.Shape, shape) || isTrailing(b.Shape, shape):
		for lo := 0; lo < len(a); lo += nb {
			o, x := out[lo:lo+nb], a[lo:lo+nb]
			if mul {
				for i, y := range b.F {
					o[i] = x[i] * y
				}
			} else {
				for i, y := range b.F {
					o[i] = x[i] + y
				}
			}
		}
	case isLeading(b.Shape, shape):
		rep := len(a) / nb
		for j, y := range b.F {
			o, x := out[j*rep:(j+1)*rep], a[j*rep:(j+1)*rep]
			if mul {
				for i := range o {
					o[i] = x[i] * y
				}
			} else {
				for i := range o {
					o[i] = x[i] + y
				}
			}
		}
	default:
		return false
	}
	return true
}

// isLeading reports whether shape s (of out's rank) equals out on its
// first axes and is 1 on the others, so that each of its elements repeats
// over a contiguous run of out.
func isLeading(s, out []int) bool {
	if len(s) != len(out) {
		return false
	}
	i := 0
	for i < len(s) && s[i] == out[i] {
		i++
	}
	for j := i; j < len(s); j++ {
		if s[j] != 1 {
			return false
		}
	}
	return true
}

// isTrailing reports whether shape s, once its leading 1s are dropped,
// is a suffix of out (so that it repeats every NumElems(s) elements).
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

func opWhere(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
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

func opRelu(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
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
func opCast(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	a, ok := n.Attrs["to"]
	if !ok {
		return nil, fmt.Errorf("missing attribute \"to\"")
	}
	dt, err := DTypeOf(a.I)
	if err != nil {
		return nil, err
	}
	x := in[0]
	out := newTensor(dt, x.Shape)
	switch { // the casts a policy makes per cell, without a switch per element
	case x.DType == Int64 && dt == Float32:
		for i, v := range x.I {
			out.F[i] = float32(v)
		}
		return out, nil
	case x.DType == Float32 && dt == Int64:
		for i, v := range x.F {
			out.I[i] = int64(math.Trunc(float64(v)))
		}
		return out, nil
	case x.DType == Bool && dt == Float32:
		for i, v := range x.B {
			if v {
				out.F[i] = 1
			}
		}
		return out, nil
	}
	for i, total := 0, x.Len(); i < total; i++ {
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
