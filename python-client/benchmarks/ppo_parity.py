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
import math
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


def one(seed_dir: Path, name: str) -> Path:
    """The run's file ``name`` (in the seed's directory or one level down)."""
    found = sorted(seed_dir.glob(name)) + sorted(seed_dir.glob(f"*/{name}"))
    if not found:
        raise SystemExit(f"{seed_dir}: no {name}")
    return found[0]


def rows(h: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """A history's rows without their wall-clock fields, NaN as None (NaN equals nothing)."""

    def value(v: Any) -> Any:
        return None if isinstance(v, float) and math.isnan(v) else v

    clock = ("time", "sps", "seconds")
    return [{k: value(v) for k, v in r.items() if k not in clock} for r in h[key]]


def same(a: Path, b: Path) -> dict[str, Any]:
    """Compares two runs of one seed: what is equal, and how many updates' statistics differ."""
    import onnx
    import torch
    from onnx import numpy_helper

    wa, wb = (torch.load(one(d, "checkpoint.pt"), weights_only=True)["model"] for d in (a, b))
    ha, hb = history(a), history(b)
    out: dict[str, Any] = {
        "weights": wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)
    }
    out["games"], out["evals"] = (rows(ha, k) == rows(hb, k) for k in ("games", "evals"))
    ua, ub = rows(ha, "updates"), rows(hb, "updates")
    out["updates"] = len(ua) == len(ub)  # as many; their statistics that differ:
    differ = {
        k: [(x[k], y[k]) for x, y in zip(ua, ub, strict=False) if x[k] != y[k]] for k in ua[0]
    }

    def rel(x: Any, y: Any) -> float:  # the relative difference (inf: one is NaN)
        if x is None or y is None:
            return math.inf
        return float(abs(x - y) / max(abs(x), abs(y)))

    out["updates_differ"] = {  # how many of the updates, and the largest relative difference
        k: f"{len(v)} of {len(ua)}, {max(rel(x, y) for x, y in v):.1e}"
        for k, v in differ.items()
        if v
    }
    for t in TABLES:  # the reports of the tables either run has
        fa, fb = (d / f"eval_{t}.json" for d in (a, b))
        if not (fa.is_file() or fb.is_file()):
            continue
        ea, eb = (json.loads(f.read_text()) if f.is_file() else {} for f in (fa, fb))
        mine = ("bot", "elapsed_seconds")
        if ea and ea.keys() == eb.keys() and all(ea[k] == eb[k] for k in ea if k not in mine):
            out[f"eval_{t}"] = "same report"
        elif ea and ea.get("results") == eb.get("results"):  # its intervals computed otherwise
            out[f"eval_{t}"] = "same games"
        else:
            out[f"eval_{t}"] = False
    ma, mb = (onnx.load(one(d, "model.onnx")) for d in (a, b))
    ia, ib = ({i.name: numpy_helper.to_array(i) for i in m.graph.initializer} for m in (ma, mb))
    out["onnx_initializers"] = ia.keys() == ib.keys() and all(
        np.array_equal(ia[k], ib[k]) for k in ia
    )
    out["onnx_nodes"] = [n.SerializeToString() for n in ma.graph.node] == [
        n.SerializeToString() for n in mb.graph.node
    ]
    out["onnx_inputs_outputs"] = [
        x.SerializeToString() for x in (*ma.graph.input, *ma.graph.output)
    ] == [x.SerializeToString() for x in (*mb.graph.input, *mb.graph.output)]
    pa, pb = ({p.key: p.value for p in m.metadata_props} for m in (ma, mb))
    out["onnx_producers"] = [ma.producer_name, mb.producer_name]
    out["onnx_metadata_differ"] = sorted(k for k in pa.keys() | pb.keys() if pa.get(k) != pb.get(k))
    return out


def main(argv: list[str] | None = None) -> None:
    """Prints the table and writes the plot."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trainers", nargs="+", help="NAME=DIR, each DIR holding s1, s2, s3...")
    p.add_argument("--png", default="", help="write the learning curves here")
    p.add_argument("--bins", type=int, default=16, help="bins of steps of the curves (default 16)")
    p.add_argument("--same", action="store_true",
                   help="compare the first two trainers' runs of each seed instead: weights, "
                   "histories without wall-clock fields, jgym eval reports (the same but for "
                   "path and time, or the same games), ONNX files")  # fmt: skip
    args = p.parse_args(argv)
    runs, paths = {}, {}
    for item in args.trainers:
        name, _, d = item.partition("=")
        dirs = [x for x in Path(d).glob("s[0-9]*") if x.is_dir() and x.name[1:].isdigit()]
        dirs.sort(key=lambda x: int(x.name[1:]))
        runs[name] = {s.name: (history(s), final_scores(s)) for s in dirs}
        paths[name] = {s.name: s for s in dirs}
    if args.same:
        first, second = list(paths.values())[:2]
        for seed in sorted(first.keys() & second.keys(), key=lambda x: int(x[1:])):
            print(seed, json.dumps(same(first[seed], second[seed])))
        return
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
        # the first trainer wide and solid, the others thin and dashed: equal curves stay visible
        style = {"color": f"C{k}", "alpha": 0.8, "linewidth": 3.5 if k == 0 else 1.5,
                 "linestyle": "-" if k == 0 else "--"}  # fmt: skip
        for j, (h, _) in enumerate(seeds.values()):
            ax1.plot(mid, curve(h, bins), label=name if j == 0 else None, **style)
            e = [x for x in h["evals"] if x["games"] < 32]  # the periodic evaluations
            ax2.plot([x["step"] for x in e], [x["mean_score"] for x in e], marker="o",
                     label=name if j == 0 else None, **style)  # fmt: skip
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
