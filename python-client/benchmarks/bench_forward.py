"""Milliseconds per forward pass of train_ppo.py's network, by PyTorch thread count.

Builds the trainer's network for a game (untrained: the time does not
depend on the weights), takes a real observation batch from the env and
times the policy's forward pass (``agent.heads``) with 1 and with 2
PyTorch threads. Run it on an idle machine and again while another job
keeps the cores busy: that is where the thread count matters
(benchmarks/RESULTS.md).

    python benchmarks/bench_forward.py                       # Crematoria, batch 32
    python benchmarks/bench_forward.py --game Moria-v0 --batch 8 --repeat 50
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import sys
import time
from pathlib import Path

import torch

import jgym

TRAIN = Path(__file__).resolve().parent.parent / "examples" / "train_ppo.py"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line; every flag is described in --help."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="Crematoria-v0", help="the game id (default: Crematoria-v0)")
    p.add_argument("--batch", type=int, default=32, help="observations per pass (default: 32)")
    p.add_argument("--repeat", type=int, default=20, help="timed passes per setting (default: 20)")
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts (default: 1,2)")
    return p.parse_args(argv)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """Prints one line per thread count."""
    args = parse_args(argv)
    if os.environ.get("JGYM_QUICK"):  # the docs harness: a smoke test
        args.repeat = 2
    spec = importlib.util.spec_from_file_location("train_ppo", TRAIN)
    assert spec is not None and spec.loader is not None
    tp = importlib.util.module_from_spec(spec)
    sys.modules["train_ppo"] = tp
    spec.loader.exec_module(tp)
    targs = tp.parse_args(["--game", args.game])
    envs = jgym.make_vec(targs.game, num_envs=args.batch)
    try:
        obs, _ = envs.reset(seed=1)
        agent = tp.make_agent(tp.Spaces.of(envs.spec_proto), dataclasses.asdict(targs))
    finally:
        envs.close()
    x = tp.to_torch(obs)
    print(f"{args.game}, batch {args.batch}, {os.cpu_count()} cores, torch {torch.__version__}")
    for th in (int(t) for t in args.threads.split(",")):
        torch.set_num_threads(th)
        with torch.inference_mode():
            agent.heads(*x)  # warm up
            t0 = time.perf_counter()
            for _ in range(args.repeat):
                agent.heads(*x)
            ms = (time.perf_counter() - t0) / args.repeat * 1000
        print(f"threads {th}: {ms:8.2f} ms per forward pass")


if __name__ == "__main__":
    main()
