package cppexport

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"jgym/policy"
)

// Options configures Export.
type Options struct {
	// Name is the player's name, PLAYER_NAME: a C++ identifier of at most
	// 12 characters that is not a name of the kit. The course's file for
	// player Mine is AIMine.cc.
	Name string
	// Source names the model in the file's header comment (default
	// "model.onnx").
	Source string

	// dump adds a member that writes the inputs and logits of every round
	// to stderr (tests only).
	dump bool
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// keywords are the names a player may not take in any game: C++ keywords
// and alternative tokens, and the names every kit and exported file use.
var keywords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`alignas alignof and and_eq asm auto bitand bitor bool break case catch
		char char16_t char32_t class compl const constexpr const_cast continue decltype default delete do
		double dynamic_cast else enum explicit export extern false final float for friend goto if inline int
		long mutable namespace new noexcept not not_eq nullptr operator or or_eq override private protected
		public register reinterpret_cast return short signed sizeof static static_assert static_cast struct
		switch template this thread_local throw true try typedef typeid typename union unsigned using virtual
		void volatile wchar_t while xor xor_eq main std
		Player Info Settings State Action Registry Random_generator RegisterPlayer PLAYER_NAME U`) {
		keywords[w] = true
	}
}

// CheckName reports whether name can name an exported player of t's game.
func (t *Target) CheckName(name string) error {
	for _, r := range t.Reserved {
		if name == r {
			return fmt.Errorf("player name %q is reserved (a name of the %s kit)", name, t.Game)
		}
	}
	return CheckName(name)
}

// CheckName reports whether name can name an exported player of any game.
func CheckName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty player name")
	case len(name) > 12:
		return fmt.Errorf("player name %q is longer than 12 characters (the kit's limit)", name)
	case !identRE.MatchString(name):
		return fmt.Errorf("player name %q is not a C++ identifier (letters, digits and _, not starting with a digit)", name)
	case keywords[name] || strings.HasPrefix(name, "jgym") || strings.Contains(name, "__"):
		return fmt.Errorf("player name %q is reserved (a C++ keyword or a name of the kit)", name)
	}
	return nil
}

// Export translates an ONNX policy of t's game (the bytes of the file)
// into the source of a course-kit player, AI<Name>.cc. The model is loaded
// and checked with policy.Parse first, so Export accepts exactly the files
// the policy: seat plays, except for operators it has no C++ for
// (ErrUnsupported).
func Export(model []byte, t Target, opts Options) ([]byte, error) {
	if err := t.CheckName(opts.Name); err != nil {
		return nil, err
	}
	m, err := policy.Parse(model, t.Signature)
	if err != nil {
		return nil, err
	}
	act, err := t.act(m.ActionOrder)
	if err != nil {
		return nil, err
	}
	t.Act = act
	opp, err := t.opponents(m.OpponentOrder)
	if err != nil {
		return nil, err
	}
	t, optIn, err := t.optIn(m)
	if err != nil {
		return nil, err
	}
	p, err := build(model, m, &t)
	if err != nil {
		return nil, err
	}
	e := &emitter{p: p}
	for _, n := range p.nodes {
		if err := emitters[n.OpType](e, n); err != nil {
			return nil, err
		}
	}
	sum := sha256.Sum256(model)
	src := opts.Source
	if src == "" {
		src = "model.onnx"
	}
	return assemble(p, e, &t, opp, optIn, opts, filepath.Base(src), hex.EncodeToString(sum[:])), nil
}

// ExportFile exports the model in file modelPath to outPath.
func ExportFile(modelPath, outPath string, t Target, opts Options) error {
	b, err := os.ReadFile(modelPath)
	if err != nil {
		return err
	}
	if opts.Source == "" {
		opts.Source = modelPath
	}
	out, err := Export(b, t, opts)
	if err != nil {
		return fmt.Errorf("export %s: %w", modelPath, err)
	}
	return os.WriteFile(outPath, out, 0o644)
}

// SkipMacro is the C++ macro an exported player defines when its network
// does not take the observation tensor name: a game's encoder (Target.Encoder)
// may leave out the work of that tensor under "#ifndef SkipMacro(name)".
// The debug variant (which dumps every input) defines none.
func SkipMacro(name string) string {
	return "JGYM_SKIP_" + strings.ToUpper(sanitizeIdent(name))
}

// skipped returns the inputs of the target's signature the model does
// not take.
func skipped(t *Target, m *policy.Model, opts Options) []string {
	if opts.dump {
		return nil
	}
	var skip []string
	for _, in := range t.Signature.Inputs {
		if !slices.ContainsFunc(m.Signature.Inputs, func(x policy.Input) bool { return x.Name == in.Name }) {
			skip = append(skip, in.Name)
		}
	}
	return skip
}

// assemble writes the whole C++ file; opp is the Target's code of the
// model's order of the opponents, "" for the seats' order; optIn the
// opt-in tensors the model takes (their code is in t.Encoder).
func assemble(p *program, e *emitter, t *Target, opp string, optIn []string, opts Options, src, sum string) []byte {
	var c code
	meta := p.model.Metadata
	c.line("// AI%s.cc: a %s player for the course kit, generated by jgym", opts.Name, t.Game)
	c.line("// (jgym export-cpp) from the policy %s.", sanitize(src))
	c.line("// Do not edit: export the model again.")
	c.line("//")
	c.line("//   model sha256        %s", sum)
	c.line("//   observation         %s, %d unit slots", p.model.Signature.ObservationVersion, p.numSlots)
	if len(optIn) > 0 {
		c.line("//   opt-in tensors      %s", sanitize(strings.Join(optIn, ", ")))
	}
	if opp != "" {
		c.line("//   opponent order      %s", sanitize(p.model.OpponentOrder))
	}
	if v := meta["network"]; v != "" {
		c.line("//   network             %s", sanitize(v))
	}
	if v := meta["game"]; v != "" {
		c.line("//   game                %s", sanitize(v))
	}
	nw := 0
	for _, v := range p.order {
		if v.konst != nil && v.used {
			nw += v.len()
		}
	}
	c.line("//   weights             %d numbers, embedded below", nw)
	c.line("//")
	c.line("// Every round the player encodes what it sees (the Go encoder's twin, see")
	c.line("// docs/observation.md), runs the network and, for each unit it owns, takes the")
	c.line("// action with the largest logit (the lowest on a tie), and gives its orders")
	c.line("// as the Go policy bot does: the moves of jgym's policy:%s bot, which this", sanitize(src))
	c.line("// file reproduces exactly (docs/cpp-bots.md).")
	c.line("//")
	c.line("// Standard C++11 and the kit only: no global or static variables (the weights")
	c.line("// are copied once, when the player is created, from constant arrays local to")
	c.line("// member functions into the player's own arrays), no files, no system calls.")
	c.line("// The arithmetic is the Go interpreter's, operation for operation; compile")
	c.line("// without -ffast-math (g++ -O2 as the kit does) to keep it so.")
	c.line("")
	c.line(`#include "Player.hh"`)
	c.line("")
	c.line("// Products and sums stay separate operations (no fused multiply-add), as in")
	c.line("// the Go bot, even if the compiler targets a CPU that has them.")
	c.line("#if defined(__clang__)")
	c.line("#pragma STDC FP_CONTRACT OFF")
	c.line("#elif defined(__GNUC__)")
	c.line(`#pragma GCC optimize("fp-contract=off")`)
	c.line("#endif")
	c.line("")
	if skip := skipped(t, p.model, opts); len(skip) > 0 {
		c.line("// Observation tensors the network does not take (an older observation")
		c.line("// version, or the subset of its metadata tensors): the encoder skips the")
		c.line("// work of those it guards with these.")
		for _, name := range skip {
			c.line("#define %s 1", SkipMacro(name))
		}
		c.line("")
	}
	c.line("#define PLAYER_NAME %s", opts.Name)
	c.line("")
	c.open("struct PLAYER_NAME : public Player")
	c.line("static Player* factory() { return new PLAYER_NAME; }")
	c.line("")
	c.line("enum { U = %d };  // unit slots", p.numSlots)
	if p.v4 {
		c.b.WriteString(indent(strings.TrimLeft(v4CC, "\n"), c.indent))
	}
	c.line("")
	c.line("// Network inputs (%s).", t.Signature.ObservationVersion)
	for _, in := range t.Signature.Inputs {
		shape := inputShape(in, p.numSlots)
		c.line("%s %s[%d];  // %s %v", inputCType(in.Dtype), t.member(in.Name), numElems(shape), sanitize(in.Name), shape)
	}
	c.line("// Weights.")
	for _, v := range p.order {
		if v.konst != nil && v.used {
			c.line("%s %s[%d];  // %s%v", ctype(v.dt), v.id, max(v.len(), 1), sanitize(v.name), v.shape)
		}
	}
	c.line("// Intermediate values.")
	for _, v := range p.order {
		if v.konst == nil && !v.input && !v.alias && p.computed(v) {
			c.line("%s %s[%d];  // %v", ctype(v.dt), v.id, max(v.len(), 1), v.shape)
		}
	}
	for _, s := range p.scratch {
		c.line("%s %s[%d];", s.ctype, s.id, max(s.n, 1))
	}
	c.line("bool warned_;")
	c.line("")
	c.open("PLAYER_NAME() : warned_(false)")
	for _, v := range p.order {
		if v.konst != nil && v.used {
			c.line("load_%s();", v.id)
		}
	}
	for _, l := range p.init {
		c.line("%s", l)
	}
	c.close()
	c.line("")
	c.line("// play is called once per round.")
	c.open("virtual void play()")
	c.open("if ((%s) != U)", t.SlotsExpr)
	c.line("if (!warned_) cerr << \"%s: this game has \" << (%s)", opts.Name, t.SlotsExpr)
	c.line("                   << \" unit slots, the network %d: no orders\" << endl;", p.numSlots)
	c.line("warned_ = true;")
	c.line("return;")
	c.close()
	c.line("encode();")
	for _, name := range optIn {
		c.line("encode_%s();", sanitizeIdent(name))
	}
	if opp != "" {
		c.line("order_opponents();")
	}
	c.open("if (!forward())")
	c.line("cerr << \"%s: round \" << round() << \": an index of the network is out of range: no orders\" << endl;", opts.Name)
	c.line("return;")
	c.close()
	if opts.dump {
		c.line("dump();")
	}
	c.line("const float* logits = %s;", ptr(p.logits))
	c.b.WriteString(indent(strings.TrimLeft(t.Act, "\n"), c.indent))
	c.close()
	c.b.WriteString(t.Encoder)
	c.b.WriteString(opp)
	if opts.dump {
		c.b.WriteString(dumpCC(t, p))
	}
	c.line("")
	c.line("// ---------------------------------------------------------------------")
	c.line("// The network, node by node (ONNX graph order). forward returns false")
	c.line("// if an index is out of range, as the Go interpreter fails then.")
	c.open("bool forward()")
	c.b.WriteString(indent(e.body.b.String(), c.indent))
	c.line("return true;")
	c.close()
	c.b.WriteString(indent(e.funcs.b.String(), c.indent))
	c.line("")
	c.line("// ---------------------------------------------------------------------")
	c.line("// Weights: constant arrays local to these functions, copied into the")
	c.line("// player's own arrays when it is created.")
	for _, v := range p.order {
		if v.konst != nil && v.used {
			writeLoader(&c, v)
		}
	}
	c.indent--
	c.line("};")
	c.line("")
	c.line("RegisterPlayer(PLAYER_NAME);")
	return []byte(c.b.String())
}

// computed reports whether a value is written by a node that is kept.
func (p *program) computed(v *value) bool {
	for _, n := range p.nodes {
		if n.Outputs[0] == v.name {
			return true
		}
	}
	return false
}

// indent shifts every non-empty line of s by n levels.
func indent(s string, n int) string {
	pad := strings.Repeat("  ", n)
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			b.WriteString(pad)
		}
		b.WriteString(l)
	}
	return b.String()
}

// writeLoader writes the member function that fills a weight array.
func writeLoader(c *code, v *value) {
	t := v.konst
	c.line("")
	c.open("void load_%s()", v.id)
	n := t.Len()
	if n == 0 {
		c.close()
		return
	}
	c.line("const %s w[%d] = {", ctype(v.dt), n)
	const perLine = 8
	var row []string
	flush := func() {
		c.line("    %s,", strings.Join(row, ", "))
		row = row[:0]
	}
	for k := 0; k < n; k++ {
		switch t.DType {
		case policy.Float32:
			row = append(row, floatLit(t.F[k]))
		case policy.Int64:
			if t.I[k] == -1<<63 {
				row = append(row, "(-9223372036854775807LL - 1)")
			} else {
				row = append(row, fmt.Sprintf("%dLL", t.I[k]))
			}
		default:
			if t.B[k] {
				row = append(row, "1")
			} else {
				row = append(row, "0")
			}
		}
		if len(row) == perLine {
			flush()
		}
	}
	if len(row) > 0 {
		flush()
	}
	c.line("};")
	c.line("for (int i = 0; i < %d; ++i) %s[i] = w[i];", n, v.id)
	c.close()
}
