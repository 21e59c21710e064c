"""Finding and building the jgym binary, in the documented order."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

import jgym
from jgym import server
from jgym.server import find_binary, find_source_tree


def fake_binary(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No JGYM_BIN, no jgym on PATH, a private cache, no source tree."""
    monkeypatch.delenv("JGYM_BIN", raising=False)
    monkeypatch.delenv("JGYM_SRC", raising=False)
    monkeypatch.setenv("JGYM_CACHE_DIR", str(tmp_path / "cache"))
    dirs = os.environ.get("PATH", "").split(os.pathsep)
    monkeypatch.setenv(
        "PATH", os.pathsep.join(d for d in dirs if d and not (Path(d) / "jgym").exists())
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(server, "__file__", str(tmp_path / "site" / "jgym" / "server.py"))
    return tmp_path


def test_jgym_bin_first(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    b = fake_binary(clean_env / "custom" / "jgym")
    fake_binary(clean_env / "cache" / "bin" / "jgym")
    monkeypatch.setenv("JGYM_BIN", str(b))
    assert find_binary() == b


def test_path_before_cache(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    on_path = fake_binary(clean_env / "pathdir" / "jgym")
    fake_binary(clean_env / "cache" / "bin" / "jgym")
    monkeypatch.setenv("PATH", f"{on_path.parent}{os.pathsep}{os.environ['PATH']}")
    assert find_binary() == on_path


def test_cache(clean_env: Path) -> None:
    cached = fake_binary(clean_env / "cache" / "bin" / "jgym")
    assert find_binary() == cached


def test_nothing_found(clean_env: Path) -> None:
    with pytest.raises(jgym.BinaryNotFoundError, match="JGYM_SRC"):
        find_binary()


def test_source_tree_by_walking_up(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = clean_env / "repo"
    (tree / "python-client").mkdir(parents=True)
    (tree / "go.mod").write_text("module jgym\n\ngo 1.26\n")
    monkeypatch.chdir(tree / "python-client")
    assert find_source_tree() == tree
    (tree / "go.mod").write_text("module other\n")
    assert find_source_tree() is None


def test_bad_jgym_src(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JGYM_SRC", str(clean_env))
    with pytest.raises(jgym.BinaryNotFoundError, match="module jgym"):
        find_source_tree()


@pytest.mark.skipif(shutil.which("go") is None, reason="needs Go")
def test_builds_from_source_into_the_cache(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Path(__file__).resolve().parents[2]
    if not (real / "go.mod").exists():
        pytest.skip("not inside the jgym source tree")
    monkeypatch.setenv("JGYM_SRC", str(real))
    built = find_binary()
    assert built == clean_env / "cache" / "bin" / "jgym"
    assert os.access(built, os.X_OK)
    # Up to date: found in the cache without building again.
    mtime = built.stat().st_mtime
    assert find_binary() == built and built.stat().st_mtime == mtime
