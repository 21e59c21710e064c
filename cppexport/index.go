package cppexport

import (
	"fmt"
	"strconv"
	"strings"

	"jgym/policy"
)

// Index arithmetic: row-major strides, broadcasting, and the C++
// expressions of flat indices.

// The interpreter's shape arithmetic, under short names.
var (
	numElems = policy.NumElems
	strides  = policy.Strides
)

// index returns sum(vars[a] * strides[a]) + base as C++.
func index(vars []string, str []int, base int) string {
	var terms []string
	for a, v := range vars {
		if v == "0" || str[a] == 0 {
			continue
		}
		if str[a] == 1 {
			terms = append(terms, v)
		} else {
			terms = append(terms, fmt.Sprintf("%s * %d", v, str[a]))
		}
	}
	if base != 0 || len(terms) == 0 {
		terms = append(terms, strconv.Itoa(base))
	}
	return strings.Join(terms, " + ")
}

// coalesce drops the axes of size 1 and merges neighbouring axes that
// every stride vector walks as one (the element order is unchanged).
func coalesce(shape []int, sets ...[]int) ([]int, [][]int) {
	var sh []int
	out := make([][]int, len(sets))
	for a, d := range shape {
		if d == 1 {
			continue
		}
		if len(sh) > 0 {
			last := len(sh) - 1
			merge := true
			for k, s := range sets {
				if out[k][last] != s[a]*d {
					merge = false
					break
				}
			}
			if merge {
				sh[last] *= d
				for k, s := range sets {
					out[k][last] = s[a]
				}
				continue
			}
		}
		sh = append(sh, d)
		for k, s := range sets {
			out[k] = append(out[k], s[a])
		}
	}
	return sh, out
}

func scale(s []int, k int) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = v * k
	}
	return out
}

// bcast returns the strides of an input of shape in broadcast to out
// (numpy rules, right-aligned; 0 on broadcast axes).
func bcast(in, out []int) ([]int, error) {
	if len(in) > len(out) {
		return nil, fmt.Errorf("shape %v does not broadcast to %v", in, out)
	}
	off := len(out) - len(in)
	s := strides(in)
	eff := make([]int, len(out))
	for i, d := range in {
		switch {
		case d == out[off+i]:
			if d != 1 {
				eff[off+i] = s[i]
			}
		case d == 1:
		default:
			return nil, fmt.Errorf("shape %v does not broadcast to %v", in, out)
		}
	}
	return eff, nil
}
