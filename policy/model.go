package policy

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"syscall"
)

// Errors of Load and Parse, for callers that branch on them.
var (
	// ErrUnsupported means the model uses an operator, opset, data type or
	// attribute value that the interpreter does not implement.
	ErrUnsupported = errors.New("unsupported")
	// ErrObservationVersion means the model was trained on another
	// observation layout than the game's encoder writes
	// (Signature.ObservationVersion), or does not say which.
	ErrObservationVersion = errors.New("observation version mismatch")
	// ErrSignature means the model's inputs or outputs are not those the
	// game's Signature asks for (docs/export.md).
	ErrSignature = errors.New("not a policy of the game")
	// ErrTooLarge means the model passes a bound: file size, number of
	// nodes, or the memory of one forward pass.
	ErrTooLarge = errors.New("model too large")
)

// Bounds on the models a policy bot runs, so that a file from outside
// cannot take the server's memory.
const (
	// MaxFileBytes bounds an ONNX file (Load).
	MaxFileBytes = 64 << 20
	// MaxNodes bounds the nodes of a graph.
	MaxNodes = 10000
	// MaxTensorElems bounds the elements of any tensor an operator makes
	// (64 MiB of float32).
	MaxTensorElems = 1 << 24
	// MaxPassElems bounds the elements of all the tensors of one forward
	// pass together (256 MiB of float32), checked by the trial run of
	// Parse: later passes have the same shapes.
	MaxPassElems = 1 << 26
)

// The bounds in force (tests lower them).
var (
	maxTensorElems = MaxTensorElems
	maxPassElems   = MaxPassElems
)

// tooLarge is the panic of newTensor past MaxTensorElems.
type tooLarge struct{ shape []int }

// guard turns a tooLarge panic of the current goroutine into an error
// wrapping ErrTooLarge in *err.
func guard(err *error) {
	if r := recover(); r != nil {
		tl, ok := r.(tooLarge)
		if !ok {
			panic(r)
		}
		*err = fmt.Errorf("%w: a tensor of shape %v has more than %d elements", ErrTooLarge, tl.shape, maxTensorElems)
	}
}

// Metadata keys that the exporter writes in metadata_props.
const (
	// KeyObservationVersion holds the observation layout the policy was
	// trained on; it must equal the game's (Signature.ObservationVersion).
	KeyObservationVersion = "observation_version"
	// KeyActionOrder says in which order the bot issues the commands
	// (OrderSlot when absent; a game's Signature.ActionOrders lists the
	// others its bot implements).
	KeyActionOrder = "action_order"
	// KeyOpponentOrder says how the bot labels the opponents in the
	// observation before it runs the network (OpponentsBySeat when absent;
	// a game's Signature.OpponentOrders lists the others its bot
	// implements).
	KeyOpponentOrder = "opponent_order"
	// KeyTensors lists, comma-separated, the observation tensors the
	// policy takes when it was trained on a subset of them (the env's
	// option tensors), or with opt-in tensors (env.Spec.OptIn): its
	// inputs are those, and its bot encodes only those. All of the
	// observation version's, no opt-in one, when absent.
	KeyTensors = "tensors"
)

// The orders of a policy bot's commands (metadata action_order).
const (
	// OrderSlot: increasing unit id, the environment's order without an
	// action_order tensor.
	OrderSlot = "slot"
	// OrderAttacksFirst: first the commands that attack another player's
	// unit (each game defines which), then the others, each group in
	// increasing unit id.
	OrderAttacksFirst = "attacks_first"
)

// The orders of the opponents in a policy's observation (metadata
// opponent_order). A network's weights are not symmetric in the
// opponents' labels; an order other than the seats' gives it a canonical
// view.
const (
	// OpponentsBySeat: the encoder's labels, relative index 1, 2, 3 for
	// the next seats in turn.
	OpponentsBySeat = "seat"
	// OpponentsByScore: the opponents relabelled by decreasing score
	// (relative index 1 the highest, ties by seat order), as each game
	// defines it on its observation tensors.
	OpponentsByScore = "score"
)

// Opset range of the ai.onnx domain the interpreter accepts: the
// operators it implements have the same semantics over this range (Slice
// and Unsqueeze take inputs, ReduceMean's axes move to an input at 18 and
// both forms are handled).
const (
	MinOpset = 13
	MaxOpset = 21
)

// OutputLogits is the name of a policy's output: the logits [1, U, A].
const OutputLogits = "logits"

// Model is a loaded ONNX policy. It is immutable and safe for concurrent
// use; every Run allocates its own intermediate tensors.
type Model struct {
	// Metadata holds the model's metadata_props.
	Metadata map[string]string
	// Opset is the model's ai.onnx opset version.
	Opset int64
	// NumSlots is the number of unit slots U the model was exported for.
	NumSlots int
	// Producer is the producer_name of the file (e.g. "pytorch").
	Producer string

	// Signature is the game's signature the model was checked against.
	Signature Signature
	// ActionOrder is the order the bot issues the commands in (metadata
	// action_order): OrderSlot or one of Signature.ActionOrders.
	ActionOrder string
	// OpponentOrder is how the bot labels the opponents in the observation
	// (metadata opponent_order): OpponentsBySeat or one of
	// Signature.OpponentOrders.
	OpponentOrder string
	// Tensors are the observation tensors the model takes, in the
	// signature's order, when its metadata tensors names a subset; nil
	// for all of them. Signature.Inputs holds only these.
	Tensors []string

	nodes  []Node // the nodes left after constant folding, in order
	consts map[string]*Tensor
	inputs []ValueInfo // in the order of Signature.Inputs
}

// Load reads and checks an ONNX policy file for a game: a regular file
// (not a FIFO or a device) of at most MaxFileBytes.
func Load(path string, sig Signature) (*Model, error) {
	b, err := readFile(path, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err)
	}
	m, err := Parse(b, sig)
	if err != nil {
		return nil, fmt.Errorf("load policy %s: %w", path, err)
	}
	return m, nil
}

// Parse decodes and checks an ONNX policy for the game of sig: every
// operator is supported, the observation version matches, the inputs and
// outputs are those sig asks for, and a forward pass on a zero observation
// runs. All these errors happen here, never at play time.
func Parse(b []byte, sig Signature) (*Model, error) {
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("%w: %d bytes, over %d", ErrTooLarge, len(b), MaxFileBytes)
	}
	mp, err := decodeModel(b)
	if err != nil {
		return nil, err
	}
	if n := len(mp.graph.Nodes); n > MaxNodes {
		return nil, fmt.Errorf("%w: %d nodes, over %d", ErrTooLarge, n, MaxNodes)
	}
	m := &Model{Metadata: mp.metadata, Producer: mp.producer, Signature: sig, consts: map[string]*Tensor{}}
	opset, ok := mp.opsets[""]
	if !ok {
		return nil, fmt.Errorf("%w: the model imports no ai.onnx opset", ErrFormat)
	}
	if opset < MinOpset || opset > MaxOpset {
		return nil, fmt.Errorf("%w: ai.onnx opset %d (supported: %d to %d)", ErrUnsupported, opset, MinOpset, MaxOpset)
	}
	m.Opset = opset
	if err := checkOperators(mp.graph.Nodes); err != nil {
		return nil, err
	}
	v, ok := mp.metadata[KeyObservationVersion]
	if !ok {
		return nil, fmt.Errorf("%w: metadata_props has no %q (want %q)", ErrObservationVersion, KeyObservationVersion, sig.ObservationVersion)
	}
	if v != sig.ObservationVersion {
		i := slices.IndexFunc(sig.Older, func(o Signature) bool { return o.ObservationVersion == v })
		if i < 0 {
			return nil, fmt.Errorf("%w: the model was trained on %q, the encoder writes %s", ErrObservationVersion, clipText(v, 40), sig.versions())
		}
		sig = sig.Older[i]
		m.Signature = sig
	}
	m.ActionOrder = OrderSlot
	if o, ok := mp.metadata[KeyActionOrder]; ok && o != OrderSlot {
		if !slices.Contains(sig.ActionOrders, o) {
			return nil, fmt.Errorf("%w: action_order %q (this game's bots issue %q)", ErrUnsupported, clipText(o, 40), append([]string{OrderSlot}, sig.ActionOrders...))
		}
		m.ActionOrder = o
	}
	m.OpponentOrder = OpponentsBySeat
	if o, ok := mp.metadata[KeyOpponentOrder]; ok && o != OpponentsBySeat {
		if !slices.Contains(sig.OpponentOrders, o) {
			return nil, fmt.Errorf("%w: opponent_order %q (this game's bots order the opponents by %q)", ErrUnsupported, clipText(o, 40), append([]string{OpponentsBySeat}, sig.OpponentOrders...))
		}
		m.OpponentOrder = o
	}
	if v, ok := mp.metadata[KeyTensors]; ok {
		if sig, err = sig.subset(v); err != nil {
			return nil, err
		}
		m.Signature = sig
		for _, in := range sig.Inputs {
			m.Tensors = append(m.Tensors, in.Name)
		}
	}
	for _, t := range mp.graph.Initializers {
		m.consts[t.Name] = t
	}
	if err := m.checkSignature(mp.graph); err != nil {
		return nil, err
	}
	if err := m.fold(mp.graph.Nodes); err != nil {
		return nil, err
	}
	// A forward pass on a zero observation checks every shape.
	out, err := m.Run(m.zeroInputs())
	if err != nil {
		return nil, fmt.Errorf("trial run on a zero observation: %w", err)
	}
	lg := out[OutputLogits]
	if lg == nil || lg.DType != Float32 || !equalShape(lg.Shape, []int{1, m.NumSlots, sig.Actions}) {
		return nil, fmt.Errorf("%w: output %q is %v, want float32[1 %d %d]", ErrSignature, OutputLogits, lg, m.NumSlots, sig.Actions)
	}
	return m, nil
}

// checkOperators refuses, all at once, the operators the interpreter does
// not implement and nodes of other domains.
func checkOperators(nodes []Node) error {
	bad := map[string]int{}
	for i := range nodes {
		n := &nodes[i]
		name := n.OpType
		if n.Domain != "" {
			name = n.Domain + "." + n.OpType
		} else if _, ok := ops[n.OpType]; ok {
			for _, a := range n.Attrs {
				if a.HasGraph {
					return fmt.Errorf("%w: node %q (%s) has a graph attribute", ErrUnsupported, n.Name, n.OpType)
				}
			}
			continue
		}
		bad[name]++
	}
	if len(bad) == 0 {
		return nil
	}
	names := make([]string, 0, len(bad))
	for k, c := range bad {
		names = append(names, fmt.Sprintf("%s (%d nodes)", k, c))
	}
	sort.Strings(names)
	return fmt.Errorf("%w operators: %s; the interpreter implements %s",
		ErrUnsupported, strings.Join(names, ", "), strings.Join(Operators(), ", "))
}

// fold evaluates the nodes whose inputs are all constants (Constant nodes
// and what only depends on initializers) once, and keeps the others.
func (m *Model) fold(nodes []Node) (err error) {
	defer guard(&err)
	elems := 0
	for i := range nodes {
		n := &nodes[i]
		constant := true
		for _, name := range n.Inputs {
			if name == "" {
				continue
			}
			if _, ok := m.consts[name]; !ok {
				constant = false
				break
			}
		}
		if !constant {
			m.nodes = append(m.nodes, *n)
			continue
		}
		in := make([]*Tensor, len(n.Inputs))
		for j, name := range n.Inputs {
			in[j] = m.consts[name]
		}
		out, err := ops[n.OpType](n, m.Opset, in)
		if err != nil {
			return fmt.Errorf("node %q (%s): %w", n.Name, n.OpType, err)
		}
		if len(n.Outputs) != 1 {
			return fmt.Errorf("%w: node %q (%s) has %d outputs", ErrUnsupported, n.Name, n.OpType, len(n.Outputs))
		}
		if elems += out.Len(); elems > maxPassElems {
			return fmt.Errorf("%w: folding the constants makes tensors of more than %d elements", ErrTooLarge, maxPassElems)
		}
		m.consts[n.Outputs[0]] = out
	}
	return nil
}

// zeroInputs returns an all-zero observation of batch size 1.
func (m *Model) zeroInputs() map[string]*Tensor {
	in := map[string]*Tensor{}
	for _, vi := range m.inputs {
		shape := append([]int(nil), vi.Shape...)
		shape[0] = 1
		dt, _ := DTypeOf(vi.ElemType)
		in[vi.Name] = newTensor(dt, shape)
	}
	return in
}

// Run evaluates the graph on the named inputs and returns every graph
// value it computed, by name ("logits" among them). Integer inputs are
// Int64 tensors, whatever their ONNX width.
func (m *Model) Run(inputs map[string]*Tensor) (_ map[string]*Tensor, err error) {
	defer guard(&err)
	vals := make(map[string]*Tensor, len(m.nodes)+len(inputs))
	elems := 0
	for _, vi := range m.inputs {
		t, ok := inputs[vi.Name]
		if !ok {
			return nil, fmt.Errorf("missing input %q", vi.Name)
		}
		want, _ := DTypeOf(vi.ElemType)
		if t.DType != want || len(t.Shape) != len(vi.Shape) || t.Len() != len(t.F)+len(t.I)+len(t.B) {
			return nil, fmt.Errorf("input %q is %v, want %s of rank %d", vi.Name, t, want, len(vi.Shape))
		}
		for i, d := range vi.Shape {
			if d >= 0 && t.Shape[i] != d {
				return nil, fmt.Errorf("input %q has shape %v, want %v", vi.Name, t.Shape, vi.Shape)
			}
		}
		vals[vi.Name] = t
	}
	in := make([]*Tensor, 0, 8)
	for i := range m.nodes {
		n := &m.nodes[i]
		in = in[:0]
		for _, name := range n.Inputs {
			if name == "" {
				in = append(in, nil)
				continue
			}
			t, ok := vals[name]
			if !ok {
				if t, ok = m.consts[name]; !ok {
					return nil, fmt.Errorf("node %q (%s): input %q is not computed before it (graph not in topological order?)", n.Name, n.OpType, name)
				}
			}
			in = append(in, t)
		}
		out, err := ops[n.OpType](n, m.Opset, in)
		if err != nil {
			return nil, fmt.Errorf("node %q (%s): %w", n.Name, n.OpType, err)
		}
		if len(n.Outputs) != 1 {
			return nil, fmt.Errorf("%w: node %q (%s) has %d outputs", ErrUnsupported, n.Name, n.OpType, len(n.Outputs))
		}
		if elems += out.Len(); elems > maxPassElems {
			return nil, fmt.Errorf("%w: one forward pass makes tensors of more than %d elements", ErrTooLarge, maxPassElems)
		}
		vals[n.Outputs[0]] = out
	}
	return vals, nil
}

// readFile reads a regular file of at most limit bytes; opening a FIFO
// does not wait for a writer.
func readFile(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%w: %s is %d bytes, over %d", ErrTooLarge, path, fi.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: %s grew over %d bytes", ErrTooLarge, path, limit)
	}
	return b, nil
}

// clipText returns s cut to at most n bytes, with "..." when it was cut:
// errors never echo unbounded input from a file.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
