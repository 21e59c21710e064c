"""env/crematoria/expand_amd64.s is what scripts/gen_crematoria_avx512.py writes, byte for byte."""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
SCRIPT = REPO / "scripts" / "gen_crematoria_avx512.py"
ASM = REPO / "env" / "crematoria" / "expand_amd64.s"


def test_crematoria_avx512_is_the_scripts_output(tmp_path: Path) -> None:
    if not SCRIPT.exists() or not ASM.exists():
        pytest.skip("no scripts/ or env/ next to python-client (tests run outside the source tree)")
    out = tmp_path / "expand_amd64.s"
    subprocess.run([sys.executable, str(SCRIPT), "--out", str(out)], check=True, timeout=60)
    fresh, shipped = out.read_bytes(), ASM.read_bytes()
    if fresh != shipped:
        diff = difflib.unified_diff(
            shipped.decode("utf-8", "replace").splitlines(keepends=True),
            fresh.decode("utf-8", "replace").splitlines(keepends=True),
            "env/crematoria/expand_amd64.s (checked in)",
            "scripts/gen_crematoria_avx512.py's output",
        )
        pytest.fail(
            "env/crematoria/expand_amd64.s is not the script's output; "
            "regenerate with: python3 scripts/gen_crematoria_avx512.py\n"
            + "".join(list(diff)[:40]),
            pytrace=False,
        )
