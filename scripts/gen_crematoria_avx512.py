#!/usr/bin/env python3
"""Writes Crematoria's AVX-512 layer expansions into env/crematoria/expand_amd64.s.

    python3 scripts/gen_crematoria_avx512.py [--out PATH]

The three functions (expandBothAVX512, expandSurfaceAVX512, expandBothIntoAVX512) are unrolled over
the board's 10 vectors of eight columns per level, with the column spreads
kept in registers; this script writes them between the line that starts
"// func expandBothAVX512(" and the line "// func andTwiceAVX512(" of the
file, leaving the rest as it is. Run `go test -run TestExpandFrontAgainstCells
./env/crematoria/` after it. With --out the result goes to PATH and the
checked-in file is only read (python-client/tests/test_generated_asm.py
compares the two).
"""

import argparse
from pathlib import Path

ASM = Path(__file__).resolve().parent.parent / "env" / "crematoria" / "expand_amd64.s"
VECS = 10  # 80 columns, eight per vector


def both(into: bool = False) -> list[str]:
    """The lines of expandBothAVX512 (into: expandBothIntoAVX512), its comment first."""
    if into:
        return both_into()
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
    return [*a, *both_body("BX"), *ending(32)]


def both_into() -> list[str]:
    """The lines of expandBothIntoAVX512, its comment first."""
    a = [
        "// func expandBothIntoAVX512(fr, pass, elev, reached, into *bitboard) bool",
        "//",
        "// expandBothAVX512 that leaves reached as it is and writes reached",
        "// with the new front into into (a kept search's next layer, without",
        "// a copy of the last).",
        "TEXT ·expandBothIntoAVX512(SB), NOSPLIT, $0-41",
        "\tMOVQ fr+0(FP), DI",
        "\tMOVQ pass+8(FP), SI",
        "\tMOVQ elev+16(FP), DX",
        "\tMOVQ reached+24(FP), BX",
        "\tMOVQ into+32(FP), R8",
    ]
    return [*a, *both_body("R8"), *ending(40)]


def both_body(out: str) -> list[str]:
    """The layer of expandBothAVX512 from fr (DI), pass (SI), elev (DX) and reached (BX), reached with the new front written to out."""
    a = []
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
            f"\tVMOVDQU64  Z22, {o0}({out})",
            f"\tVMOVDQU64  Z23, {o1}({out})",
            "\tVPTERNLOGQ $0xFE, Z21, Z20, Z31",
        ]
    return a


def surface() -> list[str]:
    """The lines of expandSurfaceAVX512, its comment first."""
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
    return [*a, *ending(24)]


def ending(ret: int) -> list[str]:
    """The last lines of both functions: the bool result (at ret(FP)) is whether Z31 is not zero."""
    return [
        "\tVPTESTMQ Z31, Z31, K1",
        "\tKORTESTW K1, K1",
        f"\tSETNE    ret+{ret}(FP)",
        "\tVZEROUPPER",
        "\tRET",
    ]


def generate(src: str) -> str:
    """The assembly file src with the three functions written again."""
    start = src.index("// func expandBothAVX512(")
    end = src.index("// func andTwiceAVX512(")
    body = (
        "\n\n".join("\n".join(f) for f in (both(), surface(), both(into=True))) + "\n\n"
    )
    return src[:start] + body + src[end:]


def main() -> None:
    """Rewrites the three functions in expand_amd64.s, or writes the result to --out."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--out",
        type=Path,
        default=ASM,
        help="where to write the result (default: env/crematoria/expand_amd64.s, in place)",
    )
    a = p.parse_args()
    a.out.write_text(generate(ASM.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main()
