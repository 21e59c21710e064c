package cppexport

import "jgym/policy"

// ReduceMean (policy/reduce.go): sums in double in input order.

func emitReduceMean(e *emitter, n *policy.Node) error {
	x, o := e.in(n, 0), e.out(n)
	if x == nil || x.dt != policy.Float32 {
		return unsupported(n, "input of type %v", typeOf(x))
	}
	var axes []int64
	if e.p.model.Opset >= 18 {
		a, _, err := constInts(n, 1, e.p.vals)
		if err != nil {
			return err
		}
		axes = a
	} else {
		axes = n.AttrInts("axes")
	}
	rank := len(x.shape)
	red := make([]bool, rank)
	if len(axes) == 0 {
		if n.AttrInt("noop_with_empty_axes", 0) != 0 {
			return emitAlias(e, n)
		}
		for i := range red {
			red[i] = true
		}
	}
	for _, a := range axes {
		ax, err := normAxis(n, a, rank)
		if err != nil {
			return err
		}
		red[ax] = true
	}
	kept := make([]int, rank)
	count := 1
	for i, d := range x.shape {
		if red[i] {
			kept[i] = 1
			count *= d
		} else {
			kept[i] = d
		}
	}
	ks, err := bcast(kept, x.shape)
	if err != nil {
		return unsupported(n, "%v", err)
	}
	nk := numElems(kept)
	e.p.scratch = append(e.p.scratch, scratch{o.id + "sum_", "double", nk})
	e.header(n)
	e.body.open("")
	e.body.line("// Sums in double, in the order of the input, as the interpreter.")
	e.body.line("const float* x = %s;", ptr(x))
	e.body.line("double* s = %ssum_;", o.id)
	e.body.line("float* y = %s;", ptr(o))
	e.body.line("for (int i = 0; i < %d; ++i) s[i] = 0;", nk)
	sh, st := coalesce(x.shape, ks, strides(x.shape))
	vars, lk := e.loops(sh)
	e.body.line("s[%s] += (double)x[%s];", index(vars, st[0], 0), index(vars, st[1], 0))
	e.closeLoops(lk)
	e.body.line("for (int i = 0; i < %d; ++i) y[i] = (float)(s[i] / %d.0);", nk, count)
	e.body.close()
	return nil
}
