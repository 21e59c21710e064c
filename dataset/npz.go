package dataset

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"jgym/env"
)

// An array is one column of the dataset: a tensor per sample, stored in
// each shard as one .npy file of shape [samples, Shape...].
type array struct {
	Tensor
	size int // bytes per sample
}

// Tensor describes one array of the shards, per sample (the shards add
// the sample dimension in front).
type Tensor struct {
	Name  string `json:"name"`
	Dtype string `json:"dtype"` // numpy's name: uint8, int8, int16, int32, float32, bool
	Shape []int  `json:"shape"`
	// Description says what it holds (from the env's spec for the
	// observation and the action).
	Description string `json:"description,omitempty"`
}

// npyDescr is the .npy type descriptor of each dtype (little-endian).
var npyDescr = map[string]string{
	"uint8": "|u1", "int8": "|i1", "bool": "|b1", "int16": "<i2", "int32": "<i4", "int64": "<i8", "float32": "<f4",
}

var dtypeSize = map[string]int{"uint8": 1, "int8": 1, "bool": 1, "int16": 2, "int32": 4, "int64": 8, "float32": 4}

func newArray(t Tensor) (array, error) {
	es, ok := dtypeSize[t.Dtype]
	if !ok {
		return array{}, fmt.Errorf("dataset: tensor %s: dtype %s has no .npy form", t.Name, t.Dtype)
	}
	n := es
	for _, d := range t.Shape {
		n *= d
	}
	return array{Tensor: t, size: n}, nil
}

func tensorOf(t env.TensorSpec) Tensor {
	return Tensor{Name: t.Name, Dtype: t.Dtype.String(), Shape: append([]int(nil), t.Shape...), Description: t.Description}
}

// npyHeader returns the .npy (version 1.0) header of a C-ordered array of
// the given descriptor and shape, padded so that the data starts at a
// multiple of 64 bytes, as numpy writes it.
func npyHeader(descr string, shape []int) []byte {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
	}
	sh := strings.Join(dims, ", ")
	if len(shape) == 1 {
		sh += ","
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, sh)
	total := 10 + len(dict) + 1
	pad := (64 - total%64) % 64
	h := make([]byte, 0, total+pad)
	h = append(h, "\x93NUMPY\x01\x00"...)
	hl := len(dict) + pad + 1
	h = append(h, byte(hl), byte(hl>>8))
	h = append(h, dict...)
	h = append(h, strings.Repeat(" ", pad)...)
	return append(h, '\n')
}

// shard is the shard being filled: each array is spooled to its own
// temporary file, so memory stays bounded whatever the shard size; close
// deflates them into one .npz.
type shard struct {
	path    string // the .npz to write
	files   []*os.File
	bufs    []*bufio.Writer
	samples int
}

func newShard(dir, name string, arrays []array) (*shard, error) {
	s := &shard{path: filepath.Join(dir, name)}
	for _, a := range arrays {
		f, err := os.CreateTemp(dir, ".spool-"+a.Name+"-*")
		if err != nil {
			s.discard()
			return nil, fmt.Errorf("dataset: %w", err)
		}
		s.files = append(s.files, f)
		s.bufs = append(s.bufs, bufio.NewWriterSize(f, 1<<16))
	}
	return s, nil
}

// add appends one sample: one slice per array.
func (s *shard) add(cols [][]byte) error {
	for i, c := range cols {
		if _, err := s.bufs[i].Write(c); err != nil {
			return fmt.Errorf("dataset: spool: %w", err)
		}
	}
	s.samples++
	return nil
}

// close writes the .npz (through a temporary name, renamed when complete)
// and removes the spool files; it returns the size of the .npz.
func (s *shard) close(arrays []array, level int) (int64, error) {
	defer s.discard()
	tmp := s.path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return 0, fmt.Errorf("dataset: %w", err)
	}
	defer os.Remove(tmp)   // a no-op once renamed
	zw := zip.NewWriter(f) // buffered; Close flushes it
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, level) })
	for i, a := range arrays {
		if err := s.bufs[i].Flush(); err != nil {
			f.Close()
			return 0, fmt.Errorf("dataset: spool: %w", err)
		}
		if _, err := s.files[i].Seek(0, io.SeekStart); err != nil {
			f.Close()
			return 0, fmt.Errorf("dataset: spool: %w", err)
		}
		if err := writeNpy(zw, a, s.samples, s.files[i]); err != nil {
			f.Close()
			return 0, err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return 0, fmt.Errorf("dataset: write %s: %w", s.path, err)
	}
	fi, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("dataset: write %s: %w", s.path, err)
	}
	if err := os.Rename(tmp, s.path); err != nil {
		return 0, fmt.Errorf("dataset: %w", err)
	}
	return fi.Size(), nil
}

// writeNpy writes array a of n samples, read from r, as <name>.npy.
func writeNpy(zw *zip.Writer, a array, n int, r io.Reader) error {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: a.Name + ".npy", Method: zip.Deflate})
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	if _, err := w.Write(npyHeader(npyDescr[a.Dtype], append([]int{n}, a.Shape...))); err != nil {
		return fmt.Errorf("dataset: write %s: %w", a.Name, err)
	}
	want := int64(n) * int64(a.size)
	if got, err := io.Copy(w, io.LimitReader(r, want)); err != nil || got != want {
		return fmt.Errorf("dataset: write %s: %d of %d bytes: %v", a.Name, got, want, err)
	}
	return nil
}

// discard closes and removes the spool files.
func (s *shard) discard() {
	for _, f := range s.files {
		f.Close()
		os.Remove(f.Name())
	}
	s.files, s.bufs = nil, nil
}
