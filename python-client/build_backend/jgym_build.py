"""jgym's build backend: setuptools, and an sdist that carries the Go sources.

Wheels are built by setuptools with ``setup.py``'s two commands (the Go
server compiled into the package, a platform tag). The sdist must carry
what ``go build ./cmd/jgym`` needs, which lives outside ``python-client/``:
:func:`build_sdist` stages a copy of ``python-client/`` with ``go-src/``
holding ``go.mod``, ``go.sum`` and the module's packages that the command
imports (their Go files and embedded files, as ``go list -deps`` reports
them), and lets setuptools pack that (``MANIFEST.in`` grafts ``go-src``).
The Go module's dependencies come from the Go module proxy when the sdist
is built into a wheel.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from setuptools import build_meta as _orig
from setuptools.build_meta import *  # noqa: F403 - the other hooks are setuptools'

HERE = Path(__file__).resolve().parent.parent  # python-client/
_FIELDS = "Dir,Module,GoFiles,EmbedFiles,HFiles,SFiles,CFiles"
_SKIP = {"build", "dist", "go-src", ".pytest_cache", ".mypy_cache", ".ruff_cache", "__pycache__"}


@contextlib.contextmanager
def _chdir(d: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(d)
    try:
        yield
    finally:
        os.chdir(old)


def go_files(tree: Path) -> list[Path]:
    """The files of module jgym that ``go build ./cmd/jgym`` reads, relative to the tree."""
    go = os.environ.get("JGYM_GO") or shutil.which("go")
    if not go:
        raise SystemExit(
            "jgym: building the sdist lists the Go sources with `go list`: install Go "
            "(https://go.dev/dl/) or set JGYM_GO"
        )
    out = subprocess.run(
        [go, "list", "-deps", f"-json={_FIELDS}", "./cmd/jgym"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    files = [Path("go.mod"), Path("go.sum")]
    dec = json.JSONDecoder()
    i = 0
    while i < len(out):
        if out[i].isspace():
            i += 1
            continue
        pkg, i = dec.raw_decode(out, i)
        if (pkg.get("Module") or {}).get("Path") != "jgym":
            continue
        d = Path(pkg["Dir"]).relative_to(tree)
        for key in ("GoFiles", "EmbedFiles", "HFiles", "SFiles", "CFiles"):
            files += [d / f for f in pkg.get(key) or []]
    return files


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    """Builds the sdist with the Go sources in ``go-src/``."""
    tree = HERE.parent
    sdist_directory = os.path.abspath(sdist_directory)  # the build runs in a staging copy
    with tempfile.TemporaryDirectory() as tmp:
        stage = Path(tmp) / "jgym"
        shutil.copytree(HERE, stage, ignore=shutil.ignore_patterns(*_SKIP, "*.egg-info"))
        if (HERE / "go-src").is_dir():  # building from an sdist: keep its sources
            shutil.copytree(HERE / "go-src", stage / "go-src")
        else:
            for f in go_files(tree):
                dst = stage / "go-src" / f
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(tree / f, dst)
        with _chdir(stage):
            return str(_orig.build_sdist(sdist_directory, config_settings))
