"""Frames per second of ``render_mode="rgb_array"`` and ``"ansi"``, for every game.

Plays each game a few rounds with random legal moves (so the boards hold
units, owners, gems), then times ``env.render()`` on the same observation
(the renderer runs in Python, on the client; the server is not involved).
The aim is at least 200 rgb frames per second, so that recording video
(``gymnasium.wrappers.RecordVideo``) costs little next to training.

    python benchmarks/bench_render.py                  # every game, 2 s each
    python benchmarks/bench_render.py --games Moria-v0 --seconds 1 --mode ansi
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

import jgym


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line; every flag is described in --help."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--games",
        default=",".join(jgym.GAMES),
        help="comma-separated game ids to measure (default: every game)",
    )
    p.add_argument(
        "--mode",
        choices=["rgb_array", "ansi", "both"],
        default="both",
        help="which render mode to time (default: both)",
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help="how long to render each game and mode, in seconds",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=30,
        help="random legal rounds played before timing (a board mid-game)",
    )
    p.add_argument(
        "--address", default="", help="host:port of a running jgym server (default: start one)"
    )
    return p.parse_args(argv)  # fmt: skip


def fps(env: jgym.JgymEnv, seconds: float) -> float:
    """Renders the current observation repeatedly; returns frames per second."""
    env.render()  # warm the caches
    n, start = 0, time.perf_counter()
    while (el := time.perf_counter() - start) < seconds:
        env.render()
        n += 1
    return n / el


def main(argv: list[str] | None = None) -> None:
    """Measures and prints one line per game and mode."""
    args = parse_args(argv)
    modes = ["rgb_array", "ansi"] if args.mode == "both" else [args.mode]
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cores")
    print(f"{'game':<15} {'mode':<10} {'frame':>15} {'frames/s':>10}")
    rng = np.random.default_rng(0)
    for game in args.games.split(","):
        for mode in modes:
            env = jgym.JgymEnv(game, render_mode=mode, address=args.address or None)
            obs, _ = env.reset(seed=1)
            for _ in range(args.rounds):
                obs, *_ = env.step(jgym.sample_masked(obs["action_mask"], rng))
            frame = env.render()
            if mode == "rgb_array":
                shape = "x".join(map(str, frame.shape))
            else:
                shape = f"{len(frame)} chars"
            print(f"{game:<15} {mode:<10} {shape:>15} {fps(env, args.seconds):>10,.0f}")
            env.close()


if __name__ == "__main__":
    main()
