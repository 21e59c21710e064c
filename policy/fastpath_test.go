package policy

import (
	"math/rand/v2"
	"testing"
)

// randTensor is a float tensor of shape with values in [-2, 2), a third of
// them zero (as ReLU outputs and masks are).
func randTensor(r *rand.Rand, shape []int) *Tensor {
	t := newTensor(Float32, shape)
	for i := range t.F {
		if r.IntN(3) > 0 {
			t.F[i] = r.Float32()*4 - 2
		}
	}
	return t
}

// TestElementwiseFastPaths checks Add and Mul against the general
// broadcasting loop, for the shapes the fast paths take (same shape,
// trailing block, leading block, either operand the larger) and others.
func TestElementwiseFastPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pairs := [][2][]int{
		{{2, 3, 4}, {2, 3, 4}},
		{{2, 3, 4}, {4}},
		{{2, 3, 4}, {1, 3, 4}},
		{{4}, {2, 3, 4}},
		{{2, 3, 4}, {2, 3, 1}},
		{{2, 3, 1}, {2, 3, 4}},
		{{2, 3, 4}, {2, 1, 1}},
		{{2, 3, 4}, {1, 3, 1}}, // neither: the general loop
		{{2, 1, 4}, {1, 3, 1}},
		{{2, 3, 4}, nil},
		{{1, 80, 200}, {1, 80, 1}},
	}
	for _, p := range pairs {
		a, b := randTensor(r, p[0]), randTensor(r, p[1])
		shape, err := broadcastShape(a.Shape, b.Shape)
		if err != nil {
			t.Fatal(err)
		}
		ia, ib := broadcastIndex(a.Shape, shape), broadcastIndex(b.Shape, shape)
		for _, op := range []string{"Add", "Mul"} {
			got, err := ops[op](node(op), 17, []*Tensor{a, b})
			if err != nil {
				t.Fatal(err)
			}
			want := newTensor(Float32, shape)
			for k := range want.F {
				if op == "Add" {
					want.F[k] = a.F[ia[k]] + b.F[ib[k]]
				} else {
					want.F[k] = a.F[ia[k]] * b.F[ib[k]]
				}
			}
			if !sameTensor(got, want, 0) {
				t.Errorf("%s %v %v: got %v, want %v", op, p[0], p[1], got.F, want.F)
			}
		}
	}
}

// TestMatMulPaths checks the products (the narrow path, zeros skipped)
// against the textbook triple loop, summing in the same order, exactly.
func TestMatMulPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, d := range [][3]int{{80, 200, 64}, {320, 80, 10}, {3200, 7, 8}, {5, 3, 2}, {64, 9, 15}, {8, 8, 16}} {
		m, k, n := d[0], d[1], d[2]
		a, b := randTensor(r, []int{m, k}), randTensor(r, []int{k, n})
		got, err := ops["MatMul"](node("MatMul"), 17, []*Tensor{a, b})
		if err != nil {
			t.Fatal(err)
		}
		want := newTensor(Float32, []int{m, n})
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				var s float32
				for p := 0; p < k; p++ {
					s += a.F[i*k+p] * b.F[p*n+j]
				}
				want.F[i*n+j] = s
			}
		}
		if !sameTensor(got, want, 0) {
			t.Errorf("MatMul %v: the sums differ", d)
		}
	}
}

// TestGatherElementsPath checks GatherElements against its definition on
// every axis of a rank-3 tensor.
func TestGatherElementsPath(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	data := randTensor(r, []int{3, 5, 4})
	for axis := 0; axis < 3; axis++ {
		shape := []int{2, 4, 3}
		idx := newTensor(Int64, shape)
		for i := range idx.I {
			idx.I[i] = int64(r.IntN(data.Shape[axis]))
		}
		got, err := ops["GatherElements"](node("GatherElements", aInt("axis", int64(axis))), 17, []*Tensor{data, idx})
		if err != nil {
			t.Fatal(err)
		}
		ds := Strides(data.Shape)
		want := newTensor(Float32, shape)
		k := 0
		for i := 0; i < shape[0]; i++ {
			for j := 0; j < shape[1]; j++ {
				for l := 0; l < shape[2]; l++ {
					pos := [3]int{i, j, l}
					pos[axis] = int(idx.I[k])
					want.F[k] = data.F[pos[0]*ds[0]+pos[1]*ds[1]+pos[2]*ds[2]]
					k++
				}
			}
		}
		if !sameTensor(got, want, 0) {
			t.Errorf("axis %d: got %v, want %v", axis, got.F, want.F)
		}
	}
}
