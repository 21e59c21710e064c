"""Writes the lock of a subset of jgym's extras, cut from the full lock.

``constraints.txt`` is the lock of the venv with every extra (dev, train,
rllib, video) that CI tests. A smaller venv (``make demo`` needs only
``train``) installs the part of that lock its extras need: jgym's own
requirements and those of the chosen extras, followed through the
requirements of every package they name (with the extras they ask for),
at the versions the full lock pins. The dependency metadata is read from
the venv the script runs in, which must be the full lock's venv
(``make setup``): a package it pins at another version, or a requirement
it lacks, is an error, so a stale venv cannot write a wrong lock. Markers
are evaluated for the running interpreter, as the full lock was frozen on
one platform (CPython 3.11, Linux x86_64). Triton, which PyTorch's build
on PyPI requires and the full lock leaves out (scripts/setup-python.sh
says why), stays out.

Usage::

    .venv/bin/python python-client/scripts/lock_subset.py --extras train
    .venv/bin/python python-client/scripts/lock_subset.py --extras train --check

The lock of ``--extras train`` is ``python-client/constraints-train.txt``;
``--check`` exits 1 when that file differs from what the script would write
(tests/test_lock.py runs it).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata as md
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

HERE = Path(__file__).resolve().parent.parent  # python-client/
FULL_LOCK = HERE / "constraints.txt"
PYPROJECT = HERE / "pyproject.toml"
# Left out of every lock on purpose (scripts/setup-python.sh).
LEFT_OUT = {"triton"}
# The packages of PyTorch's CUDA build (canonical names), as setup-python.sh sees them.
CUDA = re.compile(r"(nvidia|cuda)-")


class LockError(Exception):
    """The venv or the full lock cannot give a subset lock."""


def lock_path(extras: Iterable[str]) -> Path:
    """The file of the lock of these extras: constraints-train.txt, ..."""
    return HERE / ("constraints-" + "-".join(sorted(extras)) + ".txt")


def read_lock(path: Path) -> dict[str, tuple[str, str]]:
    """The pins of a lock: canonical name -> (its line, its version)."""
    pins: dict[str, tuple[str, str]] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", line)
        if m is None:
            raise LockError(f"{path.name}: not a pin: {line!r}")
        pins[canonicalize_name(m.group(1))] = (line, m.group(2))
    return pins


def jgym_requirements(extras: Iterable[str]) -> list[Requirement]:
    """The requirements of jgym and of the given extras (pyproject.toml)."""
    try:
        # tomllib by name: the package supports 3.10, which lacks it.
        toml = importlib.import_module("tomllib")
    except ImportError:
        raise LockError(
            "needs Python 3.11 or newer (tomllib), as the lock was made on 3.11"
        ) from None
    project: dict[str, Any] = toml.loads(PYPROJECT.read_text())["project"]
    optional: dict[str, list[str]] = project["optional-dependencies"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        if extra not in optional:
            raise LockError(f"jgym has no extra {extra!r} (it has {', '.join(optional)})")
        reqs += [Requirement(r) for r in optional[extra]]
    return reqs


def _applies(req: Requirement, extras: Iterable[str]) -> bool:
    if req.marker is None:
        return True
    return any(req.marker.evaluate({"extra": e}) for e in ("", *extras))


def closure(extras: Iterable[str], pins: dict[str, tuple[str, str]]) -> set[str]:
    """The canonical names of every package jgym with these extras needs.

    Raises LockError where the running venv is not the full lock's.
    """
    wanted: dict[str, set[str]] = {}  # name -> the extras asked of it
    todo = [r for r in jgym_requirements(extras) if _applies(r, ())]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in LEFT_OUT:
            continue
        seen = name in wanted
        asked = wanted.setdefault(name, set())
        new = {canonicalize_name(e) for e in req.extras} - asked
        if seen and not new:
            continue
        asked |= new
        if name not in pins:
            raise LockError(f"{name} (required as {req}) is not in {FULL_LOCK.name}")
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            raise LockError(
                f"{name} is not installed: run the script in the venv of the full lock (make setup)"
            ) from None
        pinned = pins[name][1]
        if not req.specifier.contains(pinned, prereleases=True):
            raise LockError(f"{FULL_LOCK.name} pins {name}=={pinned}, outside {req}")
        # A local label apart: PyTorch's CPU build is 2.15.0+cpu where the lock has 2.15.0.
        if Version(dist.version).public != Version(pinned).public:
            raise LockError(
                f"{name} is {dist.version} here, {pinned} in {FULL_LOCK.name}: "
                "run the script in the venv of the full lock (make setup)"
            )
        for raw in dist.requires or []:
            sub = Requirement(raw)
            if _applies(sub, asked):
                todo.append(sub)
    names = set(wanted)
    if "torch" in names:
        # PyTorch's build on PyPI (the lock's) requires its CUDA libraries; the
        # CPU build, which a venv may hold instead, requires none: the lock
        # keeps them either way, and setup-python.sh installs them only with
        # PyPI's build.
        names |= {n for n in pins if CUDA.match(n)}
    return names


def render(extras: list[str]) -> str:
    """The text of the lock of these extras."""
    pins = read_lock(FULL_LOCK)
    names = closure(extras, pins)
    head = [
        f"# The lock of jgym[{','.join(extras)}]: the part of constraints.txt (the lock of",
        "# every extra) these extras need, at its versions. Generated: do not edit;",
        f"#   .venv/bin/python python-client/scripts/lock_subset.py --extras {','.join(extras)}",
        "# run in the venv of constraints.txt (make setup) after that file changes;",
        "# tests/test_lock.py checks it is fresh. scripts/setup-python.sh installs it",
        f"# without the resolver when JGYM_PY_EXTRAS={','.join(extras)} (make demo).",
    ]
    body = [line for name, (line, _) in pins.items() if name in names]
    return "\n".join(head + body) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Writes (or with --check, compares) the lock of the chosen extras."""
    parser = argparse.ArgumentParser(
        description="Cut the lock of some of jgym's extras from constraints.txt, "
        "the lock of every extra (run in that lock's venv)."
    )
    parser.add_argument(
        "--extras", default="train", help="comma-separated extras of jgym (default: train)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when the lock file differs from what would be written",
    )
    args = parser.parse_args(argv)
    extras = sorted({e.strip() for e in args.extras.split(",") if e.strip()})
    if not extras:
        parser.error("--extras: name at least one extra")
    out = lock_path(extras)
    try:
        text = render(extras)
    except LockError as e:
        print(f"lock_subset.py: {e}", file=sys.stderr)
        return 2
    if args.check:
        if not out.exists() or out.read_text() != text:
            print(
                f"{out.relative_to(HERE.parent)} is stale: run "
                f"python-client/scripts/lock_subset.py --extras {','.join(extras)}",
                file=sys.stderr,
            )
            return 1
        return 0
    out.write_text(text)
    print(f"wrote {out.relative_to(HERE.parent)}: {len(text.splitlines()) - 6} pins")
    return 0


if __name__ == "__main__":
    sys.exit(main())
