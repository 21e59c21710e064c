package policy

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"jgym/env"
)

// Signature is what a game asks of its policies: the observation tensors
// of one seat, as its environment writes them (names, element types,
// shapes), the observation version the model must declare, and logits
// [1, U, Actions] out. U, the number of unit slots, is the model's own: a
// dimension -1 in Inputs is U, read from the model, so that a policy
// exported for a configuration with other numbers of units loads too
// (its bot checks the game's U at play time).
type Signature struct {
	// ObservationVersion is the layout the model must have been trained on
	// (metadata observation_version).
	ObservationVersion string
	// Inputs are the observation tensors of one seat, without the batch
	// dimension.
	Inputs []Input
	// OptIn are the opt-in observation tensors (env.Spec.OptIn): a model
	// takes one only when its metadata tensors names it.
	OptIn []Input
	// Actions is the number of choices per unit slot.
	Actions int
	// SlotsMultiple, if not 0, is a number U must be a multiple of.
	SlotsMultiple int
	// ActionOrders are the orders of the commands (metadata action_order)
	// the game's policy bot can issue besides OrderSlot, the default.
	ActionOrders []string
	// OpponentOrders are the orders of the opponents in the observation
	// (metadata opponent_order) the game's policy bot can feed besides
	// OpponentsBySeat, the default.
	OpponentOrders []string
	// Older are the signatures of earlier observation versions that the
	// game's bots still play: a model trained on one of them is checked
	// against it, and its Model.Signature is that one (its bot feeds it
	// the tensors it names).
	Older []Signature
}

// versions lists the observation versions sig accepts, for errors.
func (sig *Signature) versions() string {
	v := strconv.Quote(sig.ObservationVersion)
	for _, o := range sig.Older {
		v += " or " + strconv.Quote(o.ObservationVersion)
	}
	return v
}

// subset returns the signature whose inputs are the tensors a model's
// metadata tensors names (comma-separated), in sig's order (its inputs,
// then its opt-in tensors): each one of them, once.
func (sig Signature) subset(list string) (Signature, error) {
	names := strings.Split(list, ",")
	if len(names) > env.MaxTensors {
		return sig, fmt.Errorf("%w: metadata tensors names %d tensors (at most %d)", ErrSignature, len(names), env.MaxTensors)
	}
	inputs := append(slices.Clip(sig.Inputs), sig.OptIn...)
	all := make([]string, len(inputs))
	for i, in := range inputs {
		all[i] = in.Name
	}
	keep := make([]bool, len(inputs))
	for _, n := range names {
		i := slices.Index(all, n)
		if i < 0 {
			return sig, fmt.Errorf("%w: metadata tensors names %q, not an observation tensor of %s (%s)",
				ErrSignature, clipText(n, 40), sig.ObservationVersion, strings.Join(all, ", "))
		}
		if keep[i] {
			return sig, fmt.Errorf("%w: metadata tensors names %q twice", ErrSignature, n)
		}
		keep[i] = true
	}
	var kept []Input
	for i, in := range inputs {
		if keep[i] {
			kept = append(kept, in)
		}
	}
	sig.Inputs = kept
	return sig, nil
}

// Input is one observation tensor of a Signature.
type Input struct {
	Name  string
	Dtype env.Dtype
	Shape []int // -1: U
}

// SignatureOf derives a game's policy signature from its spaces: the
// observation tensors of spec (its opt-in ones in OptIn), those whose leading dimension is the
// action's (one row per unit slot) taking the model's U there.
func SignatureOf(spec *env.Spec) Signature {
	u := 0
	if len(spec.Action.Shape) > 0 {
		u = spec.Action.Shape[0]
	}
	sig := Signature{ObservationVersion: spec.ObservationVersion, Actions: spec.NumActions}
	input := func(t env.TensorSpec) Input {
		shape := append([]int(nil), t.Shape...)
		if len(shape) > 0 && shape[0] == u {
			shape[0] = -1
		}
		return Input{Name: t.Name, Dtype: t.Dtype, Shape: shape}
	}
	for _, t := range spec.Observation {
		sig.Inputs = append(sig.Inputs, input(t))
	}
	for _, t := range spec.OptIn {
		sig.OptIn = append(sig.OptIn, input(t))
	}
	return sig
}

// onnxType is the ONNX element type of an env dtype.
func onnxType(d env.Dtype) int64 {
	switch d {
	case env.Uint8:
		return onnxUint8
	case env.Int8:
		return onnxInt8
	case env.Int16:
		return onnxInt16
	case env.Int32:
		return onnxInt32
	case env.Int64:
		return onnxInt64
	case env.Float32:
		return onnxFloat
	case env.Bool:
		return onnxBool
	}
	return -1
}

// checkSignature checks the graph's inputs and outputs against the
// model's Signature and sets NumSlots.
func (m *Model) checkSignature(g *Graph) error {
	sig := m.Signature
	byName := map[string]ValueInfo{}
	for _, vi := range g.Inputs {
		if _, init := m.consts[vi.Name]; init {
			continue // old exporters list initializers as inputs too
		}
		byName[vi.Name] = vi
	}
	wantNames := make([]string, len(sig.Inputs))
	for i, w := range sig.Inputs {
		wantNames[i] = w.Name
	}
	if len(byName) != len(sig.Inputs) {
		var names []string
		for n := range byName {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("%w: inputs %v, want %s", ErrSignature, names, strings.Join(wantNames, ", "))
	}
	u := -1
	for _, w := range sig.Inputs {
		vi, ok := byName[w.Name]
		if !ok {
			return fmt.Errorf("%w: no input %q", ErrSignature, w.Name)
		}
		want := append([]int{-1}, w.Shape...)
		if vi.ElemType != onnxType(w.Dtype) || len(vi.Shape) != len(want) {
			return fmt.Errorf("%w: input %q has type %d and shape %v, want %s of shape %v (batch first)", ErrSignature, w.Name, vi.ElemType, vi.Shape, w.Dtype, want)
		}
		for i, d := range w.Shape {
			got := vi.Shape[i+1]
			switch {
			case d >= 0 && got != d:
				return fmt.Errorf("%w: input %q has shape %v, want %v", ErrSignature, w.Name, vi.Shape, want)
			case d < 0 && (got <= 0 || (u >= 0 && got != u)):
				return fmt.Errorf("%w: the inputs must have one fixed number of unit slots; %q has %d", ErrSignature, w.Name, got)
			case d < 0:
				u = got
			}
		}
	}
	if u < 0 {
		return fmt.Errorf("%w: no input has a dimension of unit slots", ErrSignature)
	}
	if k := sig.SlotsMultiple; k > 0 && u%k != 0 {
		return fmt.Errorf("%w: %d unit slots is not a multiple of %d", ErrSignature, u, k)
	}
	m.NumSlots = u
	if s, ok := m.Metadata["num_slots"]; ok && s != strconv.Itoa(u) {
		return fmt.Errorf("%w: metadata num_slots=%s but the inputs have %d slots", ErrSignature, s, u)
	}
	found := false
	for _, vi := range g.Outputs {
		found = found || vi.Name == OutputLogits
	}
	if !found {
		return fmt.Errorf("%w: no output %q", ErrSignature, OutputLogits)
	}
	m.inputs = nil
	for _, w := range sig.Inputs {
		m.inputs = append(m.inputs, byName[w.Name])
	}
	return nil
}

// Inputs are input tensors of batch size 1 to reuse between calls of
// Logits (NewInputs makes them).
type Inputs map[string]*Tensor

// NewInputs returns input tensors for the model's signature and U.
func (m *Model) NewInputs() Inputs {
	in := Inputs{}
	for k, w := range m.Signature.Inputs {
		shape := []int{1}
		for _, d := range w.Shape {
			if d < 0 {
				d = m.NumSlots
			}
			shape = append(shape, d)
		}
		dt, _ := DTypeOf(m.inputs[k].ElemType)
		in[w.Name] = newTensor(dt, shape)
	}
	return in
}

// Logits runs the model on one seat's observation, the raw tensors its
// environment writes (in the order of Signature.Inputs, little-endian),
// and returns the logits [U*Actions]. scratch, if not nil, holds input
// tensors to reuse (NewInputs).
func (m *Model) Logits(scratch Inputs, obs [][]byte) ([]float32, error) {
	sig := &m.Signature
	if len(obs) != len(sig.Inputs) {
		return nil, fmt.Errorf("%d observation tensors, want %d", len(obs), len(sig.Inputs))
	}
	in := scratch
	if in == nil {
		in = m.NewInputs()
	}
	for k, w := range sig.Inputs {
		t := in[w.Name]
		size := w.Dtype.Size()
		if t == nil || len(obs[k]) != t.Len()*size {
			return nil, fmt.Errorf("observation %q is %d bytes, want %d (%d slots)", w.Name, len(obs[k]), t.Len()*size, m.NumSlots)
		}
		b := obs[k]
		switch w.Dtype {
		case env.Uint8:
			for i, x := range b {
				t.I[i] = int64(x)
			}
		case env.Int8:
			for i, x := range b {
				t.I[i] = int64(int8(x))
			}
		case env.Int16:
			for i := range t.I {
				t.I[i] = int64(int16(binary.LittleEndian.Uint16(b[2*i:])))
			}
		case env.Int32:
			for i := range t.I {
				t.I[i] = int64(int32(binary.LittleEndian.Uint32(b[4*i:])))
			}
		case env.Int64:
			for i := range t.I {
				t.I[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
			}
		case env.Float32:
			for i := range t.F {
				t.F[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
			}
		case env.Bool:
			for i, x := range b {
				t.B[i] = x != 0
			}
		default:
			return nil, fmt.Errorf("observation %q has dtype %s", w.Name, w.Dtype)
		}
	}
	out, err := m.Run(in)
	if err != nil {
		return nil, err
	}
	return out[OutputLogits].F, nil
}

// Argmax returns, for each of u slots of a actions, the action with the
// largest logit, the first one on a tie (as torch.argmax and
// numpy.argmax).
func Argmax(logits []float32, u, a int) []int {
	out := make([]int, u)
	for id := range out {
		row := logits[id*a : (id+1)*a]
		best := 0
		for d := 1; d < a; d++ {
			if row[d] > row[best] {
				best = d
			}
		}
		out[id] = best
	}
	return out
}
