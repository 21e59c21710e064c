#!/usr/bin/env python3
"""A/B of the engine, observation and vec benchmarks of two source trees.

    python3 scripts/ab_bench.py OLD_TREE NEW_TREE [--runs 5] [--scale 1.0] [--out DIR]

OLD_TREE is for example ``git worktree add /tmp/ab-old 12fa66d``. Each
side's test binaries are built once (``go test -c``); then every benchmark
of BENCHES runs ``--runs`` times per side, interleaved (old, new, old, new,
...), each run a fixed number of operations (``-test.benchtime Nx``, N
from BENCHES times ``--scale``) in its package's directory of its own tree.

What is measured: the CPU time (user + system) of the test process per
operation, from the kernel's accounting of the child (``getrusage``), not
the wall-clock ns/op that ``go test`` prints: on a shared machine a
process's wall time depends on how many other processes want the cores,
its CPU time much less. The CPU time includes the benchmark's set-up (a
game's first states, a pool's reset), the same on both sides. The wall
ns/op of ``go test`` is kept too. Prints, per benchmark, the median over
the runs of each side and new/old; ``--out`` keeps every run's output.
benchmarks/notebook/refactor-ab.md shows a run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import tempfile
from pathlib import Path

# (package, benchmark, operations per run at --scale 1: about 0.2 s of CPU
# on an idle core of the project's machine)
ENGINE = [("RoundNull", 20000), ("RoundDemo", 10000), ("RoundNullTrace", 6000),
          ("RoundDemoTrace", 5000), ("Observe", 2000)]
BENCHES = [("env/crematoria", b, n) for b, n in ENGINE] + [
    ("env/dominator", "RoundNull", 50000), ("env/dominator", "RoundDemo", 5000),
    ("env/dominator", "RoundNullTrace", 12000), ("env/dominator", "RoundDemoTrace", 4000),
    ("env/dominator", "Observe", 5000),
    ("env/pandemic", "RoundNull", 20000), ("env/pandemic", "RoundDemo", 20000),
    ("env/pandemic", "RoundNullTrace", 12000), ("env/pandemic", "RoundDemoTrace", 10000),
    ("env/pandemic", "Observe", 5000),
    ("env/moria", "RoundNull", 80000), ("env/moria", "RoundDemo", 3000),
    ("env/moria", "RoundNullTrace", 20000), ("env/moria", "RoundDemoTrace", 3000),
    ("env/moria", "Observe", 5000),
    ("vec", "Step/envs=1", 1000), ("vec", "Step/envs=16", 60), ("vec", "Step/envs=64", 16),
    ("vec", "Step/envs=256", 4),
]  # fmt: skip


def build(side: str, tree: Path, pkg: str, out: Path) -> Path:
    binary = out / f"{side}-{pkg.replace('/', '-')}.test"
    subprocess.run(["go", "test", "-c", "-o", str(binary), f"./{pkg}"], cwd=tree, check=True)
    return binary


def run_once(binary: Path, cwd: Path, bench: str, n: int) -> tuple[float, float | None, str]:
    """One run: CPU seconds of the process, go test's wall ns/op, output."""
    top, _, sub = bench.partition("/")
    pattern = f"^Benchmark{top}$" + (f"/^{sub}$" if sub else "")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [str(binary), "-test.run", "^$", "-test.bench", pattern, "-test.benchtime", f"{n}x"],
        cwd=cwd, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r"^Benchmark\S+\s+\d+\s+([\d.]+) ns/op", out, re.MULTILINE)
    return cpu, float(m.group(1)) if m else None, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, help="the old source tree")
    ap.add_argument("new", type=Path, help="the new source tree")
    ap.add_argument("--runs", type=int, default=5, help="runs per side and benchmark (default 5)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every run's operations")
    ap.add_argument("--only", default="", help="only the benchmarks whose package/name contain this")
    ap.add_argument("--out", type=Path, default=None, help="keep each run's output here")
    args = ap.parse_args()
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    benches = [b for b in BENCHES if args.only in f"{b[0]}/{b[1]}"]
    out = args.out or Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    bins = {(side, pkg): build(side, tree, pkg, out) for side, tree in trees.items()
            for pkg in sorted({b[0] for b in benches})}  # fmt: skip
    cpu: dict[tuple[str, str, str], list[float]] = {}
    wall: dict[tuple[str, str, str], list[float]] = {}
    for r in range(args.runs):
        for pkg, bench, n in benches:
            n = max(1, round(n * args.scale))
            for side, tree in trees.items():
                c, w, text = run_once(bins[side, pkg], tree / pkg, bench, n)
                cpu.setdefault((pkg, bench, side), []).append(c / n * 1e6)
                if w is not None:
                    wall.setdefault((pkg, bench, side), []).append(w / 1e3)
                name = f"{side}-{pkg.replace('/', '-')}-{bench.replace('/', '-')}-{r + 1}.txt"
                (out / name).write_text(text)
        print(f"run {r + 1} of {args.runs} done; load average {os.getloadavg()[0]:.1f}", flush=True)

    print(f"\nmedians of {args.runs} runs per side, interleaved; CPU µs per operation "
          "(user + system), and go test's wall µs/op")  # fmt: skip
    print(f"{'package':15} {'benchmark':16} {'old CPU':>10} {'new CPU':>10} {'new/old':>8}"
          f"  {'old wall':>10} {'new wall':>10} {'new/old':>8}  CPU runs old | new")  # fmt: skip
    for pkg, bench, _ in benches:
        o, nw = cpu[pkg, bench, "old"], cpu[pkg, bench, "new"]
        mo, mn = statistics.median(o), statistics.median(nw)
        wo, wn = (statistics.median(wall.get((pkg, bench, s), [float("nan")])) for s in ("old", "new"))
        runs = " ".join(f"{x:.1f}" for x in o) + " | " + " ".join(f"{x:.1f}" for x in nw)
        print(f"{pkg:15} {bench:16} {mo:10.2f} {mn:10.2f} {mn / mo:8.3f}"
              f"  {wo:10.2f} {wn:10.2f} {wn / wo:8.3f}  {runs}")  # fmt: skip
    print(f"raw outputs: {out}")


if __name__ == "__main__":
    main()
