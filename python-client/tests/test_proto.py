"""The shipped gRPC stubs match api/jgym/v1/jgym.proto and the pinned runtimes."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import descriptor_pb2

from jgym.v1 import jgym_pb2

CLIENT = Path(__file__).resolve().parent.parent
SCRIPT = CLIENT / "scripts" / "gen_proto.py"


def load_gen() -> Any:
    if not SCRIPT.exists():
        pytest.skip("no python-client/scripts (tests run outside the source tree)")
    spec = importlib.util.spec_from_file_location("gen_proto", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_proto"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_pins_match_the_generated_code() -> None:
    gen = load_gen()
    stub_dir = CLIENT / "jgym" / "v1"
    assert gen.gencode_versions(stub_dir) == gen.pinned_versions(), (
        "pyproject.toml's protobuf/grpcio lower bounds differ from what the shipped stubs "
        "require: run python-client/scripts/gen_proto.sh"
    )


def test_stubs_are_fresh() -> None:
    pytest.importorskip("grpc_tools")
    gen = load_gen()
    if not (gen.PROTO_ROOT / gen.PROTO).exists():
        pytest.skip("no api/ tree next to python-client (installed package)")
    with tempfile.TemporaryDirectory() as tmp:
        gen.generate(Path(tmp))
        fresh_dir = Path(tmp) / "jgym" / "v1"
        # Same messages and services, whatever the generator version...
        fresh = descriptor_pb2.FileDescriptorProto()
        shipped = descriptor_pb2.FileDescriptorProto()
        jgym_pb2.DESCRIPTOR.CopyToProto(shipped)
        ns: dict[str, object] = {}
        text = (fresh_dir / "jgym_pb2.py").read_text()
        serialized = text.split("AddSerializedFile(", 1)[1].split(")\n", 1)[0]
        exec(f"data = {serialized}", ns)
        assert isinstance(ns["data"], bytes)
        fresh.ParseFromString(ns["data"])
        assert shipped == fresh, "stale stubs: run python-client/scripts/gen_proto.sh"
        # ...and byte for byte when the generator is the pinned one.
        if gen.gencode_versions(fresh_dir) == gen.pinned_versions():
            diff = gen.diff(CLIENT / "jgym" / "v1", fresh_dir)
            assert not diff, "".join(diff[:40])
