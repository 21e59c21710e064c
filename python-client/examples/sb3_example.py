"""Train Stable-Baselines3 PPO on Crematoria, then play a game with the policy.

SB3's ``MultiInputPolicy`` takes the Dict observation as it is (each tensor
through its own extractor) and its PPO handles the ``MultiDiscrete`` action.
Plain PPO does not use the action mask; illegal moves are simply not carried
out by the engine (sb3-contrib's MaskablePPO would use the mask).

    pip install './python-client[train]'
    python examples/sb3_example.py --total-timesteps 2048

This is a smoke-sized run on CPU, to show the wiring, not a strong player.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

import jgym  # noqa: F401 - registers jgym/Crematoria-v0
from jgym.cli import parse
from jgym.client import Client


@dataclass
class Args:
    """Command-line arguments (each field is a ``--flag``)."""

    total_timesteps: int = 2048
    """environment steps to train for"""
    num_envs: int = 2
    """parallel environments (SB3 DummyVecEnv of jgym envs, one server)"""
    n_steps: int = 256
    """PPO rollout length per env"""
    nb_rounds: int = 120
    """rounds per game (fewer makes short episodes for quick tests)"""
    seed: int = 1
    """seed of the games and of PPO"""
    address: str = ""
    """host:port of a running jgym server (default: start one)"""


def parse_args(argv: list[str] | None = None) -> Args:
    """Builds the command line from the Args dataclass (``--help`` describes each flag)."""
    return parse(Args, argv, __doc__.splitlines()[0])


def config_with_rounds(nb_rounds: int, address: str | None) -> str:
    """The server's default configuration with another number of rounds."""
    if nb_rounds == 120:
        return ""
    with Client(address) as client:
        default = client.list_games()[0].default_config
    return re.sub(r"^nb_rounds\s+\d+", f"nb_rounds {nb_rounds}", default, flags=re.M)


def main(argv: list[str] | None = None) -> None:
    """Trains PPO for a few steps and evaluates one game."""
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env

    args = parse_args(argv)
    # Small networks on CPU: more threads only fight the server for the cores.
    torch.set_num_threads(1)
    address = args.address or None
    config = config_with_rounds(args.nb_rounds, address)
    kwargs: dict[str, Any] = {"config": config, "address": address, "render_mode": None}
    vec = make_vec_env(
        "jgym/Crematoria-v0", n_envs=args.num_envs, seed=args.seed, env_kwargs=kwargs
    )
    model = PPO(
        "MultiInputPolicy",
        vec,
        n_steps=args.n_steps,
        batch_size=64,
        n_epochs=2,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    model.learn(total_timesteps=args.total_timesteps)
    vec.close()

    env = gymnasium.make("jgym/Crematoria-v0", **kwargs)
    try:
        obs, info = env.reset(seed=args.seed + 1000)
        total, done = 0.0, False
        while not done:
            action, _ = model.predict(obs, deterministic=True)
            obs, reward, terminated, truncated, info = env.step(np.asarray(action))
            total += float(reward)
            done = terminated or truncated
    finally:
        env.close()
    print(
        f"trained {args.total_timesteps} steps; evaluation game: return {total:.0f}, "
        f"rank {info['rank']} of 4, scores {info['scores'].tolist()}"
    )


if __name__ == "__main__":
    main()
