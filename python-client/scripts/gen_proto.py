"""Generates the gRPC stubs of api/jgym/v1/jgym.proto into the jgym package.

The proto package ``jgym.v1`` becomes the Python package ``jgym.v1``, so the
generated ``from jgym.v1 import jgym_pb2`` resolves inside the package with no
import rewriting.

Usage::

    python scripts/gen_proto.py [--out DIR] [--check]

``--out`` defaults to ``python-client``. With ``--out`` at the default the
script also sets the ``protobuf`` and ``grpcio`` lower bounds of
pyproject.toml to the versions the generated code demands. ``--check``
generates into a temporary directory and exits 1 if the shipped stubs differ.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # python-client/
REPO = HERE.parent
PROTO_ROOT = REPO / "api"
PROTO = "jgym/v1/jgym.proto"
SHIPPED = HERE
PYPROJECT = HERE / "pyproject.toml"
GENERATED = ("jgym_pb2.py", "jgym_pb2.pyi", "jgym_pb2_grpc.py", "__init__.py")

INIT = '''"""Generated gRPC stubs of the jgym.v1 protocol (api/jgym/v1/jgym.proto).

Do not edit: python-client/scripts/gen_proto.sh regenerates them.
"""
'''


def generate(out: Path) -> None:
    """Runs grpc_tools.protoc on the proto, writing ``out/jgym/v1/*``."""
    from grpc_tools import protoc  # type: ignore[import-untyped]  # noqa: PLC0415 - dev only

    (out / "jgym" / "v1").mkdir(parents=True, exist_ok=True)
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        PROTO,
    ]
    if protoc.main(args) != 0:
        raise SystemExit(f"protoc failed on {PROTO_ROOT / PROTO}")
    (out / "jgym" / "v1" / "__init__.py").write_text(INIT)


def gencode_versions(stub_dir: Path) -> tuple[str, str]:
    """Returns (protobuf, grpcio) versions the stubs in ``stub_dir`` require."""
    pb2 = (stub_dir / "jgym_pb2.py").read_text()
    grpc_py = (stub_dir / "jgym_pb2_grpc.py").read_text()
    pb = re.search(r"^# Protobuf Python Version: (\S+)$", pb2, re.M)
    gr = re.search(r"^GRPC_GENERATED_VERSION = '([^']+)'$", grpc_py, re.M)
    if pb is None or gr is None:
        raise SystemExit(f"cannot read the generator versions in {stub_dir}")
    return pb.group(1), gr.group(1)


def pinned_versions(pyproject: Path = PYPROJECT) -> tuple[str, str]:
    """Returns the (protobuf, grpcio) lower bounds of pyproject.toml."""
    text = pyproject.read_text()
    pb = re.search(r'"protobuf>=([^"]+)"', text)
    gr = re.search(r'"grpcio>=([^"]+)"', text)
    if pb is None or gr is None:
        raise SystemExit("pyproject.toml has no protobuf>= or grpcio>= dependency")
    return pb.group(1), gr.group(1)


def set_pins(protobuf: str, grpcio: str, pyproject: Path = PYPROJECT) -> None:
    """Sets the protobuf, grpcio and grpcio-tools lower bounds of pyproject.toml."""
    text = pyproject.read_text()
    text = re.sub(r'"protobuf>=[^"]+"', f'"protobuf>={protobuf}"', text)
    text = re.sub(r'"grpcio>=[^"]+"', f'"grpcio>={grpcio}"', text)
    text = re.sub(r'"grpcio-tools>=[^"]+"', f'"grpcio-tools>={grpcio}"', text)
    pyproject.write_text(text)


def diff(shipped: Path, fresh: Path) -> list[str]:
    """Returns a unified diff of the shipped stubs against fresh ones."""
    lines: list[str] = []
    for name in GENERATED:
        a, b = shipped / name, fresh / name
        old = a.read_text().splitlines(keepends=True) if a.exists() else []
        new = b.read_text().splitlines(keepends=True)
        lines += difflib.unified_diff(old, new, f"shipped/{name}", f"fresh/{name}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Runs the generator; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=SHIPPED,
        help="the package root to write jgym/v1 into (default: python-client)",
    )
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = parser.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            generate(Path(tmp))
            d = diff(SHIPPED / "jgym" / "v1", Path(tmp) / "jgym" / "v1")
        if d:
            sys.stdout.writelines(d)
            print("stale stubs: run python-client/scripts/gen_proto.sh", file=sys.stderr)
            return 1
        print("stubs are fresh")
        return 0
    generate(args.out)
    if args.out.resolve() == SHIPPED.resolve():
        pb, gr = gencode_versions(SHIPPED / "jgym" / "v1")
        if (pb, gr) != pinned_versions():
            set_pins(pb, gr)
            print(f"pyproject.toml: now protobuf>={pb}, grpcio>={gr}")
    print(f"wrote {args.out / 'jgym' / 'v1'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
