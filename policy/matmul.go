package policy

import "fmt"

// The matrix products: MatMul and Gemm.

// opMatMul is numpy's matmul for float tensors of rank >= 2 (rank-1
// operands are promoted as numpy does), with broadcast batch dimensions.
func opMatMul(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
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

// matmul adds A [m,k] times B [k,n] into C [m,n]. Zeros of A are
// skipped: the policies' activations come out of ReLUs, one-hot codes and
// masks, and half or more of them are zero (adding 0*b changes nothing
// for finite weights).
func matmul(C, A, B []float32, m, k, n int) {
	if n < 16 && m >= 4*n {
		matmulNarrow(C, A, B, m, k, n)
		return
	}
	for i := 0; i < m; i++ {
		c := C[i*n : (i+1)*n]
		for p, x := range A[i*k : (i+1)*k] {
			if x != 0 {
				axpy(c, B[p*n:(p+1)*n], x)
			}
		}
	}
}

// matmulNarrow is matmul for a narrow B (few columns, many rows of A):
// B transposed once, each element of C a dot product over k contiguous
// floats, rather than k short axpys.
func matmulNarrow(C, A, B []float32, m, k, n int) {
	bt := make([]float32, n*k)
	for p := 0; p < k; p++ {
		for j := 0; j < n; j++ {
			bt[j*k+p] = B[p*n+j]
		}
	}
	for i := 0; i < m; i++ {
		a := A[i*k : (i+1)*k]
		c := C[i*n : (i+1)*n]
		for j := range c {
			c[j] += dot(a, bt[j*k:(j+1)*k])
		}
	}
}

// dot is the dot product of a and b (len(b) >= len(a)), summed in order.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s float32
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

// axpy adds x*b to c (len(b) >= len(c)).
func axpy(c, b []float32, x float32) {
	b = b[:len(c)]
	for j := range c {
		c[j] += x * b[j]
	}
}

// opGemm is alpha*A'*B' + beta*C for 2-D A and B (' = optional transpose).
func opGemm(n *Node, _ int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 2); err != nil {
		return nil, err
	}
	a, b := in[0], in[1]
	if a.DType != Float32 || b.DType != Float32 || len(a.Shape) != 2 || len(b.Shape) != 2 {
		return nil, fmt.Errorf("want 2-D float inputs, got %s and %s", a, b)
	}
	alpha, beta := float32(1), float32(1)
	if x, ok := n.Attrs["alpha"]; ok {
		alpha = x.F
	}
	if x, ok := n.Attrs["beta"]; ok {
		beta = x.F
	}
	ta, tb := n.AttrInt("transA", 0) != 0, n.AttrInt("transB", 0) != 0
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
