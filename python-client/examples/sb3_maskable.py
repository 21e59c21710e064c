"""Train sb3-contrib's MaskablePPO on a jgym game against three Demos, then evaluate it.

The pieces are jgym's (``jgym.sb3``): one batched SB3 ``VecEnv`` over a
jgym vector env (``JgymSB3VecEnv``), the board extractor
(``BoardExtractor``: every plane's values embedded, convolutions, each unit
slot's features gathered at its cell) and the policy whose action head is
shared by the unit slots (``SlotPolicy``). MaskablePPO samples only legal
moves (the env's ``action_masks()``). Any game: ``--game``.

    pip install './python-client[train]'
    python examples/sb3_maskable.py --game Moria-v0 --time-budget 1800 --save moria_maskable.zip

Then it plays ``--eval-games`` games against three Demos with
``jgym.evaluate`` (each seed from the four seats; seeds the training never
used) and prints the win rate with its 95% interval. docs/python.md has the
figures measured on the project's machine. ``JGYM_QUICK=1`` (set by the
docs harness) shrinks the run to a smoke test: two rollouts, 4 evaluation
games.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

import jgym
from jgym.cli import parse

TRAIN_SEED0 = 1_000_000  # training games; evaluation uses seeds from 0


@dataclass
class Args:
    """Command-line arguments (each field is a ``--flag``; ``--help`` lists them)."""

    game: str = "Moria-v0"
    """the game to train on (jgym.GAMES: Crematoria-v0, Dominator-v0, Pandemic-v0, Moria-v0)"""
    time_budget: float = 1800.0
    """stop training after this many seconds (the rollout in progress is finished)"""
    total_timesteps: int = 10_000_000
    """stop training after this many env steps, if the time budget has not stopped it"""
    num_envs: int = 16
    """games stepped together (one learner seat against three Demos in each)"""
    n_steps: int = 64
    """PPO rollout length per game (a rollout is num_envs x n_steps env steps)"""
    batch_size: int = 512
    """PPO minibatch size"""
    n_epochs: int = 4
    """PPO epochs over each rollout"""
    learning_rate: float = 5e-4
    """Adam's learning rate"""
    gamma: float = 0.99
    """discount factor"""
    ent_coef: float = 0.01
    """entropy bonus"""
    reward_scale: float = 0.1
    """the rewards (score changes) are multiplied by this"""
    nb_rounds: int = 0
    """rounds per game, 0 for the game's own (fewer for quick tests)"""
    seed: int = 1
    """seed of PyTorch and of the training games (offset by 1,000,000)"""
    eval_games: int = 100
    """games against three Demos after training (a multiple of 4; 0: no evaluation)"""
    save: str = ""
    """where to save the trained model (.zip), empty for nowhere"""
    address: str = ""
    """host:port of a running jgym server (default: start one)"""
    threads: int = 1
    """PyTorch threads (small networks on CPU: more only fight the server for the cores)"""


def config_with_rounds(game: str, nb_rounds: int, address: str | None) -> str:
    """The game's default configuration with another number of rounds ('' for the default)."""
    if nb_rounds <= 0:
        return ""
    with jgym.Client(address) as client:
        spec = next(g for g in client.list_games() if g.id == game)
    lines = []
    for line in spec.default_config.splitlines():
        words = line.split()
        lines.append(f"{words[0]} {nb_rounds}" if words[:1] == ["nb_rounds"] else line)
    return "\n".join(lines) + "\n"


class ScaledRewards:
    """Multiplies a VecEnv's rewards (a tiny VecEnvWrapper without SB3's normalisation)."""

    @staticmethod
    def wrap(venv: Any, scale: float) -> Any:
        """Returns ``venv`` whose ``step_wait`` rewards are scaled."""
        from stable_baselines3.common.vec_env import VecEnvWrapper

        class _Scaled(VecEnvWrapper):  # type: ignore[misc]
            def reset(self) -> Any:
                return self.venv.reset()

            def step_wait(self) -> Any:
                obs, reward, done, info = self.venv.step_wait()
                return obs, reward * scale, done, info

        return _Scaled(venv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Trains, saves, evaluates; returns the evaluation summary."""
    args = parse(Args, argv)
    if os.environ.get("JGYM_QUICK"):
        # A smoke test of the command as written (the docs harness sets it).
        args.time_budget = min(args.time_budget, 20.0)
        args.total_timesteps = min(args.total_timesteps, 2 * args.num_envs * args.n_steps)
        args.eval_games = min(args.eval_games, 4)
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from jgym.sb3 import JgymSB3VecEnv, SlotPolicy, policy_kwargs

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    address = args.address or None
    config = config_with_rounds(args.game, args.nb_rounds, address)
    venv = JgymSB3VecEnv(
        args.game, args.num_envs, seed=TRAIN_SEED0 + args.seed, address=address, config=config
    )
    env = ScaledRewards.wrap(VecMonitor(venv), args.reward_scale)

    class Budget(BaseCallback):  # type: ignore[misc]
        """Stops at the time budget; prints the win rate of the finished games."""

        def __init__(self) -> None:
            super().__init__()
            self.start = time.monotonic()
            self.won: list[bool] = []
            self.last_print = 0.0

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "scores" in info:
                    sc = info["scores"]
                    me = info["seat"]
                    self.won.append(bool(sc[me] > max(np.delete(sc, me))))
            el = time.monotonic() - self.start
            if el - self.last_print > 60 and self.won:
                recent = self.won[-100:]
                print(
                    f"{el:6.0f} s  {self.num_timesteps:8d} steps  {len(self.won)} games  "
                    f"win rate of the last {len(recent)}: {np.mean(recent):.0%}",
                    flush=True,
                )
                self.last_print = el
            return el < args.time_budget

    model = MaskablePPO(
        SlotPolicy,
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        learning_rate=args.learning_rate,
        gamma=args.gamma,
        ent_coef=args.ent_coef,
        policy_kwargs=policy_kwargs(venv),
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.monotonic()
    model.learn(total_timesteps=args.total_timesteps, callback=Budget())
    trained = time.monotonic() - start
    print(f"trained {model.num_timesteps} env steps in {trained:.0f} s", flush=True)
    env.close()
    if args.save:
        model.save(args.save)
        print(f"saved {args.save}")
    summary: dict[str, Any] = {"steps": model.num_timesteps, "seconds": trained}
    if args.eval_games > 0:

        def maskable_ppo(obs: dict[str, np.ndarray]) -> np.ndarray:
            masks = obs["action_mask"].reshape(len(obs["action_mask"]), -1).astype(bool)
            actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
            return np.asarray(actions)

        r = jgym.evaluate(
            maskable_ppo, n_games=args.eval_games, game=args.game, config=config, address=address
        )
        summary.update(win_rate=r.win_rate, games=args.eval_games)
        print(f"evaluation: {args.eval_games} games against three Demos, win rate {r.win_rate:.0%}")
    return summary


if __name__ == "__main__":
    main()
