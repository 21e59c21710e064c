package policy

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// constNode is a Constant node holding a float tensor of the given shape.
func constNode(out string, dims []int64) []byte {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	b := pbString(nil, attrName, "value")
	b = pbVarint(b, attrType, 4) // TENSOR
	b = pbBytes(b, attrT, floatTensorPB("", dims, make([]float32, n)))
	return nodePB("Constant", nil, []string{out}, b)
}

// Models from outside are bounded: a small file cannot make a huge
// tensor by broadcasting, nor many large ones, nor have endless nodes.
func TestParseBounds(t *testing.T) {
	bomb := [][]byte{
		constNode("a", []int64{8192, 1}),
		constNode("b", []int64{1, 4096}),
		nodePB("Add", []string{"a", "b"}, []string{"ab"}),
	}
	// Five tensors of 256 x 256 each: each one under the tensor bound,
	// together over the bound of one pass (both lowered for the test).
	defer func(t, p int) { maxTensorElems, maxPassElems = t, p }(maxTensorElems, maxPassElems)
	maxTensorElems, maxPassElems = 1<<16, 1<<18
	many := [][]byte{constNode("c", []int64{256, 1}), constNode("d", []int64{1, 256})}
	for _, out := range []string{"x1", "x2", "x3", "x4", "x5"} {
		many = append(many, nodePB("Add", []string{"c", "d"}, []string{out}))
	}
	var endless [][]byte
	for i := 0; i <= MaxNodes; i++ {
		endless = append(endless, nodePB("Identity", []string{"logits"}, []string{"id" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26))}))
	}
	for _, tc := range []struct {
		name  string
		model []byte
	}{
		{"broadcast bomb", tinyModel{extra: bomb}.bytes()},
		{"many large tensors", tinyModel{extra: many}.bytes()},
		{"too many nodes", tinyModel{extra: endless}.bytes()},
		{"too many bytes", make([]byte, MaxFileBytes+1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.model, testSig)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Parse = %v, want ErrTooLarge", err)
			}
			t.Log(err)
		})
	}
}

// Load reads regular files only: a FIFO or a device is refused at once.
func TestLoadFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p.onnx")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(t.TempDir(), "big.onnx")
	f, _ := os.Create(big)
	f.Truncate(MaxFileBytes + 1)
	f.Close()
	for _, path := range []string{fifo, "/dev/zero", t.TempDir(), big} {
		done := make(chan error, 1)
		go func() { _, err := Load(path, testSig); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("Load(%s) succeeded", path)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Load(%s) hangs", path)
		}
	}
}
