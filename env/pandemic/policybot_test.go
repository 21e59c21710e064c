package pandemic

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"jgym/policy"
)

// A tiny ONNX policy, written here as protobuf bytes (field numbers of
// onnx.proto): logits = Where(action_mask, Cast(units) x W, -1e9), with W
// [13, 5] fixed pseudo-random weights, so that its choices depend on every
// unit's features.

func pbTag(b []byte, num, wire int) []byte { return binary.AppendUvarint(b, uint64(num<<3|wire)) }

func pbVarint(b []byte, num int, v uint64) []byte { return binary.AppendUvarint(pbTag(b, num, 0), v) }

func pbBytes(b []byte, num int, p []byte) []byte {
	b = binary.AppendUvarint(pbTag(b, num, 2), uint64(len(p)))
	return append(b, p...)
}

func pbString(b []byte, num int, s string) []byte { return pbBytes(b, num, []byte(s)) }

// ONNX element types.
const (
	onnxFloat = 1
	onnxUint8 = 2
	onnxBool  = 9
)

func floatTensorPB(name string, dims []int64, v []float32) []byte {
	var b []byte
	for _, d := range dims {
		b = pbVarint(b, 1, uint64(d)) // dims
	}
	b = pbVarint(b, 2, onnxFloat) // data_type
	b = pbString(b, 8, name)      // name
	raw := make([]byte, 0, 4*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
	}
	return pbBytes(b, 9, raw) // raw_data
}

func nodePB(op string, in, out []string, attrs ...[]byte) []byte {
	var b []byte
	for _, s := range in {
		b = pbString(b, 1, s)
	}
	for _, s := range out {
		b = pbString(b, 2, s)
	}
	b = pbString(b, 3, op+"_"+out[0])
	b = pbString(b, 4, op)
	for _, a := range attrs {
		b = pbBytes(b, 5, a)
	}
	return b
}

// valueInfoPB describes a tensor; a dimension -1 is the batch.
func valueInfoPB(name string, elem int64, dims ...int64) []byte {
	var shape []byte
	for _, d := range dims {
		var dim []byte
		if d < 0 {
			dim = pbString(nil, 2, "batch") // dim_param
		} else {
			dim = pbVarint(nil, 1, uint64(d)) // dim_value
		}
		shape = pbBytes(shape, 1, dim)
	}
	tt := pbVarint(nil, 1, uint64(elem)) // elem_type
	tt = pbBytes(tt, 2, shape)
	return pbBytes(pbString(nil, 1, name), 2, pbBytes(nil, 1, tt))
}

// tinyPolicy returns the model's bytes for a board of rows x rows and u
// unit slots.
func tinyPolicy(rows, u int64) []byte {
	w := make([]float32, UnitFeatures*NumDirs)
	for i := range w {
		w[i] = float32(math.Sin(float64(7*i+3))) * 0.05
	}
	cast := pbVarint(pbString(nil, 1, "to"), 20, 2) // attribute "to", type INT
	cast = pbVarint(cast, 3, onnxFloat)
	neg := pbVarint(pbString(nil, 1, "value"), 20, 4) // attribute "value", type TENSOR
	neg = pbBytes(neg, 5, floatTensorPB("", nil, []float32{-1e9}))
	g := pbString(nil, 2, "tiny")
	for _, n := range [][]byte{
		nodePB("Cast", []string{"units"}, []string{"u"}, cast),
		nodePB("MatMul", []string{"u", "W"}, []string{"l"}),
		nodePB("Constant", nil, []string{"neg"}, neg),
		nodePB("Where", []string{"action_mask", "l", "neg"}, []string{"logits"}),
	} {
		g = pbBytes(g, 1, n)
	}
	g = pbBytes(g, 5, floatTensorPB("W", []int64{UnitFeatures, int64(NumDirs)}, w))
	for _, in := range [][]byte{
		valueInfoPB("board", onnxUint8, -1, BoardPlanes, rows, rows),
		valueInfoPB("units", onnxUint8, -1, u, UnitFeatures),
		valueInfoPB("globals", onnxFloat, -1, NumGlobals),
		valueInfoPB("action_mask", onnxBool, -1, u, int64(NumDirs)),
	} {
		g = pbBytes(g, 11, in)
	}
	g = pbBytes(g, 12, valueInfoPB("logits", onnxFloat, -1, u, int64(NumDirs)))
	b := pbVarint(nil, 1, 8) // ir_version
	b = pbString(b, 2, "policybot_test")
	b = pbBytes(b, 8, pbVarint(pbString(nil, 1, ""), 2, 17)) // opset 17
	b = pbBytes(b, 14, pbString(pbString(nil, 1, policy.KeyObservationVersion), 2, ObservationVersion1))
	return pbBytes(b, 7, g)
}

func tinyModel(t testing.TB) *policy.Model {
	t.Helper()
	m, err := policy.Parse(tinyPolicy(70, 60), Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPolicySignature(t *testing.T) {
	sig := Def.PolicySignature()
	if sig.ObservationVersion != ObservationVersion || sig.Actions != NumDirs || sig.SlotsMultiple != 4 || len(sig.Inputs) != 5 {
		t.Fatalf("Def.PolicySignature() = %+v", sig)
	}
	if len(sig.Older) != 1 || sig.Older[0].ObservationVersion != ObservationVersion1 || len(sig.Older[0].Inputs) != 4 {
		t.Fatalf("Def.PolicySignature().Older = %+v", sig.Older)
	}
	want := [][]int{{BoardPlanes, 70, 70}, {-1, UnitFeatures}, {NumGlobals}, {-1, NumDirs}, {-1, TargetFeatures}}
	for k, in := range sig.Inputs {
		if !slices.Equal(in.Shape, want[k]) {
			t.Errorf("input %s has shape %v, want %v", in.Name, in.Shape, want[k])
		}
	}
	if m := tinyModel(t); m.NumSlots != 60 {
		t.Errorf("NumSlots = %d, want 60", m.NumSlots)
	}
	if _, err := policy.Parse(tinyPolicy(40, 60), Def.PolicySignature()); !errors.Is(err, policy.ErrSignature) {
		t.Errorf("a policy for a 40 x 40 board loads: %v", err)
	}
}

// A model ends a game whose board or number of unit slots is not its own,
// with policy.ErrSignature, before it gives any order.
func TestPolicyBotRejectsOtherGames(t *testing.T) {
	m := tinyModel(t)
	otherBoard := DefaultConfig()
	otherBoard.Rows, otherBoard.Cols = 40, 40
	otherUnits := DefaultConfig()
	otherUnits.NbUnits = 10
	for _, cfg := range []Config{otherBoard, otherUnits} {
		match, err := Def.NewMatch(cfg, 1, [4]string{"Null", "ppo", "Null", "Null"}, [4]Bot{nil, Def.NewPolicyBot(m, 1)})
		if err != nil {
			t.Fatal(err)
		}
		err = match.Run(context.Background())
		if !errors.Is(err, policy.ErrSignature) || match.Round() != 0 {
			t.Errorf("%d x %d board, %d units: Run() = %v in round %d, want ErrSignature in round 0", cfg.Rows, cfg.Cols, cfg.NbUnits, err, match.Round())
		}
	}
}
