package dominator

import (
	"encoding/binary"
	"math"

	"jgym/policy"
)

// A tiny Dominator policy written as ONNX protobuf bytes, for the tests of
// the policy bot and of the C++ export: every input counts (a board
// summary, the globals, every unit's features, both masks), and the
// weights are spread so that the decisions vary from unit to unit and
// from round to round.
//
//	logits = Where(action_mask,
//	           Where(move_mask, l, l - 3),
//	           -1e9)
//	l = Cast(units) x W1 + Unsqueeze(ReduceMean(Cast(board), [2, 3]) x W2 + globals x W3)

// Field numbers of onnx.proto (as policy/onnx.go has them).
const (
	pbModelIRVersion = 1
	pbModelProducer  = 2
	pbModelGraph     = 7
	pbModelOpset     = 8
	pbModelMetadata  = 14
	pbOpsetVersion   = 2
	pbEntryKey       = 1
	pbEntryValue     = 2
	pbGraphNode      = 1
	pbGraphName      = 2
	pbGraphInit      = 5
	pbGraphInput     = 11
	pbGraphOutput    = 12
	pbNodeInput      = 1
	pbNodeOutput     = 2
	pbNodeName       = 3
	pbNodeOpType     = 4
	pbNodeAttribute  = 5
	pbAttrName       = 1
	pbAttrI          = 3
	pbAttrType       = 20
	pbTensorDims     = 1
	pbTensorDataType = 2
	pbTensorName     = 8
	pbTensorRawData  = 9
	pbValueName      = 1
	pbValueType      = 2
	pbTypeTensor     = 1
	pbTTElemType     = 1
	pbTTShape        = 2
	pbShapeDim       = 1
	pbDimValue       = 1
	pbDimParam       = 2

	onnxFloat = 1
	onnxUint8 = 2
	onnxInt64 = 7
	onnxBool  = 9
)

func pbVarint(b []byte, field int, v uint64) []byte {
	b = binary.AppendUvarint(b, uint64(field)<<3)
	return binary.AppendUvarint(b, v)
}

func pbBytes(b []byte, field int, p []byte) []byte {
	b = binary.AppendUvarint(b, uint64(field)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(p)))
	return append(b, p...)
}

func pbString(b []byte, field int, s string) []byte { return pbBytes(b, field, []byte(s)) }

func pbTensor(name string, elem int, dims []int, raw []byte) []byte {
	var b []byte
	for _, d := range dims {
		b = pbVarint(b, pbTensorDims, uint64(d))
	}
	b = pbVarint(b, pbTensorDataType, uint64(elem))
	b = pbString(b, pbTensorName, name)
	return pbBytes(b, pbTensorRawData, raw)
}

func pbFloats(name string, dims []int, v []float32) []byte {
	raw := make([]byte, 0, 4*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
	}
	return pbTensor(name, onnxFloat, dims, raw)
}

func pbInts(name string, dims []int, v []int64) []byte {
	raw := make([]byte, 0, 8*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(x))
	}
	return pbTensor(name, onnxInt64, dims, raw)
}

func pbAttrInt(name string, v int64) []byte {
	b := pbString(nil, pbAttrName, name)
	b = pbVarint(b, pbAttrType, 2) // INT
	return pbVarint(b, pbAttrI, uint64(v))
}

func pbNode(op string, in, out []string, attrs ...[]byte) []byte {
	var b []byte
	for _, s := range in {
		b = pbString(b, pbNodeInput, s)
	}
	for _, s := range out {
		b = pbString(b, pbNodeOutput, s)
	}
	b = pbString(b, pbNodeName, op+"_"+out[0])
	b = pbString(b, pbNodeOpType, op)
	for _, a := range attrs {
		b = pbBytes(b, pbNodeAttribute, a)
	}
	return b
}

// pbValue is a graph input or output; a dimension -1 is the batch.
func pbValue(name string, elem int, dims ...int) []byte {
	var shape []byte
	for _, d := range dims {
		var dim []byte
		if d < 0 {
			dim = pbString(nil, pbDimParam, "batch")
		} else {
			dim = pbVarint(nil, pbDimValue, uint64(d))
		}
		shape = pbBytes(shape, pbShapeDim, dim)
	}
	tt := pbVarint(nil, pbTTElemType, uint64(elem))
	tt = pbBytes(tt, pbTTShape, shape)
	return pbBytes(pbString(nil, pbValueName, name), pbValueType, pbBytes(nil, pbTypeTensor, tt))
}

// weights returns n pseudo-random weights in [-scale, scale), from seed.
func weights(n int, seed uint64, scale float32) []float32 {
	w := make([]float32, n)
	x := seed
	for i := range w {
		x = x*6364136223846793005 + 1442695040888963407
		w[i] = (float32(x>>40)/float32(1<<24)*2 - 1) * scale
	}
	return w
}

// unitWeights weighs the unit features so that the position decides
// most: a linear function of row and column whose argmax changes across
// the board.
func unitWeights() []float32 {
	scale := [UnitFeatures]float32{1, 1, 3, 0.02, 1, 1, 1, 1}
	w := weights(UnitFeatures*NumDirs, 1, 1)
	for i := range w {
		w[i] *= scale[i/NumDirs]
	}
	return w
}

// tinyPolicy returns the bytes of the tiny policy (dominator-obs-1) for
// u unit slots on a side x side board.
func tinyPolicy(u, side int) []byte { return tinyPolicyOf(u, side, false) }

// tinyPolicyTargets is tinyPolicy's network of dominator-obs-2: it also
// reads the targets tensor (a linear map added to the units' logits,
// weighted so that the steps it marks often win).
func tinyPolicyTargets(u, side int) []byte { return tinyPolicyOf(u, side, true) }

// tinyPolicyExpert is tinyPolicy's network that also reads the opt-in
// expert tensor, weighted so that it mostly plays Khan's orders (a linear
// map of 200 x the identity, plus noise, added to the units' logits), on
// dominator-obs-2's tensors without targets (metadata tensors).
func tinyPolicyExpert(u, side int) []byte { return tinyPolicyWith(u, side, false, true) }

func tinyPolicyOf(u, side int, targets bool) []byte { return tinyPolicyWith(u, side, targets, false) }

func tinyPolicyWith(u, side int, targets, expert bool) []byte {
	g := pbString(nil, pbGraphName, "tiny")
	l1 := "l1"
	nodes := [][]byte{
		pbNode("Cast", []string{"units"}, []string{"uf"}, pbAttrInt("to", onnxFloat)),
		pbNode("MatMul", []string{"uf", "W1"}, []string{"l1"}), // [1,U,9]
	}
	if targets {
		nodes = append(nodes,
			pbNode("Cast", []string{"targets"}, []string{"tf"}, pbAttrInt("to", onnxFloat)),
			pbNode("MatMul", []string{"tf", "W4"}, []string{"lt"}),
			pbNode("Add", []string{"l1", "lt"}, []string{"l1t"}))
		l1 = "l1t"
	}
	if expert {
		nodes = append(nodes,
			pbNode("Cast", []string{ExpertTensor}, []string{"xf"}, pbAttrInt("to", onnxFloat)),
			pbNode("MatMul", []string{"xf", "W5"}, []string{"lx"}),
			pbNode("Add", []string{l1, "lx"}, []string{"l1x"}))
		l1 = "l1x"
	}
	for _, n := range append(nodes, [][]byte{
		pbNode("Cast", []string{"board"}, []string{"bf"}, pbAttrInt("to", onnxFloat)), // [1,6,n,n]
		pbNode("ReduceMean", []string{"bf", "axes23"}, []string{"bm"}, pbAttrInt("keepdims", 0)),
		pbNode("MatMul", []string{"bm", "W2"}, []string{"gb"}),      // [1,9]
		pbNode("MatMul", []string{"globals", "W3"}, []string{"gg"}), // [1,9]
		pbNode("Add", []string{"gb", "gg"}, []string{"g"}),
		pbNode("Unsqueeze", []string{"g", "axis1"}, []string{"g3"}), // [1,1,9]
		pbNode("Add", []string{l1, "g3"}, []string{"l2"}),
		pbNode("Add", []string{"l2", "pen"}, []string{"l2m"}),
		pbNode("Where", []string{"move_mask", "l2", "l2m"}, []string{"l3"}),
		pbNode("Where", []string{"action_mask", "l3", "neg"}, []string{"logits"}),
	}...) {
		g = pbBytes(g, pbGraphNode, n)
	}
	inits := [][]byte{
		pbFloats("W1", []int{UnitFeatures, NumDirs}, unitWeights()),
		pbFloats("W2", []int{BoardPlanes, NumDirs}, weights(BoardPlanes*NumDirs, 2, 0.1)),
		pbFloats("W3", []int{NumGlobals, NumDirs}, weights(NumGlobals*NumDirs, 3, 2)),
		pbFloats("pen", nil, []float32{-3}),
		pbFloats("neg", nil, []float32{-1e9}),
		pbInts("axes23", []int{2}, []int64{2, 3}),
		pbInts("axis1", []int{1}, []int64{1}),
	}
	if targets {
		w := weights(TargetFeatures*NumDirs, 4, 1)
		for d := 0; d < 8; d++ {
			w[d*NumDirs+d] += 6 // a marked step weighs
		}
		inits = append(inits, pbFloats("W4", []int{TargetFeatures, NumDirs}, w))
	}
	if expert {
		w := weights(NumDirs*NumDirs, 5, 0.1)
		for d := range NumDirs {
			w[d*NumDirs+d] += 200 // Khan's order outweighs the rest
		}
		inits = append(inits, pbFloats("W5", []int{NumDirs, NumDirs}, w))
	}
	for _, t := range inits {
		g = pbBytes(g, pbGraphInit, t)
	}
	inputs := [][]byte{
		pbValue("board", onnxUint8, -1, BoardPlanes, side, side),
		pbValue("units", onnxUint8, -1, u, UnitFeatures),
		pbValue("globals", onnxFloat, -1, NumGlobals),
		pbValue("action_mask", onnxBool, -1, u, NumDirs),
		pbValue("move_mask", onnxBool, -1, u, NumDirs),
	}
	version := ObservationVersion1
	if targets {
		inputs = append(inputs, pbValue("targets", onnxBool, -1, u, TargetFeatures))
		version = ObservationVersion
	}
	if expert {
		inputs = append(inputs, pbValue(ExpertTensor, onnxBool, -1, u, NumDirs))
		version = ObservationVersion
	}
	for _, in := range inputs {
		g = pbBytes(g, pbGraphInput, in)
	}
	g = pbBytes(g, pbGraphOutput, pbValue("logits", onnxFloat, -1, u, NumDirs))

	b := pbVarint(nil, pbModelIRVersion, 8)
	b = pbString(b, pbModelProducer, "tinymodel_test")
	b = pbBytes(b, pbModelOpset, pbVarint(nil, pbOpsetVersion, 18))
	entry := pbString(pbString(nil, pbEntryKey, policy.KeyObservationVersion), pbEntryValue, version)
	b = pbBytes(b, pbModelMetadata, entry)
	if expert {
		tensors := "board,units,globals,action_mask,move_mask," + ExpertTensor
		b = pbBytes(b, pbModelMetadata, pbString(pbString(nil, pbEntryKey, policy.KeyTensors), pbEntryValue, tensors))
	}
	return pbBytes(b, pbModelGraph, g)
}
