"""A random agent that only plays legal moves, on a vector of Crematoria games.

Each step draws, for every unit slot of every env, a direction uniformly among
the legal ones (``observation["action_mask"]``), for the whole batch at once.
The vector env resets finished games itself (``AutoresetMode.NEXT_STEP``).

    python examples/random_agent.py --num-envs 16 --steps 300

Without ``--address`` a local ``jgym serve`` is started and stopped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

import jgym
from jgym.cli import parse


@dataclass
class Args:
    """Command-line arguments (each field is a ``--flag``)."""

    num_envs: int = 8
    """number of games stepped together"""
    steps: int = 240
    """vector steps to play (a default game lasts 120 rounds)"""
    seed: int = 1
    """game g uses seed + g"""
    opponents: str = "Demo,Demo,Demo"
    """comma-separated bots in the other seats"""
    config: str = ""
    """a configuration file in the kit's format (default: the course's)"""
    address: str = ""
    """host:port of a running jgym server (default: start one)"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Builds the command line from the Args dataclass (``--help`` describes each flag)."""
    return parse(Args, argv, __doc__.splitlines()[0])


def main(argv: list[str] | None = None) -> None:
    """Plays random legal moves and prints the finished games' returns."""
    args = parse_args(argv)
    envs = jgym.make_vec(
        "Crematoria-v0",
        num_envs=args.num_envs,
        opponents=tuple(args.opponents.split(",")) if args.opponents else (),
        config=open(args.config).read() if args.config else "",  # noqa: SIM115
        address=args.address or None,
    )
    rng = np.random.default_rng(args.seed)
    returns = np.zeros(envs.num_envs)
    finished: list[float] = []
    ranks: list[int] = []
    try:
        obs, _ = envs.reset(seed=args.seed)
        start = time.perf_counter()
        for _ in range(args.steps):
            actions = jgym.sample_masked(obs["action_mask"], rng)
            obs, reward, terminated, truncated, info = envs.step(actions)
            returns += reward
            for i in np.flatnonzero(terminated | truncated):
                finished.append(float(returns[i]))
                ranks.append(int(info["rank"][i]))
                returns[i] = 0.0
        elapsed = time.perf_counter() - start
    finally:
        envs.close()
    print(f"{args.steps * envs.num_envs / elapsed:,.0f} env-steps/s over {envs.num_envs} envs")
    if finished:
        print(
            f"{len(finished)} games: mean return {np.mean(finished):.1f}, "
            f"mean rank {np.mean(ranks):.2f} (1 best .. 4)"
        )
    else:
        print(f"no game finished yet; mean return so far {returns.mean():.1f}")


if __name__ == "__main__":
    main()
