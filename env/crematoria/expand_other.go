//go:build !amd64 || purego

package crematoria

// haveAVX2 is false where expand_amd64.s is not built: expandFront runs
// in Go.
const haveAVX2 = false

// expandBothAVX2 is never called when haveAVX2 is false.
func expandBothAVX2(fr, pass, elev, reached *bitboard) bool {
	panic("crematoria: expandBothAVX2 without AVX2")
}

// expandSurfaceAVX2 is never called when haveAVX2 is false.
func expandSurfaceAVX2(fr, pass, reached *[Cols]uint64) bool {
	panic("crematoria: expandSurfaceAVX2 without AVX2")
}

// haveAVX512 is false where expand_amd64.s is not built.
const haveAVX512 = false

// expandBothAVX512 is never called when haveAVX512 is false.
func expandBothAVX512(fr, pass, elev, reached *bitboard) bool {
	panic("crematoria: expandBothAVX512 without AVX-512")
}

// expandSurfaceAVX512 is never called when haveAVX512 is false.
func expandSurfaceAVX512(fr, pass, reached *[Cols]uint64) bool {
	panic("crematoria: expandSurfaceAVX512 without AVX-512")
}

// andTwiceAVX512 is never called when haveAVX512 is false.
func andTwiceAVX512(b, c, x, y *bitboard) {
	panic("crematoria: andTwiceAVX512 without AVX-512")
}

// expandBothIntoAVX512 is never called when haveAVX512 is false.
func expandBothIntoAVX512(fr, pass, elev, reached, into *bitboard) bool {
	panic("crematoria: expandBothIntoAVX512 without AVX-512")
}
