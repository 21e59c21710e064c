#!/usr/bin/env bash
# Lints, type-checks and tests the Python client against the freshly built
# bin/jgym.
#   scripts/test-python.sh [VENV]   (default: .venv)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.venv}
if [ ! -x "$venv/bin/python" ]; then
  echo "no Python environment in $venv: run make setup first" >&2
  exit 1
fi
venv=$(cd "$venv" && pwd)
go build -o bin/jgym ./cmd/jgym
export JGYM_BIN="$PWD/bin/jgym"
cd python-client
"$venv/bin/ruff" check .
"$venv/bin/mypy" jgym
"$venv/bin/python" -m pytest -q --durations=15 tests
