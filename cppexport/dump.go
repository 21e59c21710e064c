package cppexport

import (
	"fmt"
	"strings"

	"jgym/env"
)

// dumpCC writes the member that prints the inputs and the logits of every
// round to stderr, in hex (the tests' debug variant only: Options.dump):
//
//	jgym-dump <round> <input> <hex> ... logits <hex>
//
// Integer inputs print one byte per element, bools one byte, floats their
// 4 bytes, most significant first.
func dumpCC(t *Target, p *program) string {
	var b strings.Builder
	b.WriteString("\n  // dump writes the round's inputs and logits to stderr (debug variant).\n")
	b.WriteString("  void dump() const {\n")
	b.WriteString("    const char* hx = \"0123456789abcdef\";\n")
	b.WriteString("    string s = \"jgym-dump \" + int_to_string(round());\n")
	floats := func(expr string, n string) {
		fmt.Fprintf(&b, "    for (int i = 0; i < %s; ++i) {\n      unsigned int b;\n      memcpy(&b, &%s[i], 4);\n      for (int k = 7; k >= 0; --k) s += hx[(b >> (4 * k)) & 15];\n    }\n", n, expr)
	}
	for _, in := range t.Signature.Inputs {
		n := numElems(inputShape(in, p.numSlots))
		m := t.member(in.Name)
		fmt.Fprintf(&b, "    s += \" %s \";\n", sanitizeIdent(in.Name))
		if in.Dtype == env.Float32 {
			floats(m, fmt.Sprint(n))
		} else {
			fmt.Fprintf(&b, "    for (int i = 0; i < %d; ++i) { s += hx[(%s[i] >> 4) & 15]; s += hx[%s[i] & 15]; }\n", n, m, m)
		}
	}
	b.WriteString("    s += \" logits \";\n")
	b.WriteString("    const float* lg = " + ptr(p.logits) + ";\n")
	floats("lg", fmt.Sprintf("U * %d", t.Signature.Actions))
	b.WriteString("    cerr << s << endl;\n  }\n")
	return b.String()
}
