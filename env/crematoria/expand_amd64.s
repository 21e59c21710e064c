//go:build amd64 && !purego

#include "textflag.h"

// func cpuHasAVX2() bool
TEXT ·cpuHasAVX2(SB), NOSPLIT, $0-1
	// Leaf 7 must exist.
	XORL AX, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7
	JLT  no
	// Leaf 1: ECX bit 27 (OSXSAVE) and bit 28 (AVX).
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x18000000, CX
	CMPL CX, $0x18000000
	JNE  no
	// XCR0: the OS saves the XMM (bit 1) and YMM (bit 2) state.
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  no
	// Leaf 7, subleaf 0: EBX bit 5 (AVX2).
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $5, BX
	JCC  no
	MOVB $1, ret+0(FP)
	RET

no:
	MOVB $0, ret+0(FP)
	RET

// func expandBothAVX2(fr, pass, elev, reached *bitboard) bool
//
// A bitboard is [2][80]uint64: level 0's columns at byte 0, level 1's at
// byte 640. The frame holds each level's column spreads (vspread) with a
// column of padding on either side for the wrap: level k's spread of
// column j at byte 656k + 8 + 8j, column 79's copy at 656k, column 0's at
// 656k + 648. A first pass writes the spreads from fr; the second reads
// columns j-1, j, j+1 of them, so that fr can be overwritten in place.
TEXT ·expandBothAVX2(SB), 0, $1312-33
	MOVQ fr+0(FP), DI
	MOVQ pass+8(FP), SI
	MOVQ elev+16(FP), DX
	MOVQ reached+24(FP), BX
	LEAQ 0(SP), R8

	// The spreads: a column with the rows above and below.
	XORQ CX, CX

spread:
	VMOVDQU (DI)(CX*1), Y0
	VPSLLQ  $1, Y0, Y1
	VPSRLQ  $1, Y0, Y2
	VPOR    Y1, Y0, Y0
	VPOR    Y2, Y0, Y0
	VMOVDQU Y0, 8(R8)(CX*1)
	VMOVDQU 640(DI)(CX*1), Y3
	VPSLLQ  $1, Y3, Y4
	VPSRLQ  $1, Y3, Y5
	VPOR    Y4, Y3, Y3
	VPOR    Y5, Y3, Y3
	VMOVDQU Y3, 664(R8)(CX*1)
	ADDQ    $32, CX
	CMPQ    CX, $640
	JLT     spread

	// The wrap: column 79 left of column 0, column 0 right of column 79.
	MOVQ 640(R8), AX
	MOVQ AX, 0(R8)
	MOVQ 8(R8), AX
	MOVQ AX, 648(R8)
	MOVQ 1296(R8), AX
	MOVQ AX, 656(R8)
	MOVQ 664(R8), AX
	MOVQ AX, 1304(R8)

	// The new front: (spreads of j-1, j, j+1 | the other level's front
	// at an Elevator) & pass &^ reached.
	XORQ   CX, CX
	VPXOR  Y15, Y15, Y15

layer:
	VMOVDQU (R8)(CX*1), Y0
	VPOR    8(R8)(CX*1), Y0, Y0
	VPOR    16(R8)(CX*1), Y0, Y0
	VMOVDQU 656(R8)(CX*1), Y1
	VPOR    664(R8)(CX*1), Y1, Y1
	VPOR    672(R8)(CX*1), Y1, Y1
	VMOVDQU (DI)(CX*1), Y2
	VMOVDQU 640(DI)(CX*1), Y3
	VPAND   640(DX)(CX*1), Y3, Y4
	VPOR    Y4, Y0, Y0
	VPAND   (DX)(CX*1), Y2, Y5
	VPOR    Y5, Y1, Y1
	VPAND   (SI)(CX*1), Y0, Y0
	VPAND   640(SI)(CX*1), Y1, Y1
	VMOVDQU (BX)(CX*1), Y6
	VMOVDQU 640(BX)(CX*1), Y7
	VPANDN  Y0, Y6, Y0
	VPANDN  Y1, Y7, Y1
	VMOVDQU Y0, (DI)(CX*1)
	VMOVDQU Y1, 640(DI)(CX*1)
	VPOR    Y0, Y6, Y6
	VPOR    Y1, Y7, Y7
	VMOVDQU Y6, (BX)(CX*1)
	VMOVDQU Y7, 640(BX)(CX*1)
	VPOR    Y0, Y15, Y15
	VPOR    Y1, Y15, Y15
	ADDQ    $32, CX
	CMPQ    CX, $640
	JLT     layer

	VPTEST     Y15, Y15
	SETNE      ret+32(FP)
	VZEROUPPER
	RET

// func expandSurfaceAVX2(fr, pass, reached *[80]uint64) bool
//
// expandBothAVX2 on one level, without the jumps: the spreads at byte
// 8 + 8j of the frame, column 79's copy at 0 and column 0's at 648.
TEXT ·expandSurfaceAVX2(SB), 0, $656-25
	MOVQ fr+0(FP), DI
	MOVQ pass+8(FP), SI
	MOVQ reached+16(FP), BX
	LEAQ 0(SP), R8
	XORQ CX, CX

sspread:
	VMOVDQU (DI)(CX*1), Y0
	VPSLLQ  $1, Y0, Y1
	VPSRLQ  $1, Y0, Y2
	VPOR    Y1, Y0, Y0
	VPOR    Y2, Y0, Y0
	VMOVDQU Y0, 8(R8)(CX*1)
	ADDQ    $32, CX
	CMPQ    CX, $640
	JLT     sspread

	MOVQ 640(R8), AX
	MOVQ AX, 0(R8)
	MOVQ 8(R8), AX
	MOVQ AX, 648(R8)

	XORQ   CX, CX
	VPXOR  Y15, Y15, Y15

slayer:
	VMOVDQU (R8)(CX*1), Y0
	VPOR    8(R8)(CX*1), Y0, Y0
	VPOR    16(R8)(CX*1), Y0, Y0
	VPAND   (SI)(CX*1), Y0, Y0
	VMOVDQU (BX)(CX*1), Y6
	VPANDN  Y0, Y6, Y0
	VMOVDQU Y0, (DI)(CX*1)
	VPOR    Y0, Y6, Y6
	VMOVDQU Y6, (BX)(CX*1)
	VPOR    Y0, Y15, Y15
	ADDQ    $32, CX
	CMPQ    CX, $640
	JLT     slayer

	VPTEST     Y15, Y15
	SETNE      ret+24(FP)
	VZEROUPPER
	RET
