#!/usr/bin/env bash
# The main job on the embedded default configuration: train a policy from
# scratch against three Demos (CPU), evaluate it, write a replay of one of
# its games, and say where the replay and the plot are.
#   scripts/demo.sh            (JGYM_DEMO_STEPS=65536 sets the training budget)
# The budget is environment steps, not seconds, and training is
# synchronous and seeded: the same machine gives the same policy and the
# same evaluation whatever else it is running (benchmarks/RESULTS.md, "The
# newcomer path"); a busy machine only takes longer.
set -euo pipefail
cd "$(dirname "$0")/.."
out=runs/demo
rm -rf "$out"
mkdir -p "$out"
export JGYM_BIN="$PWD/bin/jgym"
venv=${VENV:-.venv}
python=$(cd "$venv" && pwd)/bin/python
steps=${JGYM_DEMO_STEPS:-65536}
games=40
if [ -n "${JGYM_QUICK:-}" ]; then  # a smoke test (the docs harness): ppo.py shrinks too
  steps=2048
  games=4
fi
echo "== training from scratch for $steps env steps against Demo, Demo, Demo (CPU, 1 thread; the server is started for you)"
(cd python-client && "$python" examples/ppo.py --total-timesteps "$steps" \
  --threads 1 --seed 1 --run-dir "../$out/run")
cp "$out/run/model.onnx" "$out/model.onnx"
cp "$out/run/learning_curve.png" "$out/learning_curve.png"
echo "== evaluating the trained policy against three Demos ($games games, in Go)"
bin/jgym eval "policy:$out/model.onnx" --opponents Demo,Demo,Demo -n "$games"
echo "== writing a replay of one game"
bin/jgym match "policy:$out/model.onnx" Demo Demo Demo -s 1 -o "$out/replay.res"
echo
echo "replay:         $out/replay.res   (watch it: bin/jgym view $out/replay.res)"
echo "learning curve: $out/learning_curve.png"
echo "model:          $out/model.onnx   (a 30-minute model ships as python-client/examples/models/crematoria_ppo.onnx)"
