#!/usr/bin/env bash
# The main job on the embedded default configuration: train a policy from
# scratch against three Demos for a few minutes (CPU), evaluate it, write a
# replay of one of its games, and say where the replay and the plot are.
#   scripts/demo.sh            (JGYM_DEMO_SECONDS=180 sets the training time)
set -euo pipefail
cd "$(dirname "$0")/.."
out=runs/demo
rm -rf "$out"
mkdir -p "$out"
export JGYM_BIN="$PWD/bin/jgym"
budget=${JGYM_DEMO_SECONDS:-180}
echo "== training from scratch for ${budget}s against Demo, Demo, Demo (CPU; the server is started for you)"
(cd python-client && ../.venv/bin/python examples/train_ppo.py --time-budget "$budget" \
  --export "../$out/model.onnx" --run-dir "../$out")
cp "$out"/crematoria_ppo__*/learning_curve.png "$out/learning_curve.png"
echo "== evaluating the trained policy against three Demos (40 games, in Go)"
bin/jgym eval "policy:$out/model.onnx" --opponents Demo,Demo,Demo -n 40
echo "== writing a replay of one game"
bin/jgym match "policy:$out/model.onnx" Demo Demo Demo -s 1 -o "$out/replay.res"
echo
echo "replay:         $out/replay.res   (watch it: bin/jgym view $out/replay.res)"
echo "learning curve: $out/learning_curve.png"
echo "model:          $out/model.onnx   (a 30-minute model ships as python-client/examples/models/crematoria_ppo.onnx)"
