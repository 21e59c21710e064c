#!/usr/bin/env bash
# Creates the Python venv with the jgym client (editable), its test tools
# and the extras: training (PyTorch CPU, SB3 and MaskablePPO, TensorBoard,
# matplotlib), RLlib on Ray, video (moviepy), at the versions pinned in
# python-client/constraints.txt.
#   scripts/setup-python.sh [VENV]   (default: .venv)
# JGYM_PY_EXTRAS picks the extras (default dev,train,rllib,video).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.venv}
extras=${JGYM_PY_EXTRAS:-dev,train,rllib,video}
constraints=python-client/constraints.txt
start=$SECONDS
step() { echo "[setup $1/3, $((SECONDS - start)) s] $2"; }
# pip's progress bars on a terminal, one line per stage elsewhere (CI logs).
quiet=()
[ -t 1 ] || quiet=(-q)
step 1 "Python venv $venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip)
"${pip[@]}" install -q --upgrade pip
# PyTorch on CPU: PyPI's Linux x86_64 wheels pull several GB of CUDA
# libraries, PyTorch's own CPU index has the same version without them.
# pip cannot name an index in an extra, so it is installed first, from that
# index where pip reaches it ($JGYM_TORCH_INDEX; empty: skip), else the
# extras below take PyPI's.
step 2 "PyTorch (CPU)"
if [[ ",$extras," =~ ,(train|rllib), ]] && ! "$venv/bin/python" -c 'import torch' 2>/dev/null; then
  index=${JGYM_TORCH_INDEX-https://download.pytorch.org/whl/cpu}
  torch=$(grep -i '^torch==' "$constraints")
  if [ -n "$index" ] && "${pip[@]}" install -q --retries 1 --timeout 20 --index-url "$index" "$torch" 2>/dev/null; then
    echo "PyTorch: the CPU build from $index"
  else
    echo "PyTorch: $index is out of reach, PyPI's build (with its CUDA libraries)"
  fi
fi
step 3 "jgym and its extras [$extras] (a few minutes the first time)"
# setuptools warns about editable installs in general; nothing to act on.
PYTHONWARNINGS=ignore::UserWarning "${pip[@]}" install "${quiet[@]}" -c "$constraints" -e "./python-client[$extras]"
echo "Python environment ready in $((SECONDS - start)) s: $venv ($("$venv/bin/python" --version))"
