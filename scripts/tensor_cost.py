#!/usr/bin/env python3
"""The in-process env-step's CPU with each set of observation tensors, per game.

    python3 scripts/tensor_cost.py [--runs 3] [--steps 2000] [--games crematoria,...]

Runs each game's ``BenchmarkTensors`` (package gametest: one learner seat and
three Demos in process, the learner's commands precomputed; one op is one
env-step; one sub-benchmark per set of tensors a setup may ask for with
``env.Setup.Tensors``) ``--runs`` times, round-robin over the games (each
run, each game), each run ``--steps`` env-steps per set, under ``nice -n
10``, from the test binary of the current tree. The benchmark reads the
thread CPU time of the round (the Demos' orders, the learner's commands,
the engine) and of the encoder step by step; this prints, per game and
set, the medians over the runs of the env-step (round + encoder), the
encoder and the round (µs per env-step) and the observation's bytes per
seat, as a Markdown table.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path

GAMES = ["crematoria", "dominator", "pandemic", "moria"]
LINE = re.compile(r"^BenchmarkTensors/(\S+?)(?:-\d+)?\s+\d+\s+(.*)$")
METRIC = re.compile(r"([\d.]+) (step-ns/step|encoder-ns/step|round-ns/step|obs-bytes)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--games", default=",".join(GAMES))
    a = p.parse_args()
    root = Path(__file__).resolve().parent.parent
    games = a.games.split(",")
    figures: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    order: dict[str, list[str]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        binaries = {}
        for g in games:
            binaries[g] = Path(tmp) / f"{g}.test"
            subprocess.run(
                ["go", "test", "-c", "-o", str(binaries[g]), f"./env/{g}"], cwd=root, check=True
            )
        for _ in range(a.runs):
            for g in games:
                cmd = ["nice", "-n", "10", str(binaries[g]), "-test.run", "^$",
                       "-test.bench", "^BenchmarkTensors$", "-test.benchtime", f"{a.steps}x"]
                out = subprocess.run(cmd, cwd=root / "env" / g, check=True,
                                     capture_output=True, text=True).stdout
                for line in out.splitlines():
                    m = LINE.match(line)
                    if not m:
                        continue
                    name = m.group(1)
                    if name not in order[g]:
                        order[g].append(name)
                    for v, unit in METRIC.findall(m.group(2)):
                        figures[g, name][unit].append(float(v))
    print("| game | tensors | env-step µs | encoder µs | round µs | obs bytes |")
    print("|---|---|---:|---:|---:|---:|")
    for g in games:
        for name in order[g]:
            f = figures[g, name]
            med = {k: statistics.median(v) for k, v in f.items()}
            print(f"| {g} | {name} | {med['step-ns/step'] / 1000:.1f} | "
                  f"{med['encoder-ns/step'] / 1000:.1f} | {med['round-ns/step'] / 1000:.1f} | "
                  f"{med['obs-bytes']:.0f} |")
    print(f"\n{a.runs} runs of {a.steps} env-steps per set, medians.")


if __name__ == "__main__":
    main()
