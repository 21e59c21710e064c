"""Crematoria: where each bot's score comes from, cells or gems, over a directory of traces.

A Crematoria score is the cave cells a group owns at the end plus
``gem_value`` (30) per gem its Pioneers picked up. ``jgym eval`` prints
the scores; this reads the traces it writes (``--trace-dir``) and prints,
per bot (the trace's ``names``), the mean final cells, gems and score, so
that a learner's results can be taken apart against Riddick's:

    bin/jgym eval policy:model.onnx --opponents Riddick,Demo,Demo -n 20 --trace-dir /tmp/tr
    python benchmarks/crematoria_totals.py /tmp/tr

Seats of the same bot in one game count as separate samples. Traces may
be gzipped (``.res.gz``).
"""

from __future__ import annotations

import argparse
import gzip
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Totals:
    """One trace's header values and last round's counters, per seat."""

    names: list[str]
    gem_value: int
    cells: list[int]
    gems: list[int]


def read_totals(path: Path) -> Totals:
    """The names, gem value and final ``nb_cells``/``nb_gems`` of one Crematoria trace."""
    opener = gzip.open if path.suffix == ".gz" else open
    names: list[str] | None = None
    gem_value: int | None = None
    cells: list[int] | None = None
    gems: list[int] | None = None
    with opener(path, "rt") as f:  # type: ignore[operator]
        first = f.readline().strip()
        for line in f:
            key, _, rest = line.partition(" ")
            if key == "names" and names is None:
                names = rest.split()
            elif key == "gem_value" and gem_value is None:
                gem_value = int(rest)
            elif key == "nb_cells":
                cells = [int(x) for x in rest.split()]
            elif key == "nb_gems":
                gems = [int(x) for x in rest.split()]
    if first != "Game" or names is None or gem_value is None or cells is None or gems is None:
        raise ValueError(f"{path.name}: not a Crematoria trace (no names, gem_value or rounds)")
    if not len(names) == len(cells) == len(gems):
        raise ValueError(f"{path.name}: {len(names)} names but {len(cells)} cell counts")
    return Totals(names, gem_value, cells, gems)


def summarize(paths: list[Path]) -> dict[str, dict[str, float]]:
    """Per bot: its seats, and their mean final cells, gems and score."""
    seats: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for p in paths:
        t = read_totals(p)
        for name, c, g in zip(t.names, t.cells, t.gems, strict=True):
            seats[name].append((c, g, c + t.gem_value * g))
    out = {}
    for name, rows in seats.items():
        n = len(rows)
        out[name] = {
            "seats": n,
            "cells": sum(r[0] for r in rows) / n,
            "gems": sum(r[1] for r in rows) / n,
            "score": sum(r[2] for r in rows) / n,
        }
    return out


def main(argv: list[str] | None = None) -> None:
    """Prints one line per bot."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("traces", help="a directory of .res or .res.gz traces (jgym eval --trace-dir)")
    args = p.parse_args(argv)
    d = Path(args.traces)
    paths = sorted([*d.glob("*.res"), *d.glob("*.res.gz")]) if d.is_dir() else []
    if not paths:
        raise SystemExit(f"crematoria_totals.py: no .res or .res.gz traces in {args.traces[:200]}")
    try:
        totals = summarize(paths)
    except ValueError as e:
        raise SystemExit(f"crematoria_totals.py: {e}") from None
    print(f"{len(paths)} games")
    print(f"{'bot':<20}{'seats':>6}{'cells':>10}{'gems':>8}{'score':>10}")
    for name, t in sorted(totals.items(), key=lambda kv: -kv[1]["score"]):
        print(f"{name:<20}{t['seats']:>6}{t['cells']:>10.1f}{t['gems']:>8.1f}{t['score']:>10.1f}")


if __name__ == "__main__":
    main()
