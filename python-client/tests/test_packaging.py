"""The sdist carries the Go sources and says what to do without Go; the wheel's binary is found.

(The wheel itself is built and installed into a fresh venv without Go by
``make test-wheel``, scripts/test-wheel.sh.)
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import jgym.server
from jgym.server import find_binary

CLIENT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (CLIENT / "build_backend").is_dir() or shutil.which("go") is None:
        pytest.skip("needs the source tree and Go")
    out = tmp_path_factory.mktemp("sdist")
    code = (
        "import sys; sys.path.insert(0, 'build_backend'); import jgym_build; "
        f"print(jgym_build.build_sdist({str(out)!r}))"
    )
    subprocess.run([sys.executable, "-c", code], cwd=CLIENT, check=True, capture_output=True)
    (path,) = out.glob("jgym-*.tar.gz")
    return path


def test_sdist_carries_the_go_sources(sdist: Path) -> None:
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for want in ("go-src/go.mod", "go-src/go.sum", "go-src/cmd/jgym/main.go",
                 "go-src/server/version.go", "go-src/kit/crematoria/AIDemo.cc",
                 "go-src/viewer/static/index.html", "setup.py", "build_backend/jgym_build.py",
                 "jgym/__init__.py", "jgym/v1/jgym_pb2.py"):  # fmt: skip
        assert want in names, want
    assert not any(n.endswith("_test.go") for n in names)


def test_sdist_without_go_says_what_to_do(sdist: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("JGYM_GO", "GOROOT")}
    env["PATH"] = "/usr/bin:/bin"  # no go
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-w", str(tmp_path), str(sdist)],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "no Go toolchain was found on PATH" in out
    assert "install Go 1.26" in out and "JGYM_GO" in out
    assert "pip install --only-binary=jgym jgym" in out
    assert not list(tmp_path.glob("*.whl"))


def test_packaged_binary_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "jgym"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.delenv("JGYM_BIN", raising=False)
    monkeypatch.setattr(jgym.server, "PACKAGED_BIN", fake)
    assert find_binary() == fake
    monkeypatch.setenv("JGYM_BIN", sys.executable)  # JGYM_BIN still wins
    assert find_binary() == Path(sys.executable)
