package cppexport

import (
	"fmt"
	"jgym/policy"
	"math"
)

// The matrix products (policy/matmul.go): MatMul and Gemm.

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

func emitMatMul(e *emitter, n *policy.Node) error {
	a, b, o := e.in(n, 0), e.in(n, 1), e.out(n)
	if a == nil || b == nil || a.dt != policy.Float32 || b.dt != policy.Float32 {
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
	if b.konst != nil && nn%4 == 0 && finite(b.konst.F) {
		bv := e.constV4(b, false, k*b.len()/(k*nn), nn)
		e.matmulV4(m, k, nn, bv, "("+index(vars, scale(eb, k*nn), 0)+") / 4", ptr(o), index(vars, scale(strides(batch), m*nn), 0),
			func(i, p string) string { return fmt.Sprintf("%s[%s + %s * %d + %s]", ptr(a), aOff, i, k, p) })
		e.closeLoops(lk)
		e.body.close()
		return nil
	}
	e.matmul(m, k, nn, ptr(b), index(vars, scale(eb, k*nn), 0), ptr(o), index(vars, scale(strides(batch), m*nn), 0),
		func(i, p string) string { return fmt.Sprintf("%s[%s + %s * %d + %s]", ptr(a), aOff, i, k, p) })
	e.closeLoops(lk)
	e.body.close()
	return nil
}

func emitGemm(e *emitter, n *policy.Node) error {
	a, b, c, o := e.in(n, 0), e.in(n, 1), e.in(n, 2), e.out(n)
	if a == nil || b == nil || a.dt != policy.Float32 || b.dt != policy.Float32 || len(a.shape) != 2 || len(b.shape) != 2 {
		return unsupported(n, "inputs %v and %v", typeOf(a), typeOf(b))
	}
	ta, tb := n.AttrInt("transA", 0) != 0, n.AttrInt("transB", 0) != 0
	alpha, beta := n.AttrFloat("alpha", 1), n.AttrFloat("beta", 1)
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
	A := ptr(a)
	aAt := func(i, p string) string { return fmt.Sprintf("%s[%s * %d + %s]", A, i, k, p) }
	if ta {
		aAt = func(i, p string) string { return fmt.Sprintf("%s[%s * %d + %s]", A, p, m, i) }
	}
	B := ptr(b)
	if b.konst != nil && nn%4 == 0 && finite(b.konst.F) {
		e.matmulV4(m, k, nn, e.constV4(b, tb, k, nn), "0", ptr(o), "0", aAt)
	} else if tb {
		// The interpreter transposes B first (a copy): so does the C++.
		B = o.id + "bt_"
		e.p.scratch = append(e.p.scratch, scratch{B, "float", k * nn})
		e.body.line("for (int i = 0; i < %d; ++i) for (int j = 0; j < %d; ++j) %s[j * %d + i] = %s[i * %d + j];", nn, k, B, nn, ptr(b), k)
		e.matmul(m, k, nn, B, "0", ptr(o), "0", aAt)
	} else {
		e.matmul(m, k, nn, B, "0", ptr(o), "0", aAt)
	}
	e.body.line("float* C = %s;", ptr(o))
	if alpha != 1 {
		e.body.line("for (int i = 0; i < %d; ++i) C[i] *= %s;", m*nn, floatLit(alpha))
	}
	if c != nil {
		if c.dt != policy.Float32 {
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

// finite reports whether every float of f is finite: a product with such
// a B may skip the zeros of A, as the interpreter does, whatever path of
// policy/matmul.go it takes (0 * b is then a zero, which adds nothing to a
// sum that starts at +0).
func finite(f []float32) bool {
	for _, x := range f {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
