package policy

import (
	"fmt"
	"math"
)

// The element-wise operators: Add and Mul with numpy broadcasting, Where,
// Relu and Cast.

func opAdd(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	return elementwise(in, func(a, b float32) float32 { return a + b }, func(a, b int64) int64 { return a + b })
}

func opMul(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
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
