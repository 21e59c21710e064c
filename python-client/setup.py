"""Builds jgym's wheel with the jgym server inside: the Go program, compiled here.

The metadata is in pyproject.toml; this file adds the two steps a Python
build does not know (``build_backend/jgym_build.py`` says how the sdist
carries the Go sources):

- ``build_py`` compiles ``./cmd/jgym`` with ``go build`` into the package,
  ``jgym/bin/jgym`` (``jgym.exe`` on Windows), from the jgym source tree
  around this directory or from ``go-src/`` in an sdist. The target is this
  machine's, or ``$JGYM_GOOS``/``$JGYM_GOARCH`` to cross-compile (``make
  wheels``). Editable installs (``pip install -e``) skip it: the package
  then finds the binary as docs/python.md says.
- ``bdist_wheel`` tags the wheel for the binary's platform (a static Go
  binary needs nothing of the system: ``manylinux_2_17`` and
  ``musllinux_1_2`` on Linux, ``macosx_12_0`` on macOS) and ``py3-none``,
  since the Python code is the same everywhere.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent

#: (GOOS, GOARCH) -> the wheel's platform tag.
PLATFORMS = {
    ("linux", "amd64"): "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_2_x86_64",
    ("linux", "arm64"): "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_2_aarch64",
    ("darwin", "amd64"): "macosx_12_0_x86_64",
    ("darwin", "arm64"): "macosx_12_0_arm64",
}

_MACHINES = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}

NO_GO = """
jgym's wheel carries the jgym server, a Go program, and building it from
source compiles it: no Go toolchain was found{where}.

Do one of:
  - install Go {version} or newer (https://go.dev/dl/) and run the same
    command again; if `go` is not on PATH, set JGYM_GO=/path/to/go;
  - install a prebuilt wheel instead of this source distribution:
    pip install --only-binary=jgym jgym
    (wheels exist for Linux x86_64 and aarch64 and macOS; on Windows use
    WSL: the server does not build for Windows);
  - or install the Python package alone and bring your own server:
    JGYM_SKIP_GO_BUILD=1 pip install ...  then set JGYM_BIN to a jgym
    binary, or pass address= to a running `jgym serve`.
"""


def target() -> tuple[str, str]:
    """The (GOOS, GOARCH) to build for: $JGYM_GOOS/$JGYM_GOARCH, else this machine."""
    goos = os.environ.get("JGYM_GOOS") or platform.system().lower()
    goarch = os.environ.get("JGYM_GOARCH") or _MACHINES.get(platform.machine().lower(), "")
    return goos, goarch


def go_tree() -> Path:
    """The Go sources: go-src/ of an sdist, else the jgym tree around python-client/."""
    for d in (HERE / "go-src", HERE.parent):
        mod = d / "go.mod"
        if mod.is_file() and mod.read_text().split()[:2] == ["module", "jgym"]:
            return d
    raise SystemExit(
        f"jgym: no Go sources (go.mod of module jgym) in {HERE / 'go-src'} or {HERE.parent}"
    )


def go_version(tree: Path) -> str:
    """The Go version the tree's go.mod asks for."""
    for line in (tree / "go.mod").read_text().splitlines():
        if line.startswith("go "):
            return line.split()[1]
    return "1.26"


class BuildPyWithGo(build_py):  # type: ignore[misc]
    """build_py, then ``go build ./cmd/jgym`` into the package."""

    def run(self) -> None:
        """Copies the Python files, then compiles the server into the package."""
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("JGYM_SKIP_GO_BUILD"):
            return
        tree = go_tree()
        go = os.environ.get("JGYM_GO") or shutil.which("go")
        if not go or not Path(go).exists():
            named = os.environ.get("JGYM_GO")
            where = f" (JGYM_GO={named})" if named else " on PATH"
            raise SystemExit(NO_GO.format(where=where, version=go_version(tree)))
        goos, goarch = target()
        if (goos, goarch) not in PLATFORMS:
            raise SystemExit(
                f"jgym: no wheel for GOOS={goos} GOARCH={goarch}; targets: "
                + ", ".join(f"{o}/{a}" for o, a in PLATFORMS)
            )
        out = Path(self.build_lib).resolve() / "jgym" / "bin" / "jgym"
        out.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "GOOS": goos, "GOARCH": goarch, "CGO_ENABLED": "0"}
        cmd = [go, "build", "-trimpath", "-ldflags=-s -w", "-o", str(out), "./cmd/jgym"]
        print(f"jgym: {' '.join(cmd)} (in {tree}, GOOS={goos} GOARCH={goarch})")
        subprocess.run(cmd, cwd=tree, env=env, check=True)
        out.chmod(0o755)


class BinaryDistribution(Distribution):  # type: ignore[misc]
    """A distribution with a platform's binary: the wheel's root is platlib."""

    def has_ext_modules(self) -> bool:
        """A platform wheel, unless the Go build is skipped."""
        return not os.environ.get("JGYM_SKIP_GO_BUILD")


class PlatformWheel(bdist_wheel):  # type: ignore[misc]
    """A py3-none-<platform> wheel: pure Python and the platform's jgym binary."""

    def get_tag(self) -> tuple[str, str, str]:
        """py3-none and the target's platform tag."""
        if os.environ.get("JGYM_SKIP_GO_BUILD"):
            return "py3", "none", "any"
        return "py3", "none", PLATFORMS.get(target(), "any")


setup(
    cmdclass={"build_py": BuildPyWithGo, "bdist_wheel": PlatformWheel},
    distclass=BinaryDistribution,
)
