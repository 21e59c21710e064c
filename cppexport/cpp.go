package cppexport

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"jgym/policy"
)

// C++ text: the indenting writer, literals, element types and comments.

// code accumulates C++ text with indentation.
type code struct {
	b      strings.Builder
	indent int
}

func (c *code) line(format string, a ...any) {
	if format == "" {
		c.b.WriteByte('\n')
		return
	}
	c.b.WriteString(strings.Repeat("  ", c.indent))
	fmt.Fprintf(&c.b, format, a...)
	c.b.WriteByte('\n')
}

func (c *code) open(format string, a ...any) {
	if format == "" {
		c.line("{")
	} else {
		c.line(format+" {", a...)
	}
	c.indent++
}

func (c *code) close() {
	c.indent--
	c.line("}")
}

// sanitize keeps a node name safe inside a C++ comment.
func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e {
			return '?'
		}
		return r
	}, s)
	s = strings.ReplaceAll(s, "*/", "*?")
	return strings.ReplaceAll(s, "\\", "/")
}

// floatLit returns a C++ float literal that converts to exactly f: the
// shortest decimal that rounds back to f (at most 9 significant digits),
// with the f suffix so that the compiler rounds it once, to float.
func floatLit(f float32) string {
	switch {
	case math.IsNaN(float64(f)):
		return "NAN"
	case math.IsInf(float64(f), 1):
		return "HUGE_VALF"
	case math.IsInf(float64(f), -1):
		return "(-HUGE_VALF)"
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s + "f"
}

// ctype is the C++ element type of a tensor element type: float for
// Float32, long long for Int64 (every integer type), unsigned char (0 or
// 1) for Bool.
func ctype(d policy.DType) string {
	switch d {
	case policy.Float32:
		return "float"
	case policy.Int64:
		return "long long"
	}
	return "unsigned char"
}
