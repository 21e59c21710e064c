package moria

import (
	"encoding/binary"
	"math"
	"math/rand/v2"

	"jgym/policy"
)

// A tiny ONNX policy for the tests, written here byte by byte (the field
// numbers of onnx.proto, as policy/onnx.go reads them): every input of
// moria-obs-1 (and, in tinyPolicyTargets, moria-obs-2's targets) matters. The logits of unit slot u are
//
//	Cast(units[u]) x Wu  +  globals x Wg  +  Conv3x3(Cast(board))[:, row(u), col(u)]  +  Bs[u]
//
// masked by action_mask (-1e9 where a direction is illegal): the board
// enters through a convolution read at each unit's cell, which the unit
// row gives, and the slot's own bias Bs[u] makes the units differ.

// ONNX field numbers and element types.
const (
	pbVarint = 0
	pbLen    = 2

	onnxFloat = 1
	onnxUint8 = 2
	onnxInt64 = 7
	onnxBool  = 9
)

func pbTag(b []byte, num, typ int) []byte { return binary.AppendUvarint(b, uint64(num<<3|typ)) }

func pbInt(b []byte, num int, v int64) []byte {
	return binary.AppendUvarint(pbTag(b, num, pbVarint), uint64(v))
}

func pbBytes(b []byte, num int, p []byte) []byte {
	b = binary.AppendUvarint(pbTag(b, num, pbLen), uint64(len(p)))
	return append(b, p...)
}

func pbString(b []byte, num int, s string) []byte { return pbBytes(b, num, []byte(s)) }

// tensorPB is a TensorProto (dims 1, data_type 2, name 8, raw_data 9).
func tensorPB(name string, elem int, dims []int64, raw []byte) []byte {
	var b []byte
	for _, d := range dims {
		b = pbInt(b, 1, d)
	}
	b = pbInt(b, 2, int64(elem))
	b = pbString(b, 8, name)
	return pbBytes(b, 9, raw)
}

func floatTensorPB(name string, dims []int64, v []float32) []byte {
	raw := make([]byte, 0, 4*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
	}
	return tensorPB(name, onnxFloat, dims, raw)
}

func int64TensorPB(name string, dims []int64, v []int64) []byte {
	raw := make([]byte, 0, 8*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(x))
	}
	return tensorPB(name, onnxInt64, dims, raw)
}

// attrIntPB and attrIntsPB are AttributeProtos (name 1, i 3, ints 8,
// type 20: INT 2, INTS 7).
func attrIntPB(name string, v int64) []byte {
	return pbInt(pbInt(pbString(nil, 1, name), 3, v), 20, 2)
}

func attrIntsPB(name string, v ...int64) []byte {
	b := pbString(nil, 1, name)
	for _, x := range v {
		b = pbInt(b, 8, x)
	}
	return pbInt(b, 20, 7)
}

// nodePB is a NodeProto (input 1, output 2, name 3, op_type 4, attribute 5).
func nodePB(op string, in []string, out string, attrs ...[]byte) []byte {
	var b []byte
	for _, s := range in {
		b = pbString(b, 1, s)
	}
	b = pbString(b, 2, out)
	b = pbString(b, 3, op+"_"+out)
	b = pbString(b, 4, op)
	for _, a := range attrs {
		b = pbBytes(b, 5, a)
	}
	return b
}

// valueInfoPB is a ValueInfoProto of a tensor whose first dimension is the
// batch ("batch").
func valueInfoPB(name string, elem int, dims ...int64) []byte {
	shape := pbBytes(nil, 1, pbString(nil, 2, "batch")) // TensorShapeProto.dim: dim_param
	for _, d := range dims {
		shape = pbBytes(shape, 1, pbInt(nil, 1, d)) // dim_value
	}
	tt := pbBytes(pbInt(nil, 1, int64(elem)), 2, shape)            // TypeProto.Tensor: elem_type, shape
	return pbBytes(pbString(nil, 1, name), 2, pbBytes(nil, 1, tt)) // name, type.tensor_type
}

// tinyPolicy returns the ONNX file of the test policy of moria-obs-1 for
// u unit slots, its weights drawn from seed.
func tinyPolicy(u int, seed uint64) []byte { return tinyPolicyOf(u, seed, false) }

// tinyPolicyTargets is tinyPolicy's network of moria-obs-2: it also reads
// the targets tensor (a linear map added to the units' logits).
func tinyPolicyTargets(u int, seed uint64) []byte { return tinyPolicyOf(u, seed, true) }

// tinyPolicyExpert is tinyPolicy's network that also reads the opt-in
// expert tensor, weighted so that it mostly plays Balin's orders (a
// linear map of 200 x the identity, plus noise, added to the units'
// logits), on moria-obs-2's tensors without targets (metadata tensors).
func tinyPolicyExpert(u int, seed uint64) []byte { return tinyPolicyWith(u, seed, false, true) }

func tinyPolicyOf(u int, seed uint64, targets bool) []byte {
	return tinyPolicyWith(u, seed, targets, false)
}

func tinyPolicyWith(u int, seed uint64, targets, expert bool) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	normal := func(n int, scale float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64() * scale)
		}
		return v
	}
	a, na := int64(NumDirs), NumDirs
	nodes := [][]byte{
		nodePB("Cast", []string{"units"}, "uf", attrIntPB("to", onnxFloat)),
		nodePB("MatMul", []string{"uf", "Wu"}, "lu"),
		nodePB("MatMul", []string{"globals", "Wg"}, "lg"),
		nodePB("Add", []string{"lu", "lg"}, "l1"),
	}
	l1 := "l1"
	if targets {
		nodes = append(nodes,
			nodePB("Cast", []string{"targets"}, "tf", attrIntPB("to", onnxFloat)),
			nodePB("MatMul", []string{"tf", "Wt"}, "lt"),
			nodePB("Add", []string{"l1", "lt"}, "l1t"))
		l1 = "l1t"
	}
	if expert {
		nodes = append(nodes,
			nodePB("Cast", []string{ExpertTensor}, "xf", attrIntPB("to", onnxFloat)),
			nodePB("MatMul", []string{"xf", "Wx"}, "lx"),
			nodePB("Add", []string{l1, "lx"}, "l1x"))
		l1 = "l1x"
	}
	nodes = append(nodes,
		nodePB("Cast", []string{"board"}, "bf", attrIntPB("to", onnxFloat)),
		nodePB("Conv", []string{"bf", "Wc", "Bc"}, "cv", attrIntsPB("kernel_shape", 3, 3), attrIntsPB("pads", 1, 1, 1, 1)),
		nodePB("Reshape", []string{"cv", "flat"}, "cflat"),
		nodePB("Cast", []string{"units"}, "ui", attrIntPB("to", onnxInt64)),
		nodePB("Gather", []string{"ui", "four"}, "row", attrIntPB("axis", 2)),
		nodePB("Gather", []string{"ui", "five"}, "col", attrIntPB("axis", 2)),
		nodePB("Mul", []string{"row", "sixty"}, "row60"),
		nodePB("Add", []string{"row60", "col"}, "cell"),
		nodePB("Reshape", []string{"cell", "minus1"}, "cells"),
		nodePB("Gather", []string{"cflat", "cells"}, "local", attrIntPB("axis", 1)),
		nodePB("Transpose", []string{"local"}, "localT", attrIntsPB("perm", 1, 0)),
		nodePB("Add", []string{l1, "localT"}, "l2"),
		nodePB("Add", []string{"l2", "Bs"}, "l3"),
		nodePB("Where", []string{"action_mask", "l3", "neg"}, "logits"),
	)
	inits := [][]byte{
		floatTensorPB("Wu", []int64{UnitFeatures, a}, normal(UnitFeatures*na, 0.02)),
		floatTensorPB("Wg", []int64{NumGlobals, a}, normal(NumGlobals*na, 0.05)),
		floatTensorPB("Wc", []int64{a, BoardPlanes, 3, 3}, normal(na*BoardPlanes*9, 0.01)),
		floatTensorPB("Bc", []int64{a}, normal(na, 0.1)),
		floatTensorPB("Bs", []int64{int64(u), a}, normal(u*na, 3)),
		floatTensorPB("neg", nil, []float32{-1e9}),
		int64TensorPB("flat", []int64{2}, []int64{a, NumCells}),
		int64TensorPB("minus1", []int64{1}, []int64{-1}),
		int64TensorPB("four", nil, []int64{4}),
		int64TensorPB("five", nil, []int64{5}),
		int64TensorPB("sixty", nil, []int64{Cols}),
	}
	if targets {
		inits = append(inits, floatTensorPB("Wt", []int64{TargetFeatures, a}, normal(TargetFeatures*na, 2)))
	}
	if expert {
		w := normal(na*na, 0.1)
		for d := range na {
			w[d*na+d] += 200 // Balin's order outweighs the rest
		}
		inits = append(inits, floatTensorPB("Wx", []int64{a, a}, w))
	}
	g := pbString(nil, 2, "tiny_moria") // GraphProto.name
	for _, n := range nodes {
		g = pbBytes(g, 1, n) // node
	}
	for _, t := range inits {
		g = pbBytes(g, 5, t) // initializer
	}
	uu := int64(u)
	inputs := [][]byte{
		valueInfoPB("board", onnxUint8, BoardPlanes, Rows, Cols),
		valueInfoPB("units", onnxUint8, uu, UnitFeatures),
		valueInfoPB("globals", onnxFloat, NumGlobals),
		valueInfoPB("action_mask", onnxBool, uu, a),
	}
	version := ObservationVersion1
	if targets {
		inputs = append(inputs, valueInfoPB("targets", onnxBool, uu, TargetFeatures))
		version = ObservationVersion
	}
	if expert {
		inputs = append(inputs, valueInfoPB(ExpertTensor, onnxBool, uu, a))
		version = ObservationVersion
	}
	for _, vi := range inputs {
		g = pbBytes(g, 11, vi) // input
	}
	g = pbBytes(g, 12, valueInfoPB(policy.OutputLogits, onnxFloat, uu, a)) // output
	b := pbInt(nil, 1, 8)                                                  // ir_version
	b = pbString(b, 2, "moria tests")                                      // producer_name
	b = pbBytes(b, 8, pbInt(pbString(nil, 1, ""), 2, 17))                  // opset_import: ai.onnx 17
	entry := pbString(pbString(nil, 1, policy.KeyObservationVersion), 2, version)
	b = pbBytes(b, 14, entry) // metadata_props
	if expert {
		tensors := "board,units,globals,action_mask," + ExpertTensor
		b = pbBytes(b, 14, pbString(pbString(nil, 1, policy.KeyTensors), 2, tensors))
	}
	return pbBytes(b, 7, g) // graph
}
