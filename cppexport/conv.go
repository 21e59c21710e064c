package cppexport

import (
	"fmt"
	"strings"

	"jgym/policy"
)

// emitConv writes a 2-D convolution as a member function. The interpreter
// (policy/conv.go) starts every output element at the bias
// (or zero) and adds w * x for input channel c, then kernel row ky, then
// kernel column kx, in increasing order, skipping the taps that fall in
// the zero padding. The C++ keeps exactly that sequence per element; only
// the order in which elements are computed differs: a block of output
// channels of one output row is accumulated at once in local arrays, so
// that each input row is loaded once for several channels and the inner
// loop over the row's columns vectorizes (SSE at -O2).
func emitConv(e *emitter, n *policy.Node) error {
	x, w, b, o := e.in(n, 0), e.in(n, 1), e.in(n, 2), e.out(n)
	if x == nil || w == nil || x.dt != policy.Float32 || w.dt != policy.Float32 || len(x.shape) != 4 || len(w.shape) != 4 {
		return unsupported(n, "want 4-D float X and W, got %v and %v", typeOf(x), typeOf(w))
	}
	if a, ok := n.Attrs["auto_pad"]; ok && a.S != "" && a.S != "NOTSET" {
		return unsupported(n, "auto_pad=%s", a.S)
	}
	if b != nil && (b.dt != policy.Float32 || b.len() != w.shape[0]) {
		return unsupported(n, "bias %v", typeOf(b))
	}
	N, C, H, W := x.shape[0], x.shape[1], x.shape[2], x.shape[3]
	M, CG, KH, KW := w.shape[0], w.shape[1], w.shape[2], w.shape[3]
	group := int(n.AttrInt("group", 1))
	if group < 1 || C%group != 0 || M%group != 0 || C/group != CG {
		return unsupported(n, "group %d for X %v and W %v", group, x.shape, w.shape)
	}
	var pads [4]int
	if p := n.AttrInts("pads"); p != nil {
		if len(p) != 4 {
			return unsupported(n, "pads %v", p)
		}
		for i, v := range p {
			pads[i] = int(v)
		}
	}
	sh, sw, dh, dw := 1, 1, 1, 1
	if s := n.AttrInts("strides"); s != nil {
		if len(s) != 2 || s[0] < 1 || s[1] < 1 {
			return unsupported(n, "strides %v", s)
		}
		sh, sw = int(s[0]), int(s[1])
	}
	if d := n.AttrInts("dilations"); d != nil {
		if len(d) != 2 || d[0] < 1 || d[1] < 1 {
			return unsupported(n, "dilations %v", d)
		}
		dh, dw = int(d[0]), int(d[1])
	}
	OH, OW := o.shape[2], o.shape[3]
	fn := "conv_" + o.id
	e.header(n)
	e.body.line("%s();", fn)
	if group == 1 && M%4 == 0 {
		emitConvPixels(e, fn, n.Name, x, w, b, o, pads, [2]int{sh, sw}, [2]int{dh, dw})
		return nil
	}

	f := &e.funcs
	f.line("")
	f.line("// %s (Conv %dx%d, dilation %dx%d, pads %v, stride %dx%d, group %d): %s%v -> %s%v",
		sanitize(n.Name), KH, KW, dh, dw, pads, sh, sw, group, x.id, x.shape, o.id, o.shape)
	f.open("void %s()", fn)
	f.line("const float* x = %s;", ptr(x))
	f.line("const float* w = %s;", ptr(w))
	if b != nil {
		f.line("const float* bias = %s;", ptr(b))
	}
	f.line("float* y = %s;", ptr(o))
	mg := M / group // output channels per group
	K := 1
	for _, k := range []int{4, 3, 2} {
		if mg%k == 0 {
			K = k
			break
		}
	}
	list := func(format string) string {
		parts := make([]string, K)
		for q := range parts {
			parts[q] = strings.ReplaceAll(format, "#", fmt.Sprint(q))
		}
		return strings.Join(parts, " ")
	}
	if N > 1 {
		f.open("for (int n = 0; n < %d; ++n)", N)
	} else {
		f.line("const int n = 0;")
	}
	f.open("for (int m = 0; m < %d; m += %d)", M, K)
	if group > 1 {
		f.line("const int g = m / %d;  // the group of this block of output channels", mg)
	}
	for q := 0; q < K; q++ {
		f.line("const float* w%d = w + (m + %d) * %d;", q, q, CG*KH*KW)
	}
	f.open("for (int oy = 0; oy < %d; ++oy)", OH)
	accs := make([]string, K)
	for q := range accs {
		accs[q] = fmt.Sprintf("a%d[%d]", q, OW)
	}
	f.line("float %s;", strings.Join(accs, ", "))
	if b == nil {
		f.line("for (int ox = 0; ox < %d; ++ox) { %s }", OW, list("a#[ox] = 0.0f;"))
	} else {
		f.line("for (int ox = 0; ox < %d; ++ox) { %s }", OW, list("a#[ox] = bias[m + #];"))
	}
	f.open("for (int c = 0; c < %d; ++c)", CG)
	if group > 1 {
		f.line("const float* xc = x + (n * %d + g * %d + c) * %d;", C, CG, H*W)
	} else {
		f.line("const float* xc = x + (n * %d + c) * %d;", C, H*W)
	}
	f.open("for (int ky = 0; ky < %d; ++ky)", KH)
	if sh == 1 {
		f.line("const int iy = oy + ky * %d - %d;", dh, pads[0])
	} else {
		f.line("const int iy = oy * %d + ky * %d - %d;", sh, dh, pads[0])
	}
	f.line("if (iy < 0 || iy >= %d) continue;", H)
	f.line("const float* row = xc + iy * %d;", W)
	f.line("const int t = (c * %d + ky) * %d;", KH, KW)
	for kx := 0; kx < KW; kx++ {
		// Output columns whose input column ox*sw + off is inside [0, W),
		// as the interpreter computes them.
		off := kx*dw - pads[1]
		lo, hi := 0, OW
		if off < 0 {
			lo = (-off + sw - 1) / sw
		}
		if W-1-off < 0 {
			hi = 0
		} else if last := (W - 1 - off) / sw; last+1 < hi {
			hi = last + 1
		}
		if lo >= hi {
			continue // every column of this tap is padding
		}
		col := "ox"
		if sw != 1 {
			col = fmt.Sprintf("ox * %d", sw)
		}
		if off > 0 {
			col += fmt.Sprintf(" + %d", off)
		} else if off < 0 {
			col += fmt.Sprintf(" - %d", -off)
		}
		f.open("")
		f.line("%s", list(fmt.Sprintf("const float v# = w#[t + %d];", kx)))
		if sw == 1 {
			f.line("for (int ox = %d; ox < %d; ++ox) { const float xv = row[%s]; %s }", lo, hi, col, list("a#[ox] += v# * xv;"))
		} else {
			// Strided columns are gathered once into a contiguous row.
			f.line("float xs[%d];", OW)
			f.line("for (int ox = %d; ox < %d; ++ox) xs[ox] = row[%s];", lo, hi, col)
			f.line("for (int ox = %d; ox < %d; ++ox) { const float xv = xs[ox]; %s }", lo, hi, list("a#[ox] += v# * xv;"))
		}
		f.close()
	}
	f.close()
	f.close()
	f.line("float* yo = y + ((n * %d + m) * %d + oy) * %d;", M, OH, OW)
	f.line("for (int ox = 0; ox < %d; ++ox) { %s }", OW, list(fmt.Sprintf("yo[# * %d + ox] = a#[ox];", OH*OW)))
	f.close()
	f.close()
	if N > 1 {
		f.close()
	}
	f.close()
	return nil
}
