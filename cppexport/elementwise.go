package cppexport

import "jgym/policy"

// The element-wise operators (policy/elementwise.go): Add and Mul with
// broadcasting, Where, Relu and Cast.

func emitBinary(e *emitter, n *policy.Node) error {
	a, b, o := e.in(n, 0), e.in(n, 1), e.out(n)
	if a == nil || b == nil || a.dt != b.dt || a.dt == policy.Bool {
		return unsupported(n, "inputs of types %v and %v", typeOf(a), typeOf(b))
	}
	ea, err := bcast(a.shape, o.shape)
	if err != nil {
		return unsupported(n, "%v", err)
	}
	eb, err := bcast(b.shape, o.shape)
	if err != nil {
		return unsupported(n, "%v", err)
	}
	op := "+"
	if n.OpType == "Mul" {
		op = "*"
	}
	e.header(n)
	e.body.open("")
	e.body.line("const %s* a = %s;", ctype(a.dt), ptr(a))
	e.body.line("const %s* b = %s;", ctype(b.dt), ptr(b))
	e.body.line("%s* y = %s;", ctype(o.dt), ptr(o))
	sh, st := coalesce(o.shape, strides(o.shape), ea, eb)
	vars, k := e.loops(sh)
	if a.dt == policy.Int64 {
		// Wrapping arithmetic, as Go's int64.
		e.body.line("y[%s] = (long long)((unsigned long long)a[%s] %s (unsigned long long)b[%s]);",
			index(vars, st[0], 0), index(vars, st[1], 0), op, index(vars, st[2], 0))
	} else {
		e.body.line("y[%s] = a[%s] %s b[%s];", index(vars, st[0], 0), index(vars, st[1], 0), op, index(vars, st[2], 0))
	}
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitWhere(e *emitter, n *policy.Node) error {
	c, x, y, o := e.in(n, 0), e.in(n, 1), e.in(n, 2), e.out(n)
	if c == nil || x == nil || y == nil || c.dt != policy.Bool || x.dt != y.dt {
		return unsupported(n, "inputs of types %v, %v, %v", typeOf(c), typeOf(x), typeOf(y))
	}
	var effs [3][]int
	for k, v := range []*value{c, x, y} {
		eff, err := bcast(v.shape, o.shape)
		if err != nil {
			return unsupported(n, "%v", err)
		}
		effs[k] = eff
	}
	e.header(n)
	e.body.open("")
	e.body.line("const unsigned char* c = %s;", ptr(c))
	e.body.line("const %s* a = %s;", ctype(x.dt), ptr(x))
	e.body.line("const %s* b = %s;", ctype(y.dt), ptr(y))
	e.body.line("%s* y = %s;", ctype(o.dt), ptr(o))
	sh, st := coalesce(o.shape, strides(o.shape), effs[0], effs[1], effs[2])
	vars, k := e.loops(sh)
	e.body.line("y[%s] = c[%s] ? a[%s] : b[%s];", index(vars, st[0], 0),
		index(vars, st[1], 0), index(vars, st[2], 0), index(vars, st[3], 0))
	e.closeLoops(k)
	e.body.close()
	return nil
}

func emitRelu(e *emitter, n *policy.Node) error {
	x, o := e.in(n, 0), e.out(n)
	if x == nil || x.dt != policy.Float32 {
		return unsupported(n, "input of type %v", typeOf(x))
	}
	e.header(n)
	e.body.open("")
	e.body.line("const float* x = %s;", ptr(x))
	e.body.line("float* y = %s;", ptr(o))
	e.body.line("for (int i = 0; i < %d; ++i) y[i] = x[i] > 0 ? x[i] : 0.0f;", o.len())
	e.body.close()
	return nil
}

func emitCast(e *emitter, n *policy.Node) error {
	x, o := e.in(n, 0), e.out(n)
	if x == nil {
		return unsupported(n, "no input")
	}
	var conv string
	switch {
	case x.dt == o.dt:
		conv = "x[i]"
	case o.dt == policy.Float32: // from an integer or a bool
		conv = "(float)x[i]"
	case o.dt == policy.Int64 && x.dt == policy.Float32: // truncation toward zero, as Go's math.Trunc
		conv = "(long long)x[i]"
	case o.dt == policy.Int64: // from bool
		conv = "(long long)x[i]"
	default: // to bool
		conv = "(unsigned char)(x[i] != 0)"
	}
	e.header(n)
	e.body.open("")
	e.body.line("const %s* x = %s;", ctype(x.dt), ptr(x))
	e.body.line("%s* y = %s;", ctype(o.dt), ptr(o))
	e.body.line("for (int i = 0; i < %d; ++i) y[i] = %s;", o.len(), conv)
	e.body.close()
	return nil
}
