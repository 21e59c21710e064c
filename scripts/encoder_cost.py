#!/usr/bin/env python3
"""The observation encoder's CPU against the round's, per game, in two trees.

    python3 scripts/encoder_cost.py OLD_TREE NEW_TREE [--runs 3] [--steps 2000] [--games moria] [--out FILE]

Runs each game's ``BenchmarkEncoder`` (package gametest: one learner seat
and three Demos in process, full observation; one op is one env-step) from
the test binaries of both trees, ``--runs`` times, interleaved (for each run,
each game: old, then new), each run ``--steps`` env-steps, under ``nice -n
10``. The benchmark itself reads the thread CPU time of the round (the
Demos' orders, the learner's precomputed commands, the engine) and of the
encoder, step by step; this prints, per game and side, the medians over
the runs of both (µs per env-step) and of their ratio, as a Markdown table;
``--games`` restricts it to some games (comma-separated), all four by default.
OLD_TREE is for example ``git archive eed7adb | tar -x -C /tmp/enc-old``:
a tree that has ``BenchmarkEncoder`` with the old encoders.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

GAMES = ["crematoria", "dominator", "pandemic", "moria"]
METRIC = re.compile(r"([\d.]+) (round-ns/step|encoder-ns/step|encoder/round)")


def build(tree: Path, game: str, out: Path) -> Path:
    binary = out / f"{tree.name}-{game}.test"
    subprocess.run(
        ["go", "test", "-c", "-o", str(binary), f"./env/{game}"], cwd=tree, check=True
    )
    return binary


def run(binary: Path, cwd: Path, steps: int) -> dict[str, float]:
    cmd = [
        "nice",
        "-n",
        "10",
        str(binary),
        "-test.run",
        "^$",
        "-test.bench",
        "^BenchmarkEncoder$",
        "-test.benchtime",
        f"{steps}x",
    ]
    out = subprocess.run(
        cmd, cwd=cwd, check=True, capture_output=True, text=True
    ).stdout
    got = {unit: float(v) for v, unit in METRIC.findall(out)}
    if len(got) != 3:
        raise SystemExit(f"{binary}: no BenchmarkEncoder figures in:\n{out}")
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument(
        "--games",
        default=",".join(GAMES),
        help="comma-separated, of " + ", ".join(GAMES),
    )
    ap.add_argument("--out", type=Path, help="also write the table to this file")
    a = ap.parse_args()
    games = [g for g in a.games.split(",") if g]
    if not games or any(g not in GAMES for g in games):
        ap.error(f"--games: a comma-separated list of {', '.join(GAMES)}")
    old, new = a.old.resolve(), a.new.resolve()
    res: dict[tuple[str, str], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as d:
        bins = {}
        for side, tree in (("old", old), ("new", new)):
            (Path(d) / side).mkdir()
            for g in games:
                bins[side, g] = build(tree, g, Path(d) / side)
        for r in range(a.runs):
            for g in games:
                for side, tree in (("old", old), ("new", new)):
                    got = run(bins[side, g], tree / "env" / g, a.steps)
                    res.setdefault((side, g), []).append(got)
                    print(f"run {r + 1} {g} {side}: {got}", flush=True)
    med = lambda side, g, k: statistics.median(x[k] for x in res[side, g])
    lines = [
        "| game | round µs (old / new) | encoder µs, old | encoder µs, new | encoder/round, old | encoder/round, new |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for g in games:
        lines.append(
            f"| {g.capitalize()} | {med('old', g, 'round-ns/step') / 1000:.1f} / "
            f"{med('new', g, 'round-ns/step') / 1000:.1f} | "
            f"{med('old', g, 'encoder-ns/step') / 1000:.1f} | {med('new', g, 'encoder-ns/step') / 1000:.1f} | "
            f"{med('old', g, 'encoder/round'):.2f} | {med('new', g, 'encoder/round'):.2f} |"
        )
    table = "\n".join(lines)
    print(table)
    if a.out:
        a.out.write_text(table + "\n")


if __name__ == "__main__":
    main()
