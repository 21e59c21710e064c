#!/usr/bin/env bash
# Regenerates the gRPC stubs shipped in jgym/v1 from api/jgym/v1/jgym.proto.
#   python-client/scripts/gen_proto.sh [OUT_DIR]   (default: python-client)
# Run it with the dev extra installed (grpcio-tools). The generated code
# demands the protobuf and grpcio versions of its generator at import; the
# script sets pyproject.toml's lower bounds to them, and tests/test_proto.py
# fails when the shipped stubs are stale or the bounds differ.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here}"
# The interpreter with grpcio-tools: $PYTHON, else the repository's .venv, else python3.
python="${PYTHON:-}"
if [ -z "$python" ]; then
  if [ -x "$here/../.venv/bin/python" ]; then python="$here/../.venv/bin/python"; else python=python3; fi
fi
"$python" "$here/scripts/gen_proto.py" --out "$out"
