package policy

import (
	"fmt"
	"strings"
)

// DType is the element type of a Tensor as the interpreter stores it:
// every ONNX integer type is held as int64 (Int64, with the original
// width remembered only for documentation), floats as float32.
type DType uint8

// The element types.
const (
	Float32 DType = iota + 1
	Int64
	Bool
)

func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Int64:
		return "int64"
	case Bool:
		return "bool"
	}
	return fmt.Sprintf("DType(%d)", int(d))
}

// DTypeOf maps an ONNX TensorProto.DataType to the element type the
// interpreter holds it as; the types it has none for wrap ErrUnsupported.
func DTypeOf(dataType int64) (DType, error) {
	switch dataType {
	case onnxFloat, onnxDouble:
		return Float32, nil
	case onnxUint8, onnxInt8, onnxUint16, onnxInt16, onnxInt32, onnxInt64, onnxUint32, onnxUint64:
		return Int64, nil
	case onnxBool:
		return Bool, nil
	}
	return 0, fmt.Errorf("%w: unsupported tensor data type %d", ErrUnsupported, dataType)
}

// Tensor is a dense row-major array. Exactly one of F, I, B holds the
// elements, according to DType.
type Tensor struct {
	Name  string
	DType DType
	Shape []int
	F     []float32
	I     []int64
	B     []bool
}

// newTensor allocates a zero tensor.
func newTensor(dt DType, shape []int) *Tensor {
	t := &Tensor{DType: dt, Shape: append([]int(nil), shape...)}
	n := NumElems(shape)
	if n > maxTensorElems || n < 0 {
		// Recovered by Run and fold (guard), which return ErrTooLarge.
		panic(tooLarge{shape: t.Shape})
	}
	switch dt {
	case Float32:
		t.F = make([]float32, n)
	case Int64:
		t.I = make([]int64, n)
	case Bool:
		t.B = make([]bool, n)
	}
	return t
}

// NewFloat32 returns a float32 tensor of the given shape holding data
// (not copied).
func NewFloat32(shape []int, data []float32) *Tensor {
	return &Tensor{DType: Float32, Shape: append([]int(nil), shape...), F: data}
}

// NewInt64 returns an int64 tensor of the given shape holding data (not
// copied).
func NewInt64(shape []int, data []int64) *Tensor {
	return &Tensor{DType: Int64, Shape: append([]int(nil), shape...), I: data}
}

// NewBool returns a bool tensor of the given shape holding data (not
// copied).
func NewBool(shape []int, data []bool) *Tensor {
	return &Tensor{DType: Bool, Shape: append([]int(nil), shape...), B: data}
}

// Len returns the number of elements.
func (t *Tensor) Len() int { return NumElems(t.Shape) }

func (t *Tensor) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%v", t.DType, t.Shape)
	return b.String()
}

// ints returns the elements of an integer tensor as ints (shape and index
// inputs such as Reshape's shape or Slice's starts).
func (t *Tensor) ints() ([]int64, error) {
	if t.DType != Int64 {
		return nil, fmt.Errorf("want an integer tensor, got %s", t)
	}
	return t.I, nil
}

// NumElems is the number of elements of a tensor of the shape (1 for a
// scalar).
func NumElems(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// Strides returns the row-major strides of a shape, in elements.
func Strides(shape []int) []int {
	s := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = n
		n *= shape[i]
	}
	return s
}

// normAxis turns a possibly negative axis into 0..rank-1.
func normAxis(axis int64, rank int) (int, error) {
	a := int(axis)
	if a < 0 {
		a += rank
	}
	if a < 0 || a >= rank {
		return 0, fmt.Errorf("axis %d out of range for rank %d", axis, rank)
	}
	return a, nil
}

// broadcastShape returns the numpy-style broadcast of shapes.
func broadcastShape(shapes ...[]int) ([]int, error) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make([]int, rank)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		off := rank - len(s)
		for i, d := range s {
			switch {
			case d == out[off+i] || d == 1:
			case out[off+i] == 1:
				out[off+i] = d
			default:
				return nil, fmt.Errorf("shapes %v cannot be broadcast", shapes)
			}
		}
	}
	return out, nil
}

// broadcastIndex maps every element of the output shape to an element of
// an input of shape in (which broadcasts to out): idx[k] is the flat index
// in the input of output element k.
func broadcastIndex(in, out []int) []int {
	n := NumElems(out)
	idx := make([]int, n)
	if equalShape(in, out) {
		for k := range idx {
			idx[k] = k
		}
		return idx
	}
	off := len(out) - len(in)
	inStr := Strides(in)
	// effective stride of each output axis in the input (0 where broadcast)
	eff := make([]int, len(out))
	for i := range in {
		if in[i] != 1 {
			eff[off+i] = inStr[i]
		}
	}
	pos := make([]int, len(out))
	cur := 0
	for k := 0; k < n; k++ {
		idx[k] = cur
		cur = odometer(pos, out, eff, cur)
	}
	return idx
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// odometer advances pos, a position in shape (the last axis fastest), by
// one, and returns off moved with it, where axis a steps off by eff[a].
func odometer(pos, shape, eff []int, off int) int {
	for a := len(pos) - 1; a >= 0; a-- {
		pos[a]++
		off += eff[a]
		if pos[a] < shape[a] {
			break
		}
		off -= eff[a] * pos[a]
		pos[a] = 0
	}
	return off
}
