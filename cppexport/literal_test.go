package cppexport

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// literalSamples are float32 values whose literals must round-trip: edge
// cases and random bit patterns (NaNs excluded).
func literalSamples(n int) []float32 {
	fs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.1, -1e9, 1e-45, -1e-45,
		math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32, 1.17549435e-38, 16777216, 16777217,
		float32(math.Inf(1)), float32(math.Inf(-1))}
	r := rand.New(rand.NewSource(1))
	for len(fs) < n {
		f := math.Float32frombits(r.Uint32())
		if !math.IsNaN(float64(f)) {
			fs = append(fs, f)
		}
	}
	return fs
}

func TestFloatLiteralsRoundTrip(t *testing.T) {
	for _, f := range literalSamples(200000) {
		lit := floatLit(f)
		if math.IsInf(float64(f), 0) {
			continue
		}
		s := strings.TrimSuffix(lit, "f")
		if !strings.ContainsAny(s, ".e") {
			t.Fatalf("%g: literal %s is not a floating literal", f, lit)
		}
		g, err := strconv.ParseFloat(s, 32)
		if err != nil || math.Float32bits(float32(g)) != math.Float32bits(f) {
			t.Fatalf("%g (%08x): literal %s reads back as %g (%v)", f, math.Float32bits(f), lit, g, err)
		}
		if digits := strings.TrimLeft(strings.SplitN(strings.TrimLeft(s, "-"), "e", 2)[0], "0."); len(strings.ReplaceAll(digits, ".", "")) > 9 {
			t.Fatalf("%g: literal %s has more than 9 significant digits", f, lit)
		}
	}
}

// TestFloatLiteralsInCpp checks that g++ turns the literals into the same
// floats, bit for bit.
func TestFloatLiteralsInCpp(t *testing.T) {
	needGXX(t)
	fs := literalSamples(20000)
	var b strings.Builder
	b.WriteString("#include <cstdio>\n#include <cstring>\n#include <cmath>\nint main() {\n  const float w[] = {\n")
	for _, f := range fs {
		fmt.Fprintf(&b, "    %s,\n", floatLit(f))
	}
	b.WriteString("  };\n  for (unsigned i = 0; i < sizeof w / sizeof w[0]; ++i) {\n    unsigned u;\n    memcpy(&u, &w[i], 4);\n    printf(\"%08x\\n\", u);\n  }\n}\n")
	dir := t.TempDir()
	src, exe := filepath.Join(dir, "lit.cc"), filepath.Join(dir, "lit")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Werror", "-o", exe, src).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(fs) {
		t.Fatalf("%d values printed, want %d", len(lines), len(fs))
	}
	for i, f := range fs {
		if want := fmt.Sprintf("%08x", math.Float32bits(f)); lines[i] != want {
			t.Fatalf("%s compiles to %s, want %s", floatLit(f), lines[i], want)
		}
	}
}
