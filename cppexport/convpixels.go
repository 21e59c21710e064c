package cppexport

import (
	"fmt"
	"strings"
)

// emitConvPixels writes a convolution of one group whose output channels
// come in multiples of four as the member function fn, one output pixel
// at a time: a block of the pixel's output channels (at most 32) is
// accumulated at once, four channels to a jgym_v4 (v4CC), over the taps in
// the interpreter's order (input channel c, then kernel row ky, then
// kernel column kx, the taps in the zero padding skipped), so every
// output element is still the same sequence of float operations as in
// policy/conv.go: it starts at its bias (or zero) and adds w * x tap after
// tap, each product and sum rounded to float. The accumulators stay in
// registers, and each tap costs one multiply and one add per four
// channels. The kernel is read from a copy of the weights laid out
// [c][ky][kx][m] (wt), made once when the player is created (constant
// weights) or at the start of each call (weights computed by the graph).
func emitConvPixels(e *emitter, fn, name string, x, w, b, o *value, pads [4]int, stride, dil [2]int) {
	N, C, H, W := x.shape[0], x.shape[1], x.shape[2], x.shape[3]
	M, KH, KW := w.shape[0], w.shape[2], w.shape[3]
	OH, OW := o.shape[2], o.shape[3]
	sh, sw, dh, dw := stride[0], stride[1], dil[0], dil[1]
	taps, mv := C*KH*KW, M/4
	wt := o.id + "wt_"
	e.p.scratch = append(e.p.scratch, scratch{wt, "jgym_v4", taps * mv})
	e.p.v4 = true

	// The transposed kernel: channels m..m+3 of tap t are wt[t * M/4 + m/4].
	elems := make([]string, 4)
	for q := range elems {
		elems[q] = fmt.Sprintf("w[(4 * q + %d) * %d + t]", q, taps)
	}
	transpose := fmt.Sprintf("for (int t = 0; t < %d; ++t) for (int q = 0; q < %d; ++q) { const jgym_v4 v = {%s}; %s[t * %d + q] = v; }",
		taps, mv, strings.Join(elems, ", "), wt, mv)
	f := &e.funcs
	if w.konst != nil {
		prep := "prep_" + fn
		e.p.init = append(e.p.init, prep+"();")
		f.line("")
		f.line("// %s's kernel laid out [c][ky][kx][m], four channels to a jgym_v4.", fn)
		f.open("void %s()", prep)
		f.line("const float* w = %s;", ptr(w))
		f.line("%s", transpose)
		f.close()
	}
	f.line("")
	f.line("// %s (Conv %dx%d, dilation %dx%d, pads %v, stride %dx%d): %s%v -> %s%v, pixel by pixel",
		sanitize(name), KH, KW, dh, dw, pads, sh, sw, x.id, x.shape, o.id, o.shape)
	f.open("void %s()", fn)
	if w.konst == nil {
		f.line("const float* w = %s;", ptr(w))
		f.line("%s", transpose)
	}
	f.line("const float* x = %s;", ptr(x))
	if b != nil {
		f.line("const float* bias = %s;", ptr(b))
	}
	f.line("float* y = %s;", ptr(o))
	if N > 1 {
		f.open("for (int n = 0; n < %d; ++n)", N)
	} else {
		f.line("const int n = 0;")
	}
	f.open("for (int oy = 0; oy < %d; ++oy)", OH)
	f.line("const int iy0 = oy * %d - %d;  // the input row of ky = 0", sh, pads[0])
	f.line("int kylo = 0, kyhi = %d;  // the kernel rows inside the input", KH)
	f.line("while (kylo < %d && iy0 + kylo * %d < 0) ++kylo;", KH, dh)
	f.line("while (kyhi > kylo && iy0 + (kyhi - 1) * %d >= %d) --kyhi;", dh, H)
	mb := convBlock(M)
	nv := mb / 4
	// Columns ox in [oxlo, oxhi) have every kernel column inside the
	// input: there px pixels are computed at once, the taps written out.
	oxlo, oxhi := (pads[1]+sw-1)/sw, 0
	if last := W - 1 + pads[1] - (KW-1)*dw; last >= 0 {
		oxhi = min(last/sw+1, OW)
	}
	px := 1
	if nv <= 6 && KW <= 7 {
		px = 2
	}
	f.open("for (int ox = 0; ox < %d;)", OW)
	if oxlo < oxhi {
		f.open("if (ox >= %d && ox + %d <= %d)", oxlo, px, oxhi)
		f.line("const float* in = x + n * %d + ox * %d - %d;  // pixel ox's input column of kx = 0, channel 0", C*H*W, sw, pads[1])
		convBlockLoop(f, M, nv, px, b != nil, func(f *code) {
			f.open("for (int c = 0; c < %d; ++c)", C)
			f.open("for (int ky = kylo; ky < kyhi; ++ky)")
			f.line("const float* row = in + c * %d + (iy0 + ky * %d) * %d;", H*W, dh, W)
			f.line("const jgym_v4* wk = %s + (c * %d + ky) * %d + m0 / 4;", wt, KH, KW*mv)
			for kx := 0; kx < KW; kx++ {
				f.open("")
				for p := 0; p < px; p++ {
					f.line("const float s%d = row[%d];", p, p*sw+kx*dw)
					f.line("const jgym_v4 x%d = {s%d, s%d, s%d, s%d};", p, p, p, p, p)
				}
				f.line("const jgym_v4* wv = wk + %d;", kx*mv)
				convTap(f, nv, px)
				f.close()
			}
			f.close()
			f.close()
		}, OH, OW)
		f.line("ox += %d;", px)
		f.line("continue;")
		f.close()
	}
	f.line("const int ix0 = ox * %d - %d;  // the input column of kx = 0", sw, pads[1])
	f.line("int kxlo = 0, kxhi = %d;  // the kernel columns inside the input", KW)
	f.line("while (kxlo < %d && ix0 + kxlo * %d < 0) ++kxlo;", KW, dw)
	f.line("while (kxhi > kxlo && ix0 + (kxhi - 1) * %d >= %d) --kxhi;", dw, W)
	convBlockLoop(f, M, nv, 1, b != nil, func(f *code) {
		f.open("for (int c = 0; c < %d; ++c)", C)
		f.line("const float* xc = x + (n * %d + c) * %d;", C, H*W)
		f.open("for (int ky = kylo; ky < kyhi; ++ky)")
		f.line("const float* row = xc + (iy0 + ky * %d) * %d;", dh, W)
		f.line("const jgym_v4* wk = %s + (c * %d + ky) * %d + m0 / 4;", wt, KH, KW*mv)
		f.open("for (int kx = kxlo; kx < kxhi; ++kx)")
		f.line("const float s0 = row[ix0 + kx * %d];", dw)
		f.line("const jgym_v4 x0 = {s0, s0, s0, s0};")
		f.line("const jgym_v4* wv = wk + kx * %d;", mv)
		convTap(f, nv, 1)
		f.close()
		f.close()
		f.close()
	}, OH, OW)
	f.line("++ox;")
	f.close()
	f.close()
	if N > 1 {
		f.close()
	}
	f.close()
}

// convBlock is the number of output channels (a multiple of four, M is
// one) accumulated at once: all of them up to 32 (8 accumulators of the
// 16 SSE registers), else the largest of 16, 8 and 4 that divides M.
func convBlock(m int) int {
	if m <= 32 {
		return m
	}
	for _, b := range []int{16, 8} {
		if m%b == 0 {
			return b
		}
	}
	return 4
}

// v4CC declares jgym_v4, four floats that the convolutions operate on at
// once: g++'s and clang's vector extension, whose element-wise * and +=
// are IEEE float operations like the scalar ones (each rounded to float;
// the file forbids contracting them into fused multiply-adds), else a
// plain struct with the same operations, element by element.
const v4CC = `
// Four floats operated on at once, element by element (the convolutions).
#if defined(__GNUC__) && !defined(JGYM_PLAIN_V4)
typedef float jgym_v4 __attribute__((vector_size(16)));
#else
struct jgym_v4 {
  float e[4];
  float operator[](int i) const { return e[i]; }
  jgym_v4 operator*(const jgym_v4& o) const {
    jgym_v4 r;
    for (int i = 0; i < 4; ++i) r.e[i] = e[i] * o.e[i];
    return r;
  }
  jgym_v4& operator+=(const jgym_v4& o) {
    for (int i = 0; i < 4; ++i) e[i] += o.e[i];
    return *this;
  }
};
#endif
`

// convBlockLoop writes the loop over the blocks of output channels of px
// pixels (ox, ox+1, ...): the accumulators a<pixel>_<vector> start at the
// bias (or zero), taps adds the taps, and the sums are stored.
func convBlockLoop(f *code, M, nv, px int, bias bool, taps func(f *code), OH, OW int) {
	mb := nv * 4
	if mb < M {
		f.open("for (int m0 = 0; m0 < %d; m0 += %d)", M, mb)
	} else {
		f.open("")
		f.line("const int m0 = 0;")
	}
	for p := 0; p < px; p++ {
		accs := make([]string, nv)
		for v := range accs {
			if bias {
				accs[v] = fmt.Sprintf("a%d_%d = {bias[m0 + %d], bias[m0 + %d], bias[m0 + %d], bias[m0 + %d]}", p, v, 4*v, 4*v+1, 4*v+2, 4*v+3)
			} else {
				accs[v] = fmt.Sprintf("a%d_%d = {0.0f, 0.0f, 0.0f, 0.0f}", p, v)
			}
		}
		f.line("jgym_v4 %s;", strings.Join(accs, ", "))
	}
	taps(f)
	f.line("float* yo = y + ((n * %d + m0) * %d + oy) * %d + ox;", M, OH, OW)
	f.open("for (int q = 0; q < 4; ++q)")
	for p := 0; p < px; p++ {
		for v := 0; v < nv; v++ {
			f.line("yo[(%d + q) * %d + %d] = a%d_%d[q];", 4*v, OH*OW, p, p, v)
		}
	}
	f.close()
	f.close()
}

// convTap writes the products and sums of one tap: each pixel p's
// accumulators add wv[v] * x<p>.
func convTap(f *code, nv, px int) {
	for p := 0; p < px; p++ {
		for v0 := 0; v0 < nv; v0 += 4 {
			var parts []string
			for v := v0; v < min(v0+4, nv); v++ {
				parts = append(parts, fmt.Sprintf("a%d_%d += wv[%d] * x%d;", p, v, v, p))
			}
			f.line("%s", strings.Join(parts, " "))
		}
	}
}
