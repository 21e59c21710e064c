package policy

import "fmt"

// ReduceMean, the only reduction operator: the mean over some axes,
// summed in float64 in input order.

func opReduceMean(n *Node, opset int64, in []*Tensor) (*Tensor, error) {
	if err := needInputs(in, 1); err != nil {
		return nil, err
	}
	x := in[0]
	if x.DType != Float32 {
		return nil, fmt.Errorf("want float input, got %s", x)
	}
	axes, err := axesOf(n, in, opset >= 18)
	if err != nil {
		return nil, fmt.Errorf("axes: %w", err)
	}
	rank := len(x.Shape)
	red := make([]bool, rank)
	if len(axes) == 0 {
		if n.AttrInt("noop_with_empty_axes", 0) != 0 {
			return x, nil
		}
		for i := range red {
			red[i] = true
		}
	}
	for _, a := range axes {
		ax, err := normAxis(a, rank)
		if err != nil {
			return nil, err
		}
		red[ax] = true
	}
	keep := n.AttrInt("keepdims", 1) != 0
	var shape, kept []int
	count := 1
	for i, d := range x.Shape {
		if red[i] {
			count *= d
			kept = append(kept, 1)
			if keep {
				shape = append(shape, 1)
			}
		} else {
			kept = append(kept, d)
			shape = append(shape, d)
		}
	}
	sum := make([]float64, NumElems(kept))
	idx := broadcastIndex(kept, x.Shape) // input element -> output element
	for k, v := range x.F {
		sum[idx[k]] += float64(v)
	}
	out := newTensor(Float32, shape)
	for i, s := range sum {
		out.F[i] = float32(s / float64(count))
	}
	return out, nil
}
