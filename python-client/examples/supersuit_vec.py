"""Self-play through SuperSuit: the four seats of several games as one vector env.

``jgym.parallel_env`` is a PettingZoo ``ParallelEnv`` whose four agents are
the four seats of one game. SuperSuit's ``pettingzoo_env_to_vec_env_v1``
makes its agents the entries of a vector env, and ``concat_vec_envs_v1``
joins several copies, each stepped in a worker process (the env pickles:
each copy connects to the same server, or starts its own in its worker
without ``--address``). This is the batch a parameter-shared self-play
trainer learns from: one policy for every seat. Here a random legal policy
(``jgym.sample_masked``) plays it and the agents' returns are printed.

    pip install './python-client[dev]'   # SuperSuit comes with the dev extra
    python examples/supersuit_vec.py --game Moria-v0 --copies 2 --steps 300

Games end together (every game of a batch has the same number of rounds);
SuperSuit then resets them.
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

    game: str = "Crematoria-v0"
    """one of jgym.GAMES"""
    copies: int = 2
    """games stepped together: copies x 4 agents"""
    num_cpus: int = 2
    """SuperSuit's worker processes (0: step every copy in this process)"""
    steps: int = 240
    """vector steps to play (a default Crematoria game lasts 120 rounds)"""
    seed: int = 1
    """seed of the games and of the random policy"""
    config: str = ""
    """a configuration file in the game's kit format (default: the course's)"""
    address: str = ""
    """host:port of a running jgym server (default: start one per copy)"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Builds the command line from the Args dataclass (``--help`` describes each flag)."""
    return parse(Args, argv, __doc__.splitlines()[0])


def main(argv: list[str] | None = None) -> None:
    """Plays random legal moves in every seat and prints the agents' returns."""
    import supersuit as ss

    args = parse_args(argv)
    if args.game not in jgym.GAMES:
        raise SystemExit(f"--game {args.game}: want one of {', '.join(jgym.GAMES)}")
    par = jgym.parallel_env(
        args.game,
        config=open(args.config).read() if args.config else "",  # noqa: SIM115
        address=args.address or None,
    )
    venv = ss.pettingzoo_env_to_vec_env_v1(par)
    envs = ss.concat_vec_envs_v1(venv, args.copies, num_cpus=args.num_cpus, base_class="gymnasium")
    rng = np.random.default_rng(args.seed)
    n = envs.num_envs  # copies x 4 seats
    returns = np.zeros(n)
    finished: list[float] = []
    try:
        obs, _ = envs.reset(seed=args.seed)
        start = time.perf_counter()
        for _ in range(args.steps):
            obs, reward, terminated, truncated, _ = envs.step(
                jgym.sample_masked(obs["action_mask"], rng)
            )
            returns += reward
            for i in np.flatnonzero(np.logical_or(terminated, truncated)):
                finished.append(float(returns[i]))
                returns[i] = 0.0
        elapsed = time.perf_counter() - start
    finally:
        envs.close()
        par.close()
    games = f"{args.copies} game{'s' if args.copies != 1 else ''} x 4 seats"
    workers = f"{args.num_cpus} worker processes" if args.num_cpus else "in this process"
    print(
        f"{args.game}: {args.steps * n / elapsed:,.0f} agent-steps/s over {n} agents "
        f"({games}, {workers})"
    )
    if finished:
        print(f"{len(finished)} agent-episodes: mean return {np.mean(finished):.1f}")
    else:
        print("no game finished: play more --steps")


if __name__ == "__main__":
    main()
