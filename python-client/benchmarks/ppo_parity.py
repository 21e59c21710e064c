"""Two trainers on make demo's budget, side by side: final scores and learning curves.

Reads runs laid out as ``DIR/s<seed>/`` (a trainer's run directory, its
``history.json`` there or one level down, and the ``jgym eval --json``
reports ``eval_<table>.json`` beside it, the table's seats joined by
``_``), prints for each trainer and table the mean score of each seed's
final policy and the seeds' mean and spread, and draws both trainers'
learning curves (the mean score of the training games, and of the
periodic greedy evaluations, against environment steps) into a PNG.
benchmarks/notebook/ppo-parity.md shows the commands that made the runs.

    python benchmarks/ppo_parity.py old=/tmp/parity/old new=/tmp/parity/new --png curves.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

TABLES = ("Demo_Demo_Demo", "Riddick_Demo_Demo")


def history(seed_dir: Path) -> dict[str, Any]:
    """The run's history.json (in the seed's directory or one level down)."""
    found = sorted(seed_dir.glob("history.json")) + sorted(seed_dir.glob("*/history.json"))
    if not found:
        raise SystemExit(f"{seed_dir}: no history.json")
    out: dict[str, Any] = json.loads(found[0].read_text())
    return out


def final_scores(seed_dir: Path) -> dict[str, float]:
    """The mean score of the final policy against each table (jgym eval --json)."""
    out = {}
    for t in TABLES:
        path = seed_dir / f"eval_{t}.json"
        if path.is_file():
            out[t] = float(json.loads(path.read_text())["mean_score"]["value"])
    return out


def curve(h: dict[str, Any], bins: np.ndarray) -> np.ndarray:
    """The mean score of the training games that ended in each bin of steps (NaN: none)."""
    steps = np.array([g["step"] for g in h["games"]], dtype=float)
    score = np.array([g["score"] for g in h["games"]], dtype=float)
    idx = np.digitize(steps, bins) - 1
    return np.array([score[idx == i].mean() if (idx == i).any() else np.nan
                     for i in range(len(bins) - 1)])  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """Prints the table and writes the plot."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trainers", nargs="+", help="NAME=DIR, each DIR holding s1, s2, s3...")
    p.add_argument("--png", default="", help="write the learning curves here")
    p.add_argument("--bins", type=int, default=16, help="bins of steps of the curves (default 16)")
    args = p.parse_args(argv)
    runs = {}
    for item in args.trainers:
        name, _, d = item.partition("=")
        dirs = [x for x in Path(d).glob("s[0-9]*") if x.is_dir() and x.name[1:].isdigit()]
        dirs.sort(key=lambda x: int(x.name[1:]))
        runs[name] = {s.name: (history(s), final_scores(s)) for s in dirs}
    print("| trainer | table | " + " | ".join(f"seed {s[1:]}" for s in runs[name])
          + " | mean | spread (max - min) |")  # fmt: skip
    print("|---" * (4 + len(runs[name])) + "|")
    for name, seeds in runs.items():
        for t in TABLES:
            xs = [f[t] for _, f in seeds.values() if t in f]
            if not xs:
                continue
            cells = " | ".join(f"{x:.1f}" for x in xs)
            spread = max(xs) - min(xs)
            print(
                f"| {name} | {t.replace('_', ', ')} | {cells} | {np.mean(xs):.1f} | {spread:.1f} |"
            )
    if not args.png:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    top = max(g["step"] for seeds in runs.values() for h, _ in seeds.values() for g in h["games"])
    bins = np.linspace(0, top, args.bins + 1)
    mid = (bins[1:] + bins[:-1]) / 2
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4))
    for k, (name, seeds) in enumerate(runs.items()):
        color = f"C{k}"
        for j, (h, _) in enumerate(seeds.values()):
            ax1.plot(mid, curve(h, bins), color=color, alpha=0.8,
                     label=name if j == 0 else None)  # fmt: skip
            e = [x for x in h["evals"] if x["games"] < 32]  # the periodic evaluations
            ax2.plot([x["step"] for x in e], [x["mean_score"] for x in e], "o-", color=color,
                     alpha=0.8, label=name if j == 0 else None)  # fmt: skip
    ax1.set(xlabel="environment steps", ylabel="mean final score", title="training games")
    ax2.set(xlabel="environment steps", ylabel="mean score (16 games)",
            title="greedy evaluations against three Demos")  # fmt: skip
    ax1.legend()
    ax2.legend()
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
