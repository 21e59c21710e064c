"""Importing jgym from the folder above a clone named jgym.

Python started there finds the clone first. The clone's root __init__.py
makes ``import jgym`` import the installed package anyway (with an
editable install the clone used to win as an empty namespace package, and
``gymnasium.make("jgym/...")`` failed with NamespaceNotFound), or fail
saying what is wrong and what to do when no jgym is installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import jgym

ROOT = Path(__file__).resolve().parents[2]  # the repository

CHECK = """
import gymnasium as gym
import jgym
assert "jgym/Crematoria-v0" in gym.registry, sorted(gym.registry)[:5]
assert callable(jgym.make_vec) and jgym.GAMES
print(jgym.__file__)
"""


@pytest.fixture
def above(tmp_path: Path) -> Path:
    """A folder holding a clone of the repository named jgym (a link to this one)."""
    if not (ROOT / "__init__.py").is_file() or not (ROOT / "go.mod").is_file():
        pytest.skip("needs the repository's source tree")
    (tmp_path / "jgym").symlink_to(ROOT, target_is_directory=True)
    return tmp_path


def run(
    args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip


def test_import_from_above_a_clone_gets_the_installed_package(above: Path) -> None:
    # python -c: the folder it starts in is sys.path[0] ("").
    proc = run(["-c", CHECK], above)
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()) == Path(jgym.__file__)
    # A script in that folder: its folder is sys.path[0].
    (above / "quickstart.py").write_text(CHECK)
    proc = run(["quickstart.py"], above)
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()) == Path(jgym.__file__)


def test_import_order_does_not_matter(above: Path) -> None:
    proc = run(
        ["-c", "import jgym, gymnasium; assert 'jgym/Moria-v0' in gymnasium.registry"], above
    )
    assert proc.returncode == 0, proc.stderr


def test_import_from_above_a_clone_without_jgym_says_what_to_do(above: Path) -> None:
    # -S: no site-packages, so no jgym installed (nor on PYTHONPATH).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = run(["-S", "-c", "import jgym"], above, env)
    assert proc.returncode != 0
    assert "ModuleNotFoundError: No module named 'jgym'" in proc.stderr
    assert f"Python found {above / 'jgym'}, a clone of the jgym repository" in proc.stderr
    assert f"pip install {above / 'jgym' / 'python-client'}" in proc.stderr
