package pandemic

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math/rand/v2"
	"os"
	"testing"

	"jgym/policy"
)

// A small ONNX policy for the export tests, written byte by byte with the
// helpers of policybot_test.go: every input of pandemic-obs-1 matters. The
// logits of unit slot u are
//
//	Cast(units[u]) x Wu  +  globals x Wg  +  Conv3x3(Cast(board))[:, row(u), col(u)]  +  Bs[u]
//
// masked by action_mask (-1e9 where a move is illegal): the board enters
// through a convolution read at each unit's cell, which the unit's row
// gives, and the slot's own bias Bs[u] makes the units differ.

const onnxInt64 = 7

func int64TensorPB(name string, dims []int64, v []int64) []byte {
	var b []byte
	for _, d := range dims {
		b = pbVarint(b, 1, uint64(d)) // dims
	}
	b = pbVarint(b, 2, onnxInt64) // data_type
	b = pbString(b, 8, name)      // name
	raw := make([]byte, 0, 8*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(x))
	}
	return pbBytes(b, 9, raw) // raw_data
}

// attrIntPB and attrIntsPB are AttributeProtos (name 1, i 3, ints 8,
// type 20: INT 2, INTS 7).
func attrIntPB(name string, v int64) []byte {
	return pbVarint(pbVarint(pbString(nil, 1, name), 3, uint64(v)), 20, 2)
}

func attrIntsPB(name string, v ...int64) []byte {
	b := pbString(nil, 1, name)
	for _, x := range v {
		b = pbVarint(b, 8, uint64(x))
	}
	return pbVarint(b, 20, 7)
}

// exportPolicy returns the ONNX file of the export tests' policy for u
// unit slots on the default 70 x 70 board, its weights drawn from seed.
func exportPolicy(u int, seed uint64) []byte { return exportPolicyOf(u, seed, false) }

// exportPolicyTargets is exportPolicy's network of pandemic-obs-2: it also
// reads the targets tensor (a linear map added to the units' logits).
func exportPolicyTargets(u int, seed uint64) []byte { return exportPolicyOf(u, seed, true) }

// exportPolicyExpert is exportPolicy's network that also reads the
// opt-in expert tensor, weighted so that it mostly plays Pasteur's orders
// (a linear map of 30 x the identity added to the units' logits), on
// pandemic-obs-2's tensors without targets (metadata tensors).
func exportPolicyExpert(u int, seed uint64) []byte { return exportPolicyWith(u, seed, false, true) }

func exportPolicyOf(u int, seed uint64, targets bool) []byte {
	return exportPolicyWith(u, seed, targets, false)
}

func exportPolicyWith(u int, seed uint64, targets, expert bool) []byte {
	rng := rand.New(rand.NewPCG(seed, 11))
	normal := func(n int, scale float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64() * scale)
		}
		return v
	}
	cfg := DefaultConfig()
	rows, cols := int64(cfg.Rows), int64(cfg.Cols)
	a, na := int64(NumDirs), NumDirs
	one := func(op string, in []string, out string, attrs ...[]byte) []byte {
		return nodePB(op, in, []string{out}, attrs...)
	}
	nodes := [][]byte{
		one("Cast", []string{"units"}, "uf", attrIntPB("to", onnxFloat)),
		one("MatMul", []string{"uf", "Wu"}, "lu"),
		one("MatMul", []string{"globals", "Wg"}, "lg"),
		one("Add", []string{"lu", "lg"}, "l1"),
	}
	l1 := "l1"
	if targets {
		nodes = append(nodes,
			one("Cast", []string{"targets"}, "tf", attrIntPB("to", onnxFloat)),
			one("MatMul", []string{"tf", "Wt"}, "lt"),
			one("Add", []string{"l1", "lt"}, "l1t"))
		l1 = "l1t"
	}
	if expert {
		nodes = append(nodes,
			one("Cast", []string{ExpertTensor}, "xf", attrIntPB("to", onnxFloat)),
			one("MatMul", []string{"xf", "Wx"}, "lx"),
			one("Add", []string{l1, "lx"}, "l1x"))
		l1 = "l1x"
	}
	nodes = append(nodes,
		one("Cast", []string{"board"}, "bf", attrIntPB("to", onnxFloat)),
		one("Conv", []string{"bf", "Wc", "Bc"}, "cv", attrIntsPB("kernel_shape", 3, 3), attrIntsPB("pads", 1, 1, 1, 1)),
		one("Reshape", []string{"cv", "flat"}, "cflat"),
		one("Cast", []string{"units"}, "ui", attrIntPB("to", onnxInt64)),
		one("Gather", []string{"ui", "rowcol"}, "row", attrIntPB("axis", 2)),
		one("Gather", []string{"ui", "colcol"}, "col", attrIntPB("axis", 2)),
		one("Mul", []string{"row", "ncols"}, "rowoff"),
		one("Add", []string{"rowoff", "col"}, "cell"),
		one("Reshape", []string{"cell", "minus1"}, "cells"),
		one("Gather", []string{"cflat", "cells"}, "local", attrIntPB("axis", 1)),
		one("Transpose", []string{"local"}, "localT", attrIntsPB("perm", 1, 0)),
		one("Add", []string{l1, "localT"}, "l2"),
		one("Add", []string{"l2", "Bs"}, "l3"),
		one("Where", []string{"action_mask", "l3", "neg"}, "logits"),
	)
	inits := [][]byte{
		floatTensorPB("Wu", []int64{UnitFeatures, a}, normal(UnitFeatures*na, 0.02)),
		floatTensorPB("Wg", []int64{NumGlobals, a}, normal(NumGlobals*na, 0.5)),
		floatTensorPB("Wc", []int64{a, BoardPlanes, 3, 3}, normal(na*BoardPlanes*9, 0.01)),
		floatTensorPB("Bc", []int64{a}, normal(na, 0.1)),
		floatTensorPB("Bs", []int64{int64(u), a}, normal(u*na, 1)),
		floatTensorPB("neg", nil, []float32{-1e9}),
		int64TensorPB("flat", []int64{2}, []int64{a, rows * cols}),
		int64TensorPB("minus1", []int64{1}, []int64{-1}),
		int64TensorPB("rowcol", nil, []int64{UnitRow}),
		int64TensorPB("colcol", nil, []int64{UnitCol}),
		int64TensorPB("ncols", nil, []int64{cols}),
	}
	if targets {
		inits = append(inits, floatTensorPB("Wt", []int64{TargetFeatures, a}, normal(TargetFeatures*na, 0.5)))
	}
	if expert {
		wx := normal(na*na, 0.1)
		for d := range na {
			wx[d*na+d] += 30
		}
		inits = append(inits, floatTensorPB("Wx", []int64{a, a}, wx))
	}
	g := pbString(nil, 2, "tiny_pandemic") // GraphProto.name
	for _, n := range nodes {
		g = pbBytes(g, 1, n) // node
	}
	for _, t := range inits {
		g = pbBytes(g, 5, t) // initializer
	}
	uu := int64(u)
	inputs := [][]byte{
		valueInfoPB("board", onnxUint8, -1, BoardPlanes, rows, cols),
		valueInfoPB("units", onnxUint8, -1, uu, UnitFeatures),
		valueInfoPB("globals", onnxFloat, -1, NumGlobals),
		valueInfoPB("action_mask", onnxBool, -1, uu, a),
	}
	version := ObservationVersion1
	if targets {
		inputs = append(inputs, valueInfoPB("targets", onnxBool, -1, uu, TargetFeatures))
		version = ObservationVersion
	}
	if expert {
		inputs = append(inputs, valueInfoPB(ExpertTensor, onnxBool, -1, uu, a))
		version = ObservationVersion
	}
	for _, vi := range inputs {
		g = pbBytes(g, 11, vi) // input
	}
	g = pbBytes(g, 12, valueInfoPB(policy.OutputLogits, onnxFloat, -1, uu, a)) // output
	b := pbVarint(nil, 1, 8)                                                   // ir_version
	b = pbString(b, 2, "pandemic tests")                                       // producer_name
	b = pbBytes(b, 8, pbVarint(pbString(nil, 1, ""), 2, 17))                   // opset_import: ai.onnx 17
	b = pbBytes(b, 14, pbString(pbString(nil, 1, policy.KeyObservationVersion), 2, version))
	if expert {
		b = pbBytes(b, 14, pbString(pbString(nil, 1, policy.KeyTensors), 2, "board,units,globals,action_mask,"+ExpertTensor))
	}
	return pbBytes(b, 7, g) // graph
}

var update = flag.Bool("update", false, "rewrite the test models of testdata/")

// policyFile checks the test model file path against want, the bytes of
// the network that writes it (gen names it in the message), rewriting the
// file under -update, and returns the model loaded from the file.
func policyFile(t *testing.T, path string, want []byte, gen string) *policy.Model {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from %s: go test ./env/pandemic -run %s -update", path, gen, t.Name())
	}
	m, err := policy.Load(path, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// testdata/tiny.onnx is the export tests' policy for the default
// configuration (60 slots), for the commands of the documentation
// (jgym export-cpp -g pandemic env/pandemic/testdata/tiny.onnx ...);
// go test ./env/pandemic -run TestTinyPolicyFile -update rewrites it.
func TestTinyPolicyFile(t *testing.T) {
	m := policyFile(t, "testdata/tiny.onnx", exportPolicy(60, 1), "exportPolicy(60, 1)")
	if m.NumSlots != 60 {
		t.Errorf("NumSlots = %d, want 60", m.NumSlots)
	}
}
