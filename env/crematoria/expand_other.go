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
