#!/usr/bin/env bash
# The main job on the embedded default configuration: train a policy from
# scratch against three Demos (CPU), evaluate it, write a replay of one of
# its games, and say where the replay and the plot are.
#   scripts/demo.sh            (JGYM_DEMO_STEPS=65536 sets the training budget)
# The budget is environment steps, not seconds, and training is
# synchronous and seeded: the same machine gives the same policy and the
# same evaluation whatever else it is running (benchmarks/notebook/results-history.md, "The
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
# The player's name in traces and in the course kit: the model file's name.
name=Rookie
echo "== training from scratch for $steps env steps against Demo, Demo, Demo (CPU, 1 thread; the server is started for you)"
if [ -z "${JGYM_QUICK:-}" ]; then
  echo "   (5 to 8 minutes on two cores, busy or idle: benchmarks/notebook/results-history.md, \"The newcomer path\")"
fi
# --eval-games 0: the one evaluation is the demo's own, below. The run's
# JSON summary stays in $out/run/history.json.
(cd python-client && "$python" examples/ppo.py --total-timesteps "$steps" \
  --threads 1 --seed 1 --eval-games 0 --run-dir "../$out/run") | grep --line-buffered -v '^{"run"'
cp "$out/run/model.onnx" "$out/$name.onnx"
cp "$out/run/learning_curve.png" "$out/learning_curve.png"
echo "== evaluating $name in Go: $games games against three Demos, $games against Riddick (the strong bot) and two Demos"
rate() {  # the win rate and mean score of one evaluation, from its JSON
  bin/jgym eval "policy:$out/$name.onnx" --opponents "$1" -n "$games" --json >"$out/eval-$2.json"
  "$python" - "$out/eval-$2.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
w, s = d["win_rate"], d["mean_score"]
print(f"{d['wins']}/{d['games']} won ({100 * w['value']:.0f}%, 95% CI {100 * w['lo']:.0f}-{100 * w['hi']:.0f}%), mean score {s['value']:.0f}")
EOF
}
demos=$(rate Demo,Demo,Demo demos)
riddick=$(rate Riddick,Demo,Demo riddick)
echo "== writing a replay of one game"
bin/jgym match "policy:$out/$name.onnx" Demo Demo Demo -s 1 -o "$out/replay.res"
echo
trained=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["steps"])' "$out/run/history.json")
echo "result of $name after $trained env steps of training ($games games each, seats rotating):"
echo "  against Demo, Demo, Demo:     $demos"
echo "                                (random legal moves win 90% of such games: Crematoria's Demo is weak; docs/python.md)"
echo "  against Riddick, Demo, Demo:  $riddick"
echo "                                (the bar to pass; docs/bots.md)"
echo
echo "replay:         $out/replay.res   (watch it: bin/jgym view $out/replay.res)"
echo "learning curve: $out/learning_curve.png"
echo "model:          $out/$name.onnx   (a 30-minute model ships as python-client/examples/models/crematoria_ppo.onnx)"
echo
echo "next: make it a C++ player for the course kit and check its CPU time (docs/students.md):"
echo "  bin/jgym export-cpp $out/$name.onnx --name $name -o $out/AI$name.cc --bench"
