#!/usr/bin/env bash
# The main job on the embedded default configuration: train a policy briefly
# against three Demos, evaluate it, write a replay, and say where they are.
set -euo pipefail
cd "$(dirname "$0")/.."
out=runs/demo
mkdir -p "$out"
export JGYM_BIN="$PWD/bin/jgym"
budget=${JGYM_DEMO_SECONDS:-180}
echo "== training for ${budget}s against Demo, Demo, Demo (CPU)"
(cd python-client && ../.venv/bin/python examples/train_ppo.py --time-budget "$budget" \
  --init examples/models/crematoria_ppo.pt --export "../$out/model.onnx" --run-dir "../$out")
echo "== evaluating against three Demos"
bin/jgym eval "policy:$out/model.onnx" --opponents Demo,Demo,Demo -n 40
echo "== writing a replay"
bin/jgym match "policy:$out/model.onnx" Demo Demo Demo -s 1 -o "$out/replay.res"
plot=$(find "$out" python-client/runs -name '*.png' 2>/dev/null | head -1 || true)
echo
echo "replay:         $out/replay.res   (watch it: bin/jgym view $out/replay.res)"
echo "learning curve: ${plot:-see docs/img/training_curve.png}"
echo "model:          $out/model.onnx"
