#!/usr/bin/env bash
# Creates the Python venv with the jgym client, its test tools and the
# training extras (PyTorch CPU, TensorBoard, matplotlib).
#   scripts/setup-python.sh [VENV]   (default: .venv)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.venv}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -e "./python-client[${JGYM_PY_EXTRAS:-dev,train}]"
echo "Python environment ready: $venv ($("$venv/bin/python" --version))"
