#!/usr/bin/env python3
"""Writes Crematoria's AVX-512 layer expansions into env/crematoria/expand_amd64.s.

    python3 scripts/gen_crematoria_avx512.py

The two functions (expandBothAVX512, expandSurfaceAVX512) are unrolled over
the board's 10 vectors of eight columns per level, with the column spreads
kept in registers; this script writes them between the line that starts
"// func expandBothAVX512(" and the line "// func andTwiceAVX512(" of the
file, leaving the rest as it is. Run `go test -run TestExpandFrontAgainstCells
./env/crematoria/` after it.
"""

from pathlib import Path

ASM = Path(__file__).resolve().parent.parent / "env" / "crematoria" / "expand_amd64.s"
VECS = 10  # 80 columns, eight per vector


def both() -> list[str]:
    a = [
        "// func expandBothAVX512(fr, pass, elev, reached *bitboard) bool",
        "//",
        "// expandBoth with the whole board's spreads in registers: Z0-Z9 hold",
        "// level 0's column spreads (eight columns each), Z10-Z19 level 1's;",
        "// a column's neighbours come from VALIGNQ of two of them (the wrap is",
        "// Z9 left of Z0, Z0 right of Z9), so there is no store and reload of",
        "// the spreads. VPTERNLOGQ does three-input logic in one instruction:",
        "// 0xFE is a|b|c, 0xF8 a|(b&c), 0x20 a&^b&c (a the destination, b the",
        "// register source, c the last source). Written, with",
        "// expandSurfaceAVX512, by scripts/gen_crematoria_avx512.py.",
        "TEXT ·expandBothAVX512(SB), NOSPLIT, $0-33",
        "\tMOVQ fr+0(FP), DI",
        "\tMOVQ pass+8(FP), SI",
        "\tMOVQ elev+16(FP), DX",
        "\tMOVQ reached+24(FP), BX",
    ]
    for v in range(2 * VECS):
        off = 64 * v if v < VECS else 640 + 64 * (v - VECS)
        a += [
            f"\tVMOVDQU64  {off}(DI), Z{v}",
            f"\tVPSLLQ     $1, Z{v}, Z20",
            f"\tVPSRLQ     $1, Z{v}, Z21",
            f"\tVPTERNLOGQ $0xFE, Z21, Z20, Z{v}",
        ]
    a.append("\tVPXORQ     Z31, Z31, Z31")
    for v in range(VECS):
        o0, o1 = 64 * v, 640 + 64 * v
        p0, n0 = (v - 1) % VECS, (v + 1) % VECS
        p1, n1 = VECS + p0, VECS + n0
        a += [
            f"\t// columns {8 * v}-{8 * v + 7}",
            f"\tVMOVDQU64  {o0}(DI), Z24",
            f"\tVMOVDQU64  {o1}(DI), Z25",
            f"\tVALIGNQ    $7, Z{p0}, Z{v}, Z20",
            f"\tVALIGNQ    $1, Z{v}, Z{n0}, Z21",
            f"\tVPTERNLOGQ $0xFE, Z21, Z{v}, Z20",
            f"\tVPTERNLOGQ $0xF8, {o1}(DX), Z25, Z20",
            f"\tVMOVDQU64  {o0}(BX), Z22",
            f"\tVPTERNLOGQ $0x20, {o0}(SI), Z22, Z20",
            f"\tVALIGNQ    $7, Z{p1}, Z{VECS + v}, Z21",
            f"\tVALIGNQ    $1, Z{VECS + v}, Z{n1}, Z23",
            f"\tVPTERNLOGQ $0xFE, Z23, Z{VECS + v}, Z21",
            f"\tVPTERNLOGQ $0xF8, {o0}(DX), Z24, Z21",
            f"\tVMOVDQU64  {o1}(BX), Z23",
            f"\tVPTERNLOGQ $0x20, {o1}(SI), Z23, Z21",
            f"\tVMOVDQU64  Z20, {o0}(DI)",
            f"\tVMOVDQU64  Z21, {o1}(DI)",
            "\tVPORQ      Z20, Z22, Z22",
            "\tVPORQ      Z21, Z23, Z23",
            f"\tVMOVDQU64  Z22, {o0}(BX)",
            f"\tVMOVDQU64  Z23, {o1}(BX)",
            "\tVPTERNLOGQ $0xFE, Z21, Z20, Z31",
        ]
    a += ["\tVPTESTMQ Z31, Z31, K1", "\tKORTESTW K1, K1", "\tSETNE    ret+32(FP)", "\tVZEROUPPER", "\tRET"]
    return a


def surface() -> list[str]:
    a = [
        "// func expandSurfaceAVX512(fr, pass, reached *[80]uint64) bool",
        "//",
        "// expandSurface with the spreads in Z0-Z9, as expandBothAVX512.",
        "TEXT ·expandSurfaceAVX512(SB), NOSPLIT, $0-25",
        "\tMOVQ fr+0(FP), DI",
        "\tMOVQ pass+8(FP), SI",
        "\tMOVQ reached+16(FP), BX",
    ]
    for v in range(VECS):
        a += [
            f"\tVMOVDQU64  {64 * v}(DI), Z{v}",
            f"\tVPSLLQ     $1, Z{v}, Z20",
            f"\tVPSRLQ     $1, Z{v}, Z21",
            f"\tVPTERNLOGQ $0xFE, Z21, Z20, Z{v}",
        ]
    a.append("\tVPXORQ     Z31, Z31, Z31")
    for v in range(VECS):
        o = 64 * v
        p, n = (v - 1) % VECS, (v + 1) % VECS
        a += [
            f"\tVALIGNQ    $7, Z{p}, Z{v}, Z20",
            f"\tVALIGNQ    $1, Z{v}, Z{n}, Z21",
            f"\tVPTERNLOGQ $0xFE, Z21, Z{v}, Z20",
            f"\tVMOVDQU64  {o}(BX), Z22",
            f"\tVPTERNLOGQ $0x20, {o}(SI), Z22, Z20",
            f"\tVMOVDQU64  Z20, {o}(DI)",
            "\tVPORQ      Z20, Z22, Z22",
            f"\tVMOVDQU64  Z22, {o}(BX)",
            "\tVPORQ      Z20, Z31, Z31",
        ]
    a += ["\tVPTESTMQ Z31, Z31, K1", "\tKORTESTW K1, K1", "\tSETNE    ret+24(FP)", "\tVZEROUPPER", "\tRET"]
    return a


def main() -> None:
    src = ASM.read_text()
    start = src.index("// func expandBothAVX512(")
    end = src.index("// func andTwiceAVX512(")
    body = "\n".join(both()) + "\n\n" + "\n".join(surface()) + "\n\n"
    ASM.write_text(src[:start] + body + src[end:])


if __name__ == "__main__":
    main()
