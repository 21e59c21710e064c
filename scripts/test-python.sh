#!/usr/bin/env bash
# Lints, type-checks and tests the Python client against the freshly built
# bin/jgym.
#   scripts/test-python.sh [VENV]   (default: .venv)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.venv}
# CI runs make setup beside make test's first stages, which need no Python
# (.ci/run): it names the set-up's log, and the exit status appears in
# LOG.rc when the set-up ends. Wait for it (at most 45 minutes), show it.
if [ -n "${JGYM_SETUP_LOG:-}" ]; then
  echo "test-py: waiting for make setup (its log: $JGYM_SETUP_LOG)"
  for _ in $(seq 1 1350); do
    [ -s "$JGYM_SETUP_LOG.rc" ] && break
    sleep 2
  done
  cat "$JGYM_SETUP_LOG"
  rc=$(cat "$JGYM_SETUP_LOG.rc" 2>/dev/null || echo "none: still running after 45 minutes")
  if [ "$rc" != 0 ]; then
    echo "test-py: make setup failed (exit status $rc)" >&2
    exit 1
  fi
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "no Python environment in $venv: run make setup first" >&2
  exit 1
fi
venv=$(cd "$venv" && pwd)
go build -o bin/jgym ./cmd/jgym
export JGYM_BIN="$PWD/bin/jgym"
cd python-client
"$venv/bin/ruff" check .
"$venv/bin/ruff" format --check .
"$venv/bin/mypy" jgym
"$venv/bin/python" -m pytest -q --durations=15 tests
