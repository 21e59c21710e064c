package cppexport

import "jgym/policy"

// The data-movement operators (policy/movement.go): they copy elements
// without arithmetic, or only view them with another shape (emitAlias).

// normAxis turns a possibly negative axis into 0..rank-1.
func normAxis(n *policy.Node, axis int64, rank int) (int, error) {
	a := int(axis)
	if a < 0 {
		a += rank
	}
	if a < 0 || a >= rank {
		return 0, unsupported(n, "axis %d for rank %d", axis, rank)
	}
	return a, nil
}

func emitGather(e *emitter, n *policy.Node) error {
	data, idx, o := e.in(n, 0), e.in(n, 1), e.out(n)
	if data == nil || idx == nil || idx.dt != policy.Int64 {
		return unsupported(n, "indices of type %v", typeOf(idx))
	}
	axis, err := normAxis(n, n.AttrInt("axis", 0), len(data.shape))
	if err != nil {
		return err
	}
	outer := numElems(data.shape[:axis])
	inner := numElems(data.shape[axis+1:])
	dim := data.shape[axis]
	ni := idx.len()
	e.header(n)
	e.body.open("")
	e.body.line("const %s* x = %s;", ctype(data.dt), ptr(data))
	e.body.line("const long long* ix = %s;", ptr(idx))
	e.body.line("%s* y = %s;", ctype(o.dt), ptr(o))
	e.body.open("for (int q = 0; q < %d; ++q)", ni)
	e.body.line("long long k = ix[q];")
	e.body.line("if (k < 0) k += %d;", dim)
	e.body.line("if (k < 0 || k >= %d) return false;", dim)
	vars, lk := e.loops([]int{outer, inner})
	e.body.line("y[%s] = x[%s + k * %d];", index([]string{vars[0], "q", vars[1]}, []int{ni * inner, inner, 1}, 0),
		index(vars, []int{dim * inner, 1}, 0), inner)
	e.closeLoops(lk)
	e.body.close()
	e.body.close()
	return nil
}

func emitGatherElements(e *emitter, n *policy.Node) error {
	data, idx, o := e.in(n, 0), e.in(n, 1), e.out(n)
	if data == nil || idx == nil || idx.dt != policy.Int64 || len(idx.shape) != len(data.shape) {
		return unsupported(n, "indices %v for data %v", typeOf(idx), typeOf(data))
	}
	rank := len(data.shape)
	axis, err := normAxis(n, n.AttrInt("axis", 0), rank)
	if err != nil {
		return err
	}
	ds := strides(data.shape)
	base := make([]int, rank)
	copy(base, ds)
	base[axis] = 0
	e.header(n)
	e.body.open("")
	e.body.line("const %s* x = %s;", ctype(data.dt), ptr(data))
	e.body.line("const long long* ix = %s;", ptr(idx))
	e.body.line("%s* y = %s;", ctype(o.dt), ptr(o))
	vars, k := e.loops(idx.shape)
	lin := index(vars, strides(idx.shape), 0)
	e.body.line("long long v = ix[%s];", lin)
	e.body.line("if (v < 0) v += %d;", data.shape[axis])
	e.body.line("if (v < 0 || v >= %d) return false;", data.shape[axis])
	e.body.line("y[%s] = x[%s + v * %d];", lin, index(vars, base, 0), ds[axis])
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitTranspose(e *emitter, n *policy.Node) error {
	x, o := e.in(n, 0), e.out(n)
	rank := len(x.shape)
	perm := n.AttrInts("perm")
	if perm == nil {
		for i := rank - 1; i >= 0; i-- {
			perm = append(perm, int64(i))
		}
	}
	if len(perm) != rank {
		return unsupported(n, "perm %v for rank %d", perm, rank)
	}
	xs := strides(x.shape)
	eff := make([]int, rank)
	for i, p := range perm {
		eff[i] = xs[p]
	}
	e.header(n)
	e.body.open("")
	e.body.line("const %s* x = %s;", ctype(x.dt), ptr(x))
	e.body.line("%s* y = %s;", ctype(o.dt), ptr(o))
	sh, st := coalesce(o.shape, strides(o.shape), eff)
	vars, k := e.loops(sh)
	e.body.line("y[%s] = x[%s];", index(vars, st[0], 0), index(vars, st[1], 0))
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitSlice(e *emitter, n *policy.Node) error {
	x, o := e.in(n, 0), e.out(n)
	rank := len(x.shape)
	starts, _, err := constInts(n, 1, e.p.vals)
	if err != nil {
		return err
	}
	ends, _, err := constInts(n, 2, e.p.vals)
	if err != nil {
		return err
	}
	axes, hasAxes, err := constInts(n, 3, e.p.vals)
	if err != nil {
		return err
	}
	steps, hasSteps, err := constInts(n, 4, e.p.vals)
	if err != nil {
		return err
	}
	if !hasAxes {
		axes = make([]int64, len(starts))
		for i := range axes {
			axes[i] = int64(i)
		}
	}
	if !hasSteps {
		steps = make([]int64, len(starts))
		for i := range steps {
			steps[i] = 1
		}
	}
	if len(ends) != len(starts) || len(axes) != len(starts) || len(steps) != len(starts) {
		return unsupported(n, "starts, ends, axes and steps differ in length")
	}
	first := make([]int, rank)
	step := make([]int, rank)
	for i := range step {
		step[i] = 1
	}
	for i, a := range axes {
		ax, err := normAxis(n, a, rank)
		if err != nil {
			return err
		}
		dim := int64(x.shape[ax])
		s, st := starts[i], steps[i]
		if st == 0 {
			return unsupported(n, "step 0")
		}
		if s < 0 {
			s += dim
		}
		if st > 0 {
			s = min(max(s, 0), dim)
		} else {
			s = min(max(s, 0), dim-1)
		}
		first[ax], step[ax] = int(s), int(st)
	}
	xs := strides(x.shape)
	base := 0
	eff := make([]int, rank)
	for a := range xs {
		base += first[a] * xs[a]
		eff[a] = step[a] * xs[a]
	}
	e.header(n)
	if o.len() == 0 {
		return nil
	}
	e.body.open("")
	e.body.line("const %s* x = %s;", ctype(x.dt), ptr(x))
	e.body.line("%s* y = %s;", ctype(o.dt), ptr(o))
	sh, st := coalesce(o.shape, strides(o.shape), eff)
	vars, k := e.loops(sh)
	e.body.line("y[%s] = x[%s];", index(vars, st[0], 0), index(vars, st[1], base))
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitConcat(e *emitter, n *policy.Node) error {
	o := e.out(n)
	axis, err := normAxis(n, n.AttrInt("axis", 0), len(o.shape))
	if err != nil {
		return err
	}
	outer := numElems(o.shape[:axis])
	inner := numElems(o.shape[axis+1:])
	orun := o.shape[axis] * inner
	e.header(n)
	e.body.open("")
	e.body.line("%s* y = %s;", ctype(o.dt), ptr(o))
	off := 0
	for k := range n.Inputs {
		t := e.in(n, k)
		if t == nil || t.dt != o.dt {
			return unsupported(n, "input %d of type %v", k, typeOf(t))
		}
		run := t.shape[axis] * inner
		if run == 0 {
			continue
		}
		e.body.open("")
		e.body.line("const %s* x = %s;", ctype(t.dt), ptr(t))
		vars, lk := e.loops([]int{outer, run})
		e.body.line("y[%s] = x[%s];", index(vars, []int{orun, 1}, off), index(vars, []int{run, 1}, 0))
		e.closeLoops(lk)
		e.body.close()
		off += run
	}
	e.body.close()
	return nil
}

// emitAlias handles the operators that only change the shape: the output
// shares the input's storage.
func emitAlias(e *emitter, n *policy.Node) error {
	x, o := e.in(n, 0), e.out(n)
	if x == nil || x.len() != o.len() || x.dt != o.dt {
		return unsupported(n, "cannot view %v as %v", typeOf(x), typeOf(o))
	}
	o.id = x.id
	o.alias = true
	e.body.line("// %s (%s): %s%v viewed as %v", sanitize(n.Name), n.OpType, x.id, x.shape, o.shape)
	return nil
}
