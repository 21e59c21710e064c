package cppexport

import (
	"fmt"
	"strings"
)

// The matrix products with a constant B whose rows are a multiple of four
// floats long: B is copied once, when the player is created, into an array
// of jgym_v4 (v4CC), and each row of C is accumulated in blocks of at most
// 32 columns held in registers.

// constV4 returns the member holding the constant B [k, nn] (or, when
// trans, the constant [nn, k] transposed) as k * nn/4 jgym_v4, row p's
// columns 4q..4q+3 at p * nn/4 + q, writing its filling function the first
// time.
func (e *emitter) constV4(b *value, trans bool, k, nn int) string {
	id := b.id + "v4_"
	if trans {
		id = b.id + "v4t_"
	}
	if e.v4s == nil {
		e.v4s = map[string]bool{}
	}
	if e.v4s[id] {
		return id
	}
	e.v4s[id] = true
	e.p.v4 = true
	e.p.scratch = append(e.p.scratch, scratch{id, "jgym_v4", max(k*nn/4, 1)})
	e.p.init = append(e.p.init, "prep_"+id+"();")
	elems := make([]string, 4)
	for q := range elems {
		if trans {
			elems[q] = fmt.Sprintf("b[(4 * q + %d) * %d + p]", q, k)
		} else {
			elems[q] = fmt.Sprintf("b[p * %d + 4 * q + %d]", nn, q)
		}
	}
	f := &e.funcs
	f.line("")
	f.line("// %s as %d rows of %d jgym_v4 (a matrix product's B).", b.id, k, nn/4)
	f.open("void prep_%s()", id)
	f.line("const float* b = %s;", ptr(b))
	f.line("for (int p = 0; p < %d; ++p) for (int q = 0; q < %d; ++q) { const jgym_v4 v = {%s}; %s[p * %d + q] = v; }",
		k, nn/4, strings.Join(elems, ", "), id, nn/4)
	f.close()
	return id
}

// matmulV4 emits C[m,nn] = A[m,k] B[k,nn] for B a jgym_v4 array (constV4;
// bOff its first row, in jgym_v4) as the interpreter computes it
// (policy/matmul.go): each element of C starts at zero and adds A[i,p] *
// B[p,j] for p = 0..k-1, the zeros of A skipped as the interpreter skips
// them. The nonzero entries of a row of A longer than 8 are listed once,
// then each block of at most 32 columns adds them up in registers.
func (e *emitter) matmulV4(m, k, nn int, bv, bOff, c, cOff string, aAt func(i, p string) string) {
	nv := nn / 4
	blk := min(nv, 8)
	e.body.open("for (int i = 0; i < %d; ++i)", m)
	list := k > 8 // a short row of A is read again by each block
	if list {
		e.body.line("int nzp[%d];", k)
		e.body.line("float nzx[%d];", k)
		e.body.line("int nz = 0;")
		e.body.line("for (int p = 0; p < %d; ++p) { const float x = %s; if (x != 0.0f) { nzp[nz] = p; nzx[nz] = x; ++nz; } }", k, aAt("i", "p"))
	}
	e.body.line("float* ci = %s + %s + i * %d;", c, cOff, nn)
	for q0 := 0; q0 < nv; q0 += blk {
		n := min(blk, nv-q0)
		e.body.open("")
		accs := make([]string, n)
		for v := range accs {
			accs[v] = fmt.Sprintf("a%d = {0.0f, 0.0f, 0.0f, 0.0f}", v)
		}
		e.body.line("jgym_v4 %s;", strings.Join(accs, ", "))
		if list {
			e.body.open("for (int t = 0; t < nz; ++t)")
			e.body.line("const jgym_v4 xv = {nzx[t], nzx[t], nzx[t], nzx[t]};")
			e.body.line("const jgym_v4* r = %s + %s + nzp[t] * %d + %d;", bv, bOff, nv, q0)
		} else {
			e.body.open("for (int p = 0; p < %d; ++p)", k)
			e.body.line("const float x = %s;", aAt("i", "p"))
			e.body.line("if (x == 0.0f) continue;")
			e.body.line("const jgym_v4 xv = {x, x, x, x};")
			e.body.line("const jgym_v4* r = %s + %s + p * %d + %d;", bv, bOff, nv, q0)
		}
		for v0 := 0; v0 < n; v0 += 4 {
			var parts []string
			for v := v0; v < min(v0+4, n); v++ {
				parts = append(parts, fmt.Sprintf("a%d += xv * r[%d];", v, v))
			}
			e.body.line("%s", strings.Join(parts, " "))
		}
		e.body.close()
		e.body.open("for (int q = 0; q < 4; ++q)")
		for v := 0; v < n; v++ {
			e.body.line("ci[%d + q] = a%d[q];", 4*(q0+v), v)
		}
		e.body.close()
		e.body.close()
	}
	e.body.close()
}
