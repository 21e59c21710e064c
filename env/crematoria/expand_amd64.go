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

// haveAVX512 reports whether the CPU and the OS support AVX-512
// Foundation: a layer is then eight columns per instruction.
var haveAVX512 = cpuHasAVX512()

// cpuHasAVX512 reports whether AVX-512 Foundation instructions may run.
func cpuHasAVX512() bool

// expandBothAVX512 is expandBoth on AVX-512.
//
//go:noescape
func expandBothAVX512(fr, pass, elev, reached *bitboard) bool

// expandSurfaceAVX512 is expandSurface on AVX-512.
//
//go:noescape
func expandSurfaceAVX512(fr, pass, reached *[Cols]uint64) bool

// andTwiceAVX512 is bitboard.andTwice on AVX-512.
//
//go:noescape
func andTwiceAVX512(b, c, x, y *bitboard)

// expandBothIntoAVX512 is expandBothAVX512 with reached left as it is and
// reached with the new front written to into.
//
//go:noescape
func expandBothIntoAVX512(fr, pass, elev, reached, into *bitboard) bool
