package crematoria_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"jgym/env/crematoria"
	"jgym/policy"
)

// TestMatchesTorch compares the Go interpreter (package policy) with PyTorch on observations
// recorded by python-client/tests/test_train_export.py (which sets the two
// variables and runs this test). The record directory holds meta.json
// ({"n": N, "num_slots": U}) and raw little-endian arrays: board.bin uint8
// [N,3,40,80], units.bin uint8 [N,U,8], globals.bin float32 [N,16],
// mask.bin uint8 [N,U,11], paths.bin uint8 [N,U,132], sun_paths.bin
// uint8 [N,U,44] (crematoria-obs-3), logits.bin float32 [N,U,11]
// (PyTorch's masked logits) and actions.bin uint8 [N,U] (PyTorch's
// argmax). A model of an older version is given the first four or five.
func TestMatchesTorch(t *testing.T) {
	modelPath, dir := os.Getenv("JGYM_POLICY_MODEL"), os.Getenv("JGYM_POLICY_RECORD")
	if modelPath == "" || dir == "" {
		t.Skip("set JGYM_POLICY_MODEL and JGYM_POLICY_RECORD (python-client/tests/test_train_export.py does)")
	}
	m, err := policy.Load(modelPath, crematoria.Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		N        int `json:"n"`
		NumSlots int `json:"num_slots"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	u := meta.NumSlots
	if u != m.NumSlots {
		t.Fatalf("record has %d slots, model %d", u, m.NumSlots)
	}
	read := func(name string, per int) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != meta.N*per {
			t.Fatalf("%s: %d bytes, want %d", name, len(b), meta.N*per)
		}
		return b
	}
	board := read("board.bin", crematoria.BoardBytes)
	units := read("units.bin", u*crematoria.UnitFeatures)
	glob := read("globals.bin", 4*crematoria.NumGlobals)
	mask := read("mask.bin", u*crematoria.NumDirs)
	paths := read("paths.bin", u*crematoria.PathColumns)
	sun := read("sun_paths.bin", u*crematoria.SunColumns)
	logits := read("logits.bin", 4*u*crematoria.NumDirs)
	actions := read("actions.bin", u)
	const tol = 1e-4
	worst, mismatched := 0.0, 0
	for i := 0; i < meta.N; i++ {
		obs := [][]byte{
			board[i*crematoria.BoardBytes : (i+1)*crematoria.BoardBytes],
			units[i*u*crematoria.UnitFeatures : (i+1)*u*crematoria.UnitFeatures],
			glob[i*4*crematoria.NumGlobals : (i+1)*4*crematoria.NumGlobals],
			mask[i*u*crematoria.NumDirs : (i+1)*u*crematoria.NumDirs],
			paths[i*u*crematoria.PathColumns : (i+1)*u*crematoria.PathColumns],
			sun[i*u*crematoria.SunColumns : (i+1)*u*crematoria.SunColumns]}
		got, err := m.Logits(nil, obs[:len(m.Signature.Inputs)])
		if err != nil {
			t.Fatalf("observation %d: %v", i, err)
		}
		for k, g := range got {
			w := math.Float32frombits(binary.LittleEndian.Uint32(logits[4*(i*u*crematoria.NumDirs+k):]))
			d := math.Abs(float64(g - w))
			scale := math.Max(1, math.Abs(float64(w)))
			if d/scale > worst {
				worst = d / scale
			}
			if d > tol*scale {
				mismatched++
				if mismatched <= 5 {
					t.Errorf("observation %d slot %d dir %d: logit = %g, want %g (PyTorch)", i, k/crematoria.NumDirs, k%crematoria.NumDirs, g, w)
				}
			}
		}
		dirs := policy.Argmax(got, u, crematoria.NumDirs)
		for id, d := range dirs {
			if want := int(actions[i*u+id]); d != want {
				t.Errorf("observation %d slot %d: decision = %v, want %v (PyTorch)", i, id, d, want)
			}
		}
	}
	t.Logf("%d observations, %d slots: max relative logit difference %.2g, %d over %g", meta.N, u, worst, mismatched, tol)
}
