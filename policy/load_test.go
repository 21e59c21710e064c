package policy

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"jgym/env"
)

// testSig is the signature of a Crematoria policy (crematoria-obs-1),
// written out here: the package's tests name no game.
var testSig = Signature{
	ObservationVersion: "crematoria-obs-1",
	Inputs: []Input{
		{"board", env.Uint8, []int{3, 40, 80}},
		{"units", env.Uint8, []int{-1, 8}},
		{"globals", env.Float32, []int{16}},
		{"action_mask", env.Bool, []int{-1, 11}},
	},
	Actions:       11,
	SlotsMultiple: 4,
}

// Builders of ONNX protobuf bytes for tests, with the field numbers of
// onnx.go.

func pbVarint(b []byte, num int, v uint64) []byte {
	return binary.AppendUvarint(appendTag(b, num, varintType), v)
}

func pbBytes(b []byte, num int, p []byte) []byte {
	b = binary.AppendUvarint(appendTag(b, num, bytesType), uint64(len(p)))
	return append(b, p...)
}

func pbString(b []byte, num int, s string) []byte { return pbBytes(b, num, []byte(s)) }

func floatTensorPB(name string, dims []int64, v []float32) []byte {
	var b []byte
	for _, d := range dims {
		b = pbVarint(b, tensorDims, uint64(d))
	}
	b = pbVarint(b, tensorDataType, onnxFloat)
	b = pbString(b, tensorName, name)
	raw := make([]byte, 0, 4*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
	}
	return pbBytes(b, tensorRawData, raw)
}

func attrIntPB(name string, v int64) []byte {
	b := pbString(nil, attrName, name)
	b = pbVarint(b, attrType, 2) // INT
	return pbVarint(b, attrI, uint64(v))
}

func nodePB(op string, in, out []string, attrs ...[]byte) []byte {
	var b []byte
	for _, s := range in {
		b = pbString(b, nodeInput, s)
	}
	for _, s := range out {
		b = pbString(b, nodeOutput, s)
	}
	b = pbString(b, nodeName, op+"_"+out[0])
	b = pbString(b, nodeOpType, op)
	for _, a := range attrs {
		b = pbBytes(b, nodeAttribute, a)
	}
	return b
}

func valueInfoPB(name string, elem int64, dims ...int64) []byte {
	var shape []byte
	for _, d := range dims {
		var dim []byte
		if d < 0 {
			dim = pbString(nil, dimParam, "batch")
		} else {
			dim = pbVarint(nil, dimValue, uint64(d))
		}
		shape = pbBytes(shape, shapeDim, dim)
	}
	tt := pbVarint(nil, ttElemType, uint64(elem))
	tt = pbBytes(tt, ttShape, shape)
	b := pbString(nil, valueName, name)
	return pbBytes(b, valueType, pbBytes(nil, typeTensor, tt))
}

// tinyModel describes a policy whose logits are Cast(units) x W, masked.
type tinyModel struct {
	slots   int64
	opset   int64
	version string // observation_version; "-" leaves it out
	order   string // action_order; "" leaves it out
	opp     string // opponent_order; "" leaves it out
	tensors string // tensors; "" leaves it out
	extra   [][]byte
	w       []float32 // [8, 11]
	inputs  []string  // default: the four policy inputs
}

func (m tinyModel) bytes() []byte {
	u := m.slots
	if u == 0 {
		u = 80
	}
	w := m.w
	if w == nil {
		w = make([]float32, 8*11)
		for i := range w {
			w[i] = float32(i%11) * 0.01
		}
	}
	g := pbString(nil, graphName, "tiny")
	nodes := [][]byte{
		nodePB("Cast", []string{"units"}, []string{"u"}, attrIntPB("to", onnxFloat)),
		nodePB("MatMul", []string{"u", "W"}, []string{"l"}),
		nodePB("Constant", nil, []string{"neg"}, func() []byte {
			b := pbString(nil, attrName, "value")
			b = pbVarint(b, attrType, 4) // TENSOR
			return pbBytes(b, attrT, floatTensorPB("", nil, []float32{-1e9}))
		}()),
		nodePB("Where", []string{"action_mask", "l", "neg"}, []string{"logits"}),
	}
	for _, n := range append(nodes, m.extra...) {
		g = pbBytes(g, graphNode, n)
	}
	g = pbBytes(g, graphInitializer, floatTensorPB("W", []int64{8, 11}, w))
	inputs := map[string][]byte{
		"board":       valueInfoPB("board", onnxUint8, -1, 3, 40, 80),
		"units":       valueInfoPB("units", onnxUint8, -1, u, 8),
		"globals":     valueInfoPB("globals", onnxFloat, -1, 16),
		"action_mask": valueInfoPB("action_mask", onnxBool, -1, u, 11),
	}
	names := m.inputs
	if names == nil {
		names = []string{"board", "units", "globals", "action_mask"}
	}
	for _, n := range names {
		g = pbBytes(g, graphInput, inputs[n])
	}
	g = pbBytes(g, graphOutput, valueInfoPB("logits", onnxFloat, -1, u, 11))

	opset := m.opset
	if opset == 0 {
		opset = 17
	}
	b := pbVarint(nil, modelIRVersion, 8)
	b = pbString(b, modelProducerName, "load_test")
	b = pbBytes(b, modelOpsetImport, pbVarint(pbString(nil, opsetDomain, ""), opsetVersion, uint64(opset)))
	version := m.version
	if version == "" {
		version = testSig.ObservationVersion
	}
	if version != "-" {
		entry := pbString(pbString(nil, entryKey, KeyObservationVersion), entryValue, version)
		b = pbBytes(b, modelMetadataProps, entry)
	}
	if m.order != "" {
		b = pbBytes(b, modelMetadataProps, pbString(pbString(nil, entryKey, KeyActionOrder), entryValue, m.order))
	}
	if m.opp != "" {
		b = pbBytes(b, modelMetadataProps, pbString(pbString(nil, entryKey, KeyOpponentOrder), entryValue, m.opp))
	}
	if m.tensors != "" {
		b = pbBytes(b, modelMetadataProps, pbString(pbString(nil, entryKey, KeyTensors), entryValue, m.tensors))
	}
	return pbBytes(b, modelGraph, g)
}

func TestParseTinyModel(t *testing.T) {
	m, err := Parse(tinyModel{}.bytes(), testSig)
	if err != nil {
		t.Fatal(err)
	}
	if m.NumSlots != 80 || m.Opset != 17 || m.Metadata[KeyObservationVersion] != testSig.ObservationVersion {
		t.Errorf("Parse = slots %d, opset %d, metadata %v", m.NumSlots, m.Opset, m.Metadata)
	}
}

// TestParseActionOrder: a model's action_order is OrderSlot when absent or
// "slot", another order only when the game's signature lists it, and an
// error names an unknown one clipped.
func TestParseActionOrder(t *testing.T) {
	for _, order := range []string{"", OrderSlot} {
		m, err := Parse(tinyModel{order: order}.bytes(), testSig)
		if err != nil || m.ActionOrder != OrderSlot {
			t.Fatalf("order %q: Parse = %v, ActionOrder %q", order, err, m.ActionOrder)
		}
	}
	_, err := Parse(tinyModel{order: OrderAttacksFirst}.bytes(), testSig)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), OrderAttacksFirst) {
		t.Fatalf("attacks_first without the signature's leave: %v", err)
	}
	sig := testSig
	sig.ActionOrders = []string{OrderAttacksFirst}
	m, err := Parse(tinyModel{order: OrderAttacksFirst}.bytes(), sig)
	if err != nil || m.ActionOrder != OrderAttacksFirst {
		t.Fatalf("attacks_first with it: Parse = %v, ActionOrder %q", err, m.ActionOrder)
	}
	long := strings.Repeat("x", 5000)
	_, err = Parse(tinyModel{order: long}.bytes(), sig)
	if !errors.Is(err, ErrUnsupported) || len(err.Error()) > 300 {
		t.Fatalf("a 5000-byte order: %d bytes of error %.80q", len(err.Error()), err)
	}
}

// TestParseOpponentOrder: a model's opponent_order is OpponentsBySeat when
// absent or "seat", another order only when the game's signature (or the
// older signature the model is checked against) lists it, and an error
// names an unknown one clipped.
func TestParseOpponentOrder(t *testing.T) {
	for _, opp := range []string{"", OpponentsBySeat} {
		m, err := Parse(tinyModel{opp: opp}.bytes(), testSig)
		if err != nil || m.OpponentOrder != OpponentsBySeat {
			t.Fatalf("opponent_order %q: Parse = %v, OpponentOrder %q", opp, err, m.OpponentOrder)
		}
	}
	_, err := Parse(tinyModel{opp: OpponentsByScore}.bytes(), testSig)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), `opponent_order "score"`) {
		t.Fatalf("score without the signature's leave: %v, want ErrUnsupported naming it", err)
	}
	sig := testSig
	sig.OpponentOrders = []string{OpponentsByScore}
	m, err := Parse(tinyModel{opp: OpponentsByScore}.bytes(), sig)
	if err != nil || m.OpponentOrder != OpponentsByScore || m.ActionOrder != OrderSlot {
		t.Fatalf("score with it: Parse = %v, OpponentOrder %q, ActionOrder %q", err, m.OpponentOrder, m.ActionOrder)
	}
	// A model of an older version is checked against that version's list.
	newer := sig
	newer.ObservationVersion = "crematoria-obs-2"
	newer.Older = []Signature{testSig}
	if _, err := Parse(tinyModel{opp: OpponentsByScore}.bytes(), newer); !errors.Is(err, ErrUnsupported) {
		t.Errorf("score, older signature without it: %v, want ErrUnsupported", err)
	}
	newer.Older = []Signature{sig}
	if m, err := Parse(tinyModel{opp: OpponentsByScore}.bytes(), newer); err != nil || m.OpponentOrder != OpponentsByScore {
		t.Errorf("score, older signature with it: Parse = %v", err)
	}
	long := strings.Repeat("x", 5000)
	_, err = Parse(tinyModel{opp: long}.bytes(), sig)
	if !errors.Is(err, ErrUnsupported) || len(err.Error()) > 300 {
		t.Fatalf("a 5000-byte order: %d bytes of error %.80q", len(err.Error()), err)
	}
}

// TestParseTensors: a model whose metadata tensors names a subset of the
// observation takes those inputs only (Model.Tensors, Signature.Inputs in
// the signature's order); without the metadata, or with names that are
// not the signature's, given twice, or not the graph's inputs, it is
// refused with ErrSignature.
func TestParseTensors(t *testing.T) {
	sub := []string{"units", "action_mask"}
	m, err := Parse(tinyModel{inputs: sub, tensors: "action_mask,units"}.bytes(), testSig)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range m.Signature.Inputs {
		got = append(got, in.Name)
	}
	if !slices.Equal(m.Tensors, sub) || !slices.Equal(got, sub) {
		t.Errorf("Tensors %v, inputs %v, want %v", m.Tensors, got, sub)
	}
	if m, err := Parse(tinyModel{}.bytes(), testSig); err != nil || m.Tensors != nil || len(m.Signature.Inputs) != len(testSig.Inputs) {
		t.Errorf("without the metadata: Parse = %v, Tensors %v", err, m.Tensors)
	}
	for _, c := range []struct {
		name string
		m    tinyModel
	}{
		{"no metadata", tinyModel{inputs: sub}},
		{"unknown", tinyModel{inputs: sub, tensors: "units,action_mask,paths"}},
		{"twice", tinyModel{inputs: sub, tensors: "units,units,action_mask"}},
		{"not the graph's", tinyModel{inputs: sub, tensors: "units,globals,action_mask"}},
		{"long", tinyModel{inputs: sub, tensors: strings.Repeat("x", 5000)}},
	} {
		_, err := Parse(c.m.bytes(), testSig)
		if !errors.Is(err, ErrSignature) || len(err.Error()) > 300 {
			t.Errorf("%s: Parse = %.100v, want ErrSignature (short)", c.name, err)
		}
	}
}

// TestParseOlderVersion: a signature with Older accepts a model of an
// older observation version, checked against that version's inputs, and
// its Model.Signature is that one; a version neither names is refused with
// both named and the model's clipped.
func TestParseOlderVersion(t *testing.T) {
	newer := testSig
	newer.ObservationVersion = "crematoria-obs-2"
	newer.Inputs = append(append([]Input(nil), testSig.Inputs...), Input{"paths", env.Bool, []int{-1, 132}})
	newer.Older = []Signature{testSig}
	m, err := Parse(tinyModel{}.bytes(), newer)
	if err != nil {
		t.Fatal(err)
	}
	if m.Signature.ObservationVersion != testSig.ObservationVersion || len(m.Signature.Inputs) != 4 {
		t.Errorf("Model.Signature = %+v, want the older one", m.Signature)
	}
	// Four tensors feed it; five are refused.
	obs := [][]byte{make([]byte, 9600), make([]byte, 640), make([]byte, 64), make([]byte, 880)}
	if _, err := m.Logits(nil, obs); err != nil {
		t.Errorf("Logits with the older version's tensors: %v", err)
	}
	if _, err := m.Logits(nil, append(obs, make([]byte, 80*132))); err == nil {
		t.Error("Logits with five tensors for a four-input model: no error")
	}
	// Without Older, the same model is refused.
	newer.Older = nil
	if _, err := Parse(tinyModel{}.bytes(), newer); !errors.Is(err, ErrObservationVersion) {
		t.Errorf("no Older: %v, want ErrObservationVersion", err)
	}
	newer.Older = []Signature{testSig}
	_, err = Parse(tinyModel{version: "crematoria-obs-0" + strings.Repeat("x", 5000)}.bytes(), newer)
	if !errors.Is(err, ErrObservationVersion) || !strings.Contains(err.Error(), `"crematoria-obs-2" or "crematoria-obs-1"`) || len(err.Error()) > 300 {
		t.Errorf("unknown version: %.200v", err)
	}
}

func TestParseErrors(t *testing.T) {
	softmax := nodePB("Softmax", []string{"l"}, []string{"s"})
	tanh := nodePB("Tanh", []string{"l"}, []string{"t"})
	tests := []struct {
		name    string
		model   []byte
		want    error
		message string
	}{
		{"unsupported operators", tinyModel{extra: [][]byte{softmax, tanh}}.bytes(), ErrUnsupported, "Softmax (1 nodes), Tanh (1 nodes)"},
		{"other observation version", tinyModel{version: "crematoria-obs-0"}.bytes(), ErrObservationVersion, `trained on "crematoria-obs-0"`},
		{"no observation version", tinyModel{version: "-"}.bytes(), ErrObservationVersion, "observation_version"},
		{"old opset", tinyModel{opset: 9}.bytes(), ErrUnsupported, "opset 9"},
		{"missing input", tinyModel{inputs: []string{"board", "units", "action_mask"}}.bytes(), ErrSignature, "inputs"},
		{"slots not a multiple of 4", tinyModel{slots: 6}.bytes(), ErrSignature, "multiple"},
		{"bad weight shape", tinyModel{w: make([]float32, 7*11)}.bytes(), ErrFormat, "raw bytes"},
		{"truncated file", tinyModel{}.bytes()[:100], ErrFormat, ""},
		{"empty file", nil, ErrFormat, "no graph"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.model, testSig)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse = %v, want an error wrapping %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("Parse = %q, want it to mention %q", err, tt.message)
			}
		})
	}
}

// FuzzParse: Parse, the decoder of files from outside, never panics nor
// runs away on any bytes.
func FuzzParse(f *testing.F) {
	f.Add(tinyModel{}.bytes())
	f.Add(tinyModel{slots: 4}.bytes())
	f.Add(tinyModel{extra: [][]byte{constNode("a", []int64{2, 1}), constNode("b", []int64{1, 3}), nodePB("Add", []string{"a", "b"}, []string{"ab"})}}.bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		Parse(b, testSig) // must not panic
	})
}
