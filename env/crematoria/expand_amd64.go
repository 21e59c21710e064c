//go:build amd64 && !purego

package crematoria

// The expansion of a search layer on both levels (expandFront) with AVX2:
// four columns per instruction (expand_amd64.s). The searches of the paths
// and sun_paths tensors are most of the observation's cost, and a layer
// is the same few operations on each of the 160 column words.

// haveAVX2 reports whether the CPU and the OS support AVX2 (CPUID and
// XGETBV).
var haveAVX2 = cpuHasAVX2()

// cpuHasAVX2 reports whether AVX2 instructions may run: the CPU has them
// and the OS saves the YMM registers.
func cpuHasAVX2() bool

// expandBothAVX2 is expandBoth (both levels, with the jumps at the
// Elevators) on AVX2.
//
//go:noescape
func expandBothAVX2(fr, pass, elev, reached *bitboard) bool

// expandSurfaceAVX2 is expandSurface on AVX2.
//
//go:noescape
func expandSurfaceAVX2(fr, pass, reached *[Cols]uint64) bool
