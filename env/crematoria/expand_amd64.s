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

// func cpuHasAVX512() bool
//
// AVX-512 Foundation: the CPU has it (leaf 7, EBX bit 16) and the OS
// saves the opmask and ZMM state with the XMM and YMM state (XCR0 bits 1,
// 2, 5, 6 and 7).
TEXT ·cpuHasAVX512(SB), NOSPLIT, $0-1
	XORL AX, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7
	JLT  no512
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x08000000, CX
	CMPL CX, $0x08000000
	JNE  no512
	XORL CX, CX
	XGETBV
	ANDL $0xE6, AX
	CMPL AX, $0xE6
	JNE  no512
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $16, BX
	JCC  no512
	MOVB $1, ret+0(FP)
	RET

no512:
	MOVB $0, ret+0(FP)
	RET

// func expandBothAVX512(fr, pass, elev, reached *bitboard) bool
//
// expandBothAVX2 eight columns per instruction, with the frame laid out
// the same way; VPTERNLOGQ does three-input logic in one instruction:
// 0xFE is a|b|c, 0xF8 a|(b&c), 0x20 a&^b&c (a the destination, b the
// register source, c the last source).
TEXT ·expandBothAVX512(SB), 0, $1312-33
	MOVQ fr+0(FP), DI
	MOVQ pass+8(FP), SI
	MOVQ elev+16(FP), DX
	MOVQ reached+24(FP), BX
	LEAQ 0(SP), R8
	XORQ CX, CX

spread512:
	VMOVDQU64  (DI)(CX*1), Z0
	VPSLLQ     $1, Z0, Z1
	VPSRLQ     $1, Z0, Z2
	VPTERNLOGQ $0xFE, Z2, Z1, Z0
	VMOVDQU64  Z0, 8(R8)(CX*1)
	VMOVDQU64  640(DI)(CX*1), Z3
	VPSLLQ     $1, Z3, Z4
	VPSRLQ     $1, Z3, Z5
	VPTERNLOGQ $0xFE, Z5, Z4, Z3
	VMOVDQU64  Z3, 664(R8)(CX*1)
	ADDQ       $64, CX
	CMPQ       CX, $640
	JLT        spread512

	MOVQ 640(R8), AX
	MOVQ AX, 0(R8)
	MOVQ 8(R8), AX
	MOVQ AX, 648(R8)
	MOVQ 1296(R8), AX
	MOVQ AX, 656(R8)
	MOVQ 664(R8), AX
	MOVQ AX, 1304(R8)

	XORQ      CX, CX
	VPXORQ    Z15, Z15, Z15

layer512:
	VMOVDQU64  (R8)(CX*1), Z0
	VMOVDQU64  8(R8)(CX*1), Z4
	VPTERNLOGQ $0xFE, 16(R8)(CX*1), Z4, Z0
	VMOVDQU64  656(R8)(CX*1), Z1
	VMOVDQU64  664(R8)(CX*1), Z5
	VPTERNLOGQ $0xFE, 672(R8)(CX*1), Z5, Z1
	VMOVDQU64  (DI)(CX*1), Z2
	VMOVDQU64  640(DI)(CX*1), Z3
	VPTERNLOGQ $0xF8, 640(DX)(CX*1), Z3, Z0
	VPTERNLOGQ $0xF8, (DX)(CX*1), Z2, Z1
	VMOVDQU64  (BX)(CX*1), Z6
	VMOVDQU64  640(BX)(CX*1), Z7
	VPTERNLOGQ $0x20, (SI)(CX*1), Z6, Z0
	VPTERNLOGQ $0x20, 640(SI)(CX*1), Z7, Z1
	VMOVDQU64  Z0, (DI)(CX*1)
	VMOVDQU64  Z1, 640(DI)(CX*1)
	VPORQ      Z0, Z6, Z6
	VPORQ      Z1, Z7, Z7
	VMOVDQU64  Z6, (BX)(CX*1)
	VMOVDQU64  Z7, 640(BX)(CX*1)
	VPTERNLOGQ $0xFE, Z1, Z0, Z15
	ADDQ       $64, CX
	CMPQ       CX, $640
	JLT        layer512

	VPTESTMQ Z15, Z15, K1
	KORTESTW K1, K1
	SETNE    ret+32(FP)
	VZEROUPPER
	RET

// func expandSurfaceAVX512(fr, pass, reached *[80]uint64) bool
//
// expandSurfaceAVX2 eight columns per instruction.
TEXT ·expandSurfaceAVX512(SB), 0, $656-25
	MOVQ fr+0(FP), DI
	MOVQ pass+8(FP), SI
	MOVQ reached+16(FP), BX
	LEAQ 0(SP), R8
	XORQ CX, CX

sspread512:
	VMOVDQU64  (DI)(CX*1), Z0
	VPSLLQ     $1, Z0, Z1
	VPSRLQ     $1, Z0, Z2
	VPTERNLOGQ $0xFE, Z2, Z1, Z0
	VMOVDQU64  Z0, 8(R8)(CX*1)
	ADDQ       $64, CX
	CMPQ       CX, $640
	JLT        sspread512

	MOVQ 640(R8), AX
	MOVQ AX, 0(R8)
	MOVQ 8(R8), AX
	MOVQ AX, 648(R8)

	XORQ   CX, CX
	VPXORQ Z15, Z15, Z15

slayer512:
	VMOVDQU64  (R8)(CX*1), Z0
	VMOVDQU64  8(R8)(CX*1), Z4
	VPTERNLOGQ $0xFE, 16(R8)(CX*1), Z4, Z0
	VMOVDQU64  (BX)(CX*1), Z6
	VPTERNLOGQ $0x20, (SI)(CX*1), Z6, Z0
	VMOVDQU64  Z0, (DI)(CX*1)
	VPORQ      Z0, Z6, Z6
	VMOVDQU64  Z6, (BX)(CX*1)
	VPORQ      Z0, Z15, Z15
	ADDQ       $64, CX
	CMPQ       CX, $640
	JLT        slayer512

	VPTESTMQ Z15, Z15, K1
	KORTESTW K1, K1
	SETNE    ret+24(FP)
	VZEROUPPER
	RET

// func andTwiceAVX512(b, c, x, y *bitboard)
//
// b and c set to x & y, eight words per instruction.
TEXT ·andTwiceAVX512(SB), NOSPLIT, $0-32
	MOVQ b+0(FP), DI
	MOVQ c+8(FP), SI
	MOVQ x+16(FP), DX
	MOVQ y+24(FP), BX
	XORQ CX, CX

and512:
	VMOVDQU64 (DX)(CX*1), Z0
	VPANDQ    (BX)(CX*1), Z0, Z0
	VMOVDQU64 Z0, (DI)(CX*1)
	VMOVDQU64 Z0, (SI)(CX*1)
	ADDQ      $64, CX
	CMPQ      CX, $1280
	JLT       and512
	VZEROUPPER
	RET
