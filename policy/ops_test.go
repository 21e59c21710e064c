package policy

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// node builds a Node with attributes for direct operator calls.
func node(op string, attrs ...*Attribute) *Node {
	n := &Node{OpType: op, Name: op, Attrs: map[string]*Attribute{}}
	for _, a := range attrs {
		n.Attrs[a.Name] = a
	}
	return n
}

func aInt(name string, v int64) *Attribute      { return &Attribute{Name: name, I: v} }
func aInts(name string, v ...int64) *Attribute  { return &Attribute{Name: name, Ints: v} }
func aFloat(name string, v float32) *Attribute  { return &Attribute{Name: name, F: v} }
func aString(name, v string) *Attribute         { return &Attribute{Name: name, S: v} }
func aTensor(name string, t *Tensor) *Attribute { return &Attribute{Name: name, T: t} }

func f32(shape []int, v ...float32) *Tensor { return NewFloat32(shape, v) }
func i64(shape []int, v ...int64) *Tensor   { return NewInt64(shape, v) }
func bools(shape []int, v ...bool) *Tensor  { return NewBool(shape, v) }

// iota32 returns 0, 1, ... n-1 as float32.
func iota32(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return v
}

func TestOperators(t *testing.T) {
	tests := []struct {
		name  string
		n     *Node
		opset int64
		in    []*Tensor
		want  *Tensor
	}{
		{"Add same shape", node("Add"), 17, []*Tensor{f32([]int{2}, 1, 2), f32([]int{2}, 10, 20)}, f32([]int{2}, 11, 22)},
		{"Add broadcast row", node("Add"), 17, []*Tensor{f32([]int{2, 3}, iota32(6)...), f32([]int{3}, 10, 20, 30)}, f32([]int{2, 3}, 10, 21, 32, 13, 24, 35)},
		{"Add broadcast column", node("Add"), 17, []*Tensor{f32([]int{2, 1}, 1, 2), f32([]int{1, 3}, 10, 20, 30)}, f32([]int{2, 3}, 11, 21, 31, 12, 22, 32)},
		{"Add scalar first", node("Add"), 17, []*Tensor{f32(nil, 1), f32([]int{2}, 1, 2)}, f32([]int{2}, 2, 3)},
		{"Add int64", node("Add"), 17, []*Tensor{i64([]int{2}, 1, 2), i64([]int{1}, 5)}, i64([]int{2}, 6, 7)},
		{"Mul broadcast", node("Mul"), 17, []*Tensor{f32([]int{1, 2, 2}, 1, 2, 3, 4), f32([]int{2}, 10, 100)}, f32([]int{1, 2, 2}, 10, 200, 30, 400)},
		{"Where scalar else", node("Where"), 17, []*Tensor{bools([]int{2, 2}, true, false, false, true), f32([]int{2, 2}, 1, 2, 3, 4), f32(nil, -1e9)}, f32([]int{2, 2}, 1, -1e9, -1e9, 4)},
		{"Relu", node("Relu"), 17, []*Tensor{f32([]int{3}, -1, 0, 2)}, f32([]int{3}, 0, 0, 2)},
		{"Identity", node("Identity"), 17, []*Tensor{i64([]int{1}, 7)}, i64([]int{1}, 7)},
		{"Cast float to int truncates", node("Cast", aInt("to", onnxInt64)), 17, []*Tensor{f32([]int{4}, 2.7, -2.7, 3199, 0.5)}, i64([]int{4}, 2, -2, 3199, 0)},
		{"Cast uint8 to float", node("Cast", aInt("to", onnxFloat)), 17, []*Tensor{i64([]int{2}, 255, 3)}, f32([]int{2}, 255, 3)},
		{"Cast to bool", node("Cast", aInt("to", onnxBool)), 17, []*Tensor{f32([]int{2}, 0, 0.1)}, bools([]int{2}, false, true)},
		{"Constant value", node("Constant", aTensor("value", i64([]int{2}, -1, 4))), 17, nil, i64([]int{2}, -1, 4)},
		{"Constant value_float", node("Constant", aFloat("value_float", 2.5)), 17, nil, f32(nil, 2.5)},
		{"Constant value_ints", node("Constant", aInts("value_ints", 1, 2)), 17, nil, i64([]int{2}, 1, 2)},
		{"Concat last axis", node("Concat", aInt("axis", -1)), 17,
			[]*Tensor{f32([]int{2, 1}, 1, 2), f32([]int{2, 2}, 3, 4, 5, 6)}, f32([]int{2, 3}, 1, 3, 4, 2, 5, 6)},
		{"Concat axis 0", node("Concat", aInt("axis", 0)), 17,
			[]*Tensor{i64([]int{1}, 1), i64([]int{2}, 2, 3)}, i64([]int{3}, 1, 2, 3)},
		{"Gather embedding rows", node("Gather"), 17,
			[]*Tensor{f32([]int{3, 2}, iota32(6)...), i64([]int{2, 2}, 2, 0, 1, -1)}, f32([]int{2, 2, 2}, 4, 5, 0, 1, 2, 3, 4, 5)},
		{"Gather scalar index axis 1", node("Gather", aInt("axis", 1)), 17,
			[]*Tensor{i64([]int{2, 3, 2}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), i64(nil, 1)}, i64([]int{2, 2}, 2, 3, 8, 9)},
		{"GatherElements axis 1", node("GatherElements", aInt("axis", 1)), 17,
			[]*Tensor{f32([]int{1, 3, 2}, 0, 1, 10, 11, 20, 21), i64([]int{1, 2, 2}, 2, 0, 1, 1)}, f32([]int{1, 2, 2}, 20, 1, 10, 11)},
		{"MatMul 2-D", node("MatMul"), 17,
			[]*Tensor{f32([]int{2, 3}, 1, 2, 3, 4, 5, 6), f32([]int{3, 1}, 1, 0, -1)}, f32([]int{2, 1}, -2, -2)},
		{"MatMul batched by 2-D", node("MatMul"), 17,
			[]*Tensor{f32([]int{2, 1, 2}, 1, 2, 3, 4), f32([]int{2, 2}, 1, 0, 0, 1)}, f32([]int{2, 1, 2}, 1, 2, 3, 4)},
		{"MatMul vector", node("MatMul"), 17,
			[]*Tensor{f32([]int{2}, 1, 2), f32([]int{2, 2}, 1, 2, 3, 4)}, f32([]int{2}, 7, 10)},
		{"Gemm transB bias", node("Gemm", aInt("transB", 1), aFloat("alpha", 1), aFloat("beta", 1)), 17,
			[]*Tensor{f32([]int{1, 2}, 1, 2), f32([]int{3, 2}, 1, 0, 0, 1, 1, 1), f32([]int{3}, 10, 20, 30)}, f32([]int{1, 3}, 11, 22, 33)},
		{"Gemm alpha beta transA", node("Gemm", aInt("transA", 1), aFloat("alpha", 2), aFloat("beta", 0.5)), 17,
			[]*Tensor{f32([]int{2, 1}, 1, 2), f32([]int{2, 1}, 3, 4), f32(nil, 10)}, f32([]int{1, 1}, 27)},
		{"Transpose perm", node("Transpose", aInts("perm", 0, 2, 1)), 17,
			[]*Tensor{f32([]int{1, 2, 3}, iota32(6)...)}, f32([]int{1, 3, 2}, 0, 3, 1, 4, 2, 5)},
		{"Transpose default reverses", node("Transpose"), 17,
			[]*Tensor{i64([]int{2, 1, 2}, 1, 2, 3, 4)}, i64([]int{2, 1, 2}, 1, 3, 2, 4)},
		{"Reshape -1 and 0", node("Reshape"), 17,
			[]*Tensor{f32([]int{2, 3, 4}, iota32(24)...), i64([]int{3}, 0, -1, 2)}, f32([]int{2, 6, 2}, iota32(24)...)},
		{"Unsqueeze input axes", node("Unsqueeze"), 13,
			[]*Tensor{f32([]int{2, 3}, iota32(6)...), i64([]int{1}, 1)}, f32([]int{2, 1, 3}, iota32(6)...)},
		{"Unsqueeze attribute axes", node("Unsqueeze", aInts("axes", 0, -1)), 11,
			[]*Tensor{f32([]int{2}, 1, 2)}, f32([]int{1, 2, 1}, 1, 2)},
		{"ReduceMean axes 2 3", node("ReduceMean", aInts("axes", 2, 3), aInt("keepdims", 0)), 17,
			[]*Tensor{f32([]int{1, 2, 2, 2}, 1, 2, 3, 4, 10, 20, 30, 40)}, f32([]int{1, 2}, 2.5, 25)},
		{"ReduceMean keepdims", node("ReduceMean", aInts("axes", -1)), 17,
			[]*Tensor{f32([]int{2, 2}, 1, 3, 5, 7)}, f32([]int{2, 1}, 2, 6)},
		{"ReduceMean opset 18 input", node("ReduceMean", aInt("keepdims", 0)), 18,
			[]*Tensor{f32([]int{2, 2}, 1, 3, 5, 7), i64([]int{1}, 0)}, f32([]int{2}, 3, 5)},
		{"Slice last columns", node("Slice"), 17,
			[]*Tensor{f32([]int{2, 4}, iota32(8)...), i64([]int{1}, -1), i64([]int{1}, math.MaxInt64), i64([]int{1}, -1), i64([]int{1}, 1)},
			f32([]int{2, 1}, 3, 7)},
		{"Slice first columns", node("Slice"), 17,
			[]*Tensor{f32([]int{2, 4}, iota32(8)...), i64([]int{1}, 0), i64([]int{1}, 2), i64([]int{1}, 1)},
			f32([]int{2, 2}, 0, 1, 4, 5)},
		{"Slice steps and clamp", node("Slice"), 17,
			[]*Tensor{i64([]int{6}, 0, 1, 2, 3, 4, 5), i64([]int{1}, -100), i64([]int{1}, 100), nil, i64([]int{1}, 2)},
			i64([]int{3}, 0, 2, 4)},
		{"Slice negative step", node("Slice"), 17,
			[]*Tensor{i64([]int{4}, 0, 1, 2, 3), i64([]int{1}, -1), i64([]int{1}, math.MinInt64), i64([]int{1}, 0), i64([]int{1}, -1)},
			i64([]int{4}, 3, 2, 1, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ops[tt.n.OpType](tt.n, tt.opset, tt.in)
			if err != nil {
				t.Fatalf("%s = error %v", tt.n.OpType, err)
			}
			if !sameTensor(got, tt.want, 1e-6) {
				t.Errorf("%s = %v %v%v%v, want %v %v%v%v", tt.n.OpType, got.Shape, got.F, got.I, got.B, tt.want.Shape, tt.want.F, tt.want.I, tt.want.B)
			}
		})
	}
}

func sameTensor(a, b *Tensor, tol float64) bool {
	if a.DType != b.DType || len(a.Shape) != len(b.Shape) || (len(a.Shape) > 0 && !reflect.DeepEqual(a.Shape, b.Shape)) {
		return false
	}
	switch a.DType {
	case Float32:
		if len(a.F) != len(b.F) {
			return false
		}
		for i := range a.F {
			if math.Abs(float64(a.F[i]-b.F[i])) > tol*math.Max(1, math.Abs(float64(b.F[i]))) {
				return false
			}
		}
		return true
	case Int64:
		return reflect.DeepEqual(a.I, b.I)
	}
	return reflect.DeepEqual(a.B, b.B)
}

func TestOperatorErrors(t *testing.T) {
	tests := []struct {
		name string
		n    *Node
		in   []*Tensor
	}{
		{"Add shapes", node("Add"), []*Tensor{f32([]int{2}, 1, 2), f32([]int{3}, 1, 2, 3)}},
		{"Add types", node("Add"), []*Tensor{f32([]int{1}, 1), i64([]int{1}, 1)}},
		{"Gather out of range", node("Gather"), []*Tensor{f32([]int{2}, 1, 2), i64([]int{1}, 2)}},
		{"GatherElements out of range", node("GatherElements"), []*Tensor{f32([]int{2}, 1, 2), i64([]int{1}, -3)}},
		{"MatMul shapes", node("MatMul"), []*Tensor{f32([]int{1, 2}, 1, 2), f32([]int{3, 1}, 1, 2, 3)}},
		{"Reshape size", node("Reshape"), []*Tensor{f32([]int{4}, 1, 2, 3, 4), i64([]int{1}, 3)}},
		{"Cast without to", node("Cast"), []*Tensor{f32([]int{1}, 1)}},
		{"Cast to string", node("Cast", aInt("to", 8)), []*Tensor{f32([]int{1}, 1)}},
		{"Conv auto_pad", node("Conv", aString("auto_pad", "SAME_UPPER")), []*Tensor{f32([]int{1, 1, 1, 1}, 1), f32([]int{1, 1, 1, 1}, 1)}},
		{"Conv channels", node("Conv"), []*Tensor{f32([]int{1, 2, 1, 1}, 1, 2), f32([]int{1, 1, 1, 1}, 1)}},
		{"missing input", node("Relu"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := ops[tt.n.OpType](tt.n, 17, tt.in); err == nil {
				t.Errorf("%s = %v, want an error", tt.n.OpType, got)
			}
		})
	}
}

// convRef is a direct, obviously correct convolution to check opConv's
// loop bounds against.
func convRef(x, w, b *Tensor, pads [4]int, sh, sw, dh, dw, group int) *Tensor {
	N, C, H, W := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	M, CG, KH, KW := w.Shape[0], w.Shape[1], w.Shape[2], w.Shape[3]
	OH := (H+pads[0]+pads[2]-dh*(KH-1)-1)/sh + 1
	OW := (W+pads[1]+pads[3]-dw*(KW-1)-1)/sw + 1
	out := newTensor(Float32, []int{N, M, OH, OW})
	for n := 0; n < N; n++ {
		for m := 0; m < M; m++ {
			g := m / (M / group)
			for oy := 0; oy < OH; oy++ {
				for ox := 0; ox < OW; ox++ {
					s := 0.0
					if b != nil {
						s = float64(b.F[m])
					}
					for c := 0; c < CG; c++ {
						for ky := 0; ky < KH; ky++ {
							for kx := 0; kx < KW; kx++ {
								iy, ix := oy*sh+ky*dh-pads[0], ox*sw+kx*dw-pads[1]
								if iy < 0 || iy >= H || ix < 0 || ix >= W {
									continue
								}
								s += float64(x.F[((n*C+g*CG+c)*H+iy)*W+ix]) * float64(w.F[((m*CG+c)*KH+ky)*KW+kx])
							}
						}
					}
					out.F[((n*M+m)*OH+oy)*OW+ox] = float32(s)
				}
			}
		}
	}
	_ = C
	return out
}

func TestConvMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randT := func(shape ...int) *Tensor {
		v := make([]float32, NumElems(shape))
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return f32(shape, v...)
	}
	tests := []struct {
		name                  string
		c, m, h, w, kh, kw    int
		pads                  [4]int
		sh, sw, dh, dw, group int
		bias                  bool
	}{
		{"3x3 rows padded (as exported)", 4, 5, 6, 9, 3, 3, [4]int{1, 0, 1, 0}, 1, 1, 1, 1, 1, true},
		{"dilation 4", 3, 2, 10, 12, 3, 3, [4]int{4, 0, 4, 0}, 1, 1, 4, 4, 1, true},
		{"stride 2", 2, 3, 7, 10, 3, 3, [4]int{1, 0, 1, 0}, 2, 2, 1, 1, 1, true},
		{"all pads, no bias", 2, 2, 5, 5, 3, 2, [4]int{2, 1, 0, 3}, 1, 1, 1, 1, 1, false},
		{"groups", 4, 6, 5, 6, 3, 3, [4]int{1, 1, 1, 1}, 1, 2, 1, 1, 2, true},
		{"1x1", 3, 4, 2, 3, 1, 1, [4]int{}, 1, 1, 1, 1, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := randT(2, tt.c, tt.h, tt.w)
			w := randT(tt.m, tt.c/tt.group, tt.kh, tt.kw)
			var b *Tensor
			in := []*Tensor{x, w}
			if tt.bias {
				b = randT(tt.m)
				in = append(in, b)
			}
			n := node("Conv", aInts("pads", int64(tt.pads[0]), int64(tt.pads[1]), int64(tt.pads[2]), int64(tt.pads[3])),
				aInts("strides", int64(tt.sh), int64(tt.sw)), aInts("dilations", int64(tt.dh), int64(tt.dw)),
				aInt("group", int64(tt.group)), aInts("kernel_shape", int64(tt.kh), int64(tt.kw)))
			got, err := opConv(n, 17, in)
			if err != nil {
				t.Fatal(err)
			}
			want := convRef(x, w, b, tt.pads, tt.sh, tt.sw, tt.dh, tt.dw, tt.group)
			if !sameTensor(got, want, 1e-5) {
				t.Errorf("Conv shape %v, want %v; values differ beyond 1e-5", got.Shape, want.Shape)
			}
		})
	}
}

func TestBroadcastIndex(t *testing.T) {
	got := broadcastIndex([]int{3, 1}, []int{2, 3, 2})
	want := []int{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("broadcastIndex = %v, want %v", got, want)
	}
}

// The float32 fast paths of Transpose and Cast give what the generic,
// element-by-element path gives for the same values held as int64: random
// shapes of rank 1 to 4 and every permutation of their axes.
func TestFastPathsMatchGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var perms func(n int) [][]int64
	perms = func(n int) [][]int64 {
		if n == 1 {
			return [][]int64{{0}}
		}
		var out [][]int64
		for _, p := range perms(n - 1) {
			for at := 0; at <= len(p); at++ {
				q := append(append(append([]int64{}, p[:at]...), int64(n-1)), p[at:]...)
				out = append(out, q)
			}
		}
		return out
	}
	for rank := 1; rank <= 4; rank++ {
		for range 5 {
			shape := make([]int, rank)
			for a := range shape {
				shape[a] = 1 + rng.IntN(4)
			}
			n := NumElems(shape)
			fv, iv := make([]float32, n), make([]int64, n)
			for k := range fv {
				iv[k] = int64(rng.IntN(1000))
				fv[k] = float32(iv[k])
			}
			for _, p := range perms(rank) {
				nd := node("Transpose", aInts("perm", p...))
				gf, err := opTranspose(nd, 17, []*Tensor{f32(shape, fv...)})
				if err != nil {
					t.Fatal(err)
				}
				gi, err := opTranspose(nd, 17, []*Tensor{i64(shape, iv...)})
				if err != nil {
					t.Fatal(err)
				}
				want := make([]float32, len(gi.I))
				for k, v := range gi.I {
					want[k] = float32(v)
				}
				if !reflect.DeepEqual(gf.Shape, gi.Shape) || !reflect.DeepEqual(gf.F, want) {
					t.Fatalf("shape %v perm %v: float %v, generic %v", shape, p, gf.F, gi.I)
				}
			}
		}
	}
	b := &Tensor{DType: Bool, Shape: []int{2, 2}, B: []bool{true, false, false, true}}
	got, err := opCast(node("Cast", &Attribute{Name: "to", I: int64(onnxFloat)}), 17, []*Tensor{b})
	if err != nil || !reflect.DeepEqual(got.F, []float32{1, 0, 0, 1}) {
		t.Errorf("Cast bool to float = %v, %v", got, err)
	}
}
