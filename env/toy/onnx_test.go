package toy

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"jgym/game/gametest"
	"jgym/policy"
)

// testdata/tiny.onnx is the toy's test policy for the default
// configuration, written here field by field in ONNX's protocol-buffers
// encoding (the field numbers of onnx.proto). Its logits for unit slot u
// read every input:
//
//	units[u] x Wu + globals x Wg + Conv3x3(board)[:, row(u), col(u)] + Bs[u]
//
// where action_mask allows, -1e9 elsewhere.
const tinyPath = "testdata/tiny.onnx"

// TestTinyPolicy checks that testdata/tiny.onnx is the policy tinyPolicy
// writes (with -update, writes it) and that it loads with the toy's
// signature.
func TestTinyPolicy(t *testing.T) {
	want := tinyPolicy(11)
	if *update {
		if err := os.WriteFile(tinyPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not tinyPolicy's: go test ./env/toy -run TestTinyPolicy -update", tinyPath)
	}
	m, err := policy.Load(tinyPath, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	if cfg := DefaultConfig(); m.NumSlots != cfg.NumUnits() {
		t.Errorf("NumSlots = %d, want %d", m.NumSlots, cfg.NumUnits())
	}
}

// TestSubsetPolicy: a policy of a subset of the tensors (metadata
// tensors: no board) loads with that subset as its inputs, and its bot
// plays the game a learner of an env of that subset plays with its greedy
// actions.
func TestSubsetPolicy(t *testing.T) {
	m, err := policy.Parse(tinyNet(11, false), Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"units", "globals", "action_mask"}; !slices.Equal(m.Tensors, want) {
		t.Fatalf("Tensors = %v, want %v", m.Tensors, want)
	}
	gametest.PolicyGame(t, Def, m, DefaultConfig().Rounds())
}

// pb appends protocol-buffers fields.
type pb []byte

func (b pb) tag(num, typ int) pb { return binary.AppendUvarint(b, uint64(num<<3|typ)) }
func (b pb) int(num int, v int64) pb {
	return binary.AppendUvarint(b.tag(num, 0), uint64(v))
}
func (b pb) bytes(num int, p []byte) pb {
	return append(binary.AppendUvarint(b.tag(num, 2), uint64(len(p))), p...)
}
func (b pb) str(num int, s string) pb { return b.bytes(num, []byte(s)) }

// ONNX element types.
const (
	elemFloat = 1
	elemUint8 = 2
	elemInt64 = 7
	elemBool  = 9
)

// tensor is a TensorProto: dims 1, data_type 2, name 8, raw_data 9.
func tensor(name string, elem int, dims []int64, raw []byte) []byte {
	var b pb
	for _, d := range dims {
		b = b.int(1, d)
	}
	return b.int(2, int64(elem)).str(8, name).bytes(9, raw)
}

func floats(name string, dims []int64, v []float32) []byte {
	var raw []byte
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
	}
	return tensor(name, elemFloat, dims, raw)
}

func int64s(name string, dims []int64, v ...int64) []byte {
	var raw []byte
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(x))
	}
	return tensor(name, elemInt64, dims, raw)
}

// node is a NodeProto (input 1, output 2, name 3, op_type 4, attribute
// 5); attrs are AttributeProtos.
func node(op string, in []string, out string, attrs ...[]byte) []byte {
	var b pb
	for _, s := range in {
		b = b.str(1, s)
	}
	b = b.str(2, out).str(3, op+"_"+out).str(4, op)
	for _, a := range attrs {
		b = b.bytes(5, a)
	}
	return b
}

// attrInt and attrInts are AttributeProtos (name 1, i 3, ints 8, type 20:
// INT 2, INTS 7).
func attrInt(name string, v int64) []byte { return pb{}.str(1, name).int(3, v).int(20, 2) }
func attrInts(name string, v ...int64) []byte {
	b := pb{}.str(1, name)
	for _, x := range v {
		b = b.int(8, x)
	}
	return b.int(20, 7)
}

// valueInfo is a ValueInfoProto of a tensor with a batch dimension first.
func valueInfo(name string, elem int, dims ...int64) []byte {
	shape := pb{}.bytes(1, pb{}.str(2, "batch"))
	for _, d := range dims {
		shape = shape.bytes(1, pb{}.int(1, d))
	}
	typ := pb{}.bytes(1, pb{}.int(1, int64(elem)).bytes(2, shape))
	return pb{}.str(1, name).bytes(2, typ)
}

// tinyPolicy returns the ONNX file of the test policy, its weights drawn
// from seed.
func tinyPolicy(seed uint64) []byte { return tinyNet(seed, true) }

// tinyNet is tinyPolicy's network, or without board (the convolution
// and the board under each unit left out) a policy of the subset units,
// globals and action_mask, which its metadata tensors names.
func tinyNet(seed uint64, board bool) []byte {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(seed, 3))
	normal := func(n int, scale float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64() * scale)
		}
		return v
	}
	a, u, rows, cols := int64(NumDirs), int64(cfg.NumUnits()), int64(cfg.Rows), int64(cfg.Cols)
	nodes := [][]byte{
		node("Cast", []string{"units"}, "uf", attrInt("to", elemFloat)),
		node("MatMul", []string{"uf", "Wu"}, "lu"),
		node("MatMul", []string{"globals", "Wg"}, "lg"),
		node("Add", []string{"lu", "lg"}, "l1"),
		node("Cast", []string{"board"}, "bf", attrInt("to", elemFloat)),
		node("Conv", []string{"bf", "Wc", "Bc"}, "cv", attrInts("kernel_shape", 3, 3), attrInts("pads", 1, 1, 1, 1)),
		node("Reshape", []string{"cv", "planes"}, "cflat"),
		node("Cast", []string{"units"}, "ui", attrInt("to", elemInt64)),
		node("Gather", []string{"ui", "rowcol"}, "row", attrInt("axis", 2)),
		node("Gather", []string{"ui", "colcol"}, "col", attrInt("axis", 2)),
		node("Mul", []string{"row", "ncols"}, "rowc"),
		node("Add", []string{"rowc", "col"}, "cell"),
		node("Reshape", []string{"cell", "flat"}, "cells"),
		node("Gather", []string{"cflat", "cells"}, "local", attrInt("axis", 1)),
		node("Transpose", []string{"local"}, "localT", attrInts("perm", 1, 0)),
		node("Add", []string{"l1", "localT"}, "l2"),
		node("Add", []string{"l2", "Bs"}, "l3"),
		node("Where", []string{"action_mask", "l3", "neg"}, "logits"),
	}
	if !board {
		nodes = [][]byte{nodes[0], nodes[1], nodes[2], nodes[3],
			node("Add", []string{"l1", "Bs"}, "l3"), nodes[len(nodes)-1]}
	}
	inits := [][]byte{
		floats("Wu", []int64{UnitFeatures, a}, normal(UnitFeatures*NumDirs, 0.05)),
		floats("Wg", []int64{NumGlobals, a}, normal(NumGlobals*NumDirs, 0.5)),
		floats("Wc", []int64{a, BoardPlanes, 3, 3}, normal(NumDirs*BoardPlanes*9, 0.1)),
		floats("Bc", []int64{a}, normal(NumDirs, 0.1)),
		floats("Bs", []int64{u, a}, normal(int(u*a), 1)),
		floats("neg", nil, []float32{-1e9}),
		int64s("planes", []int64{2}, a, rows*cols),
		int64s("flat", []int64{1}, -1),
		int64s("rowcol", nil, 2),
		int64s("colcol", nil, 3),
		int64s("ncols", nil, cols),
	}
	g := pb{}.str(2, "tiny_toy") // GraphProto: node 1, name 2, initializer 5, input 11, output 12
	for _, n := range nodes {
		g = g.bytes(1, n)
	}
	if !board {
		inits = [][]byte{inits[0], inits[1], inits[4], inits[5]}
	}
	for _, t := range inits {
		g = g.bytes(5, t)
	}
	inputs := [][]byte{
		valueInfo("board", elemUint8, BoardPlanes, rows, cols),
		valueInfo("units", elemUint8, u, UnitFeatures),
		valueInfo("globals", elemFloat, NumGlobals),
		valueInfo("action_mask", elemBool, u, a),
	}
	if !board {
		inputs = inputs[1:]
	}
	for _, vi := range inputs {
		g = g.bytes(11, vi)
	}
	g = g.bytes(12, valueInfo(policy.OutputLogits, elemFloat, u, a))
	meta := pb{}.str(1, policy.KeyObservationVersion).str(2, ObservationVersion)
	// ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8
	// (domain 1, version 2), metadata_props 14.
	m := pb{}.int(1, 8).str(2, "toy tests").bytes(8, pb{}.str(1, "").int(2, 17)).bytes(14, meta)
	if !board {
		m = m.bytes(14, pb{}.str(1, policy.KeyTensors).str(2, "units,globals,action_mask"))
	}
	return m.bytes(7, g)
}
