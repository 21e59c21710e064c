"""RLlib PPO on a jgym game with several env runners against one or more jgym servers.

The way to train across machines: Ray's env runners (processes, on any
node of a Ray cluster) each play games on a jgym server, the learner
trains ``jgym.rllib.JgymRLModule`` (the new API stack: it reads jgym's Dict
observation and applies the action masks). Here everything runs on this
machine: ``--servers N`` starts N local jgym servers and spreads the env
runners' games over them; ``--addresses`` names running ones instead
(``jgym serve`` on other machines, the Docker image, deploy/).

    pip install './python-client[rllib]'
    python examples/rllib_ppo.py --game Moria-v0 --num-env-runners 2 --servers 2 --iterations 20
    python examples/rllib_ppo.py --addresses 10.0.0.5:50051,10.0.0.6:50051 --ray-address auto \
        --token "$JGYM_TOKEN" --tls-ca certs/ca.pem

The servers' token and TLS files come from ``--token``, ``--tls-ca`` (and
``--tls-cert``/``--tls-key`` for mutual TLS), else from ``$JGYM_TOKEN`` and
``$JGYM_TLS_CA`` of the driver's shell, as in ``multi_server.py``. The
driver reads the files and sends their text to every env runner in
RLlib's env config: Ray's workers, on this machine or another, do not
inherit the driver's environment (docs/operations.md, "Training on a Ray
cluster").

Each iteration prints the mean return of the finished games and the
fraction of the sampled moves that were legal (always 1: the module masks
the illegal ones). ``JGYM_QUICK=1`` (set by the docs harness) shrinks the
run to a smoke test: at most two iterations of 400 steps on 20-round games.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

import jgym
from jgym.cli import parse


@dataclass
class Args:
    """Command-line arguments (each field is a ``--flag``; ``--help`` lists them)."""

    game: str = "Moria-v0"
    """the game (jgym.GAMES: Crematoria-v0, Dominator-v0, Pandemic-v0, Moria-v0)"""
    iterations: int = 10
    """PPO iterations (each samples train_batch_size env steps, then trains)"""
    num_env_runners: int = 2
    """Ray env runners (processes) sampling games"""
    num_envs_per_env_runner: int = 1
    """games each env runner plays at once"""
    servers: int = 1
    """local jgym servers to start and spread the games over (ignored with --addresses)"""
    addresses: str = ""
    """comma-separated host:port of running jgym servers, instead of starting local ones"""
    ray_address: str = ""
    """a running Ray cluster to join ('auto' or host:port); empty: start Ray here"""
    train_batch_size: int = 2000
    """env steps sampled per iteration"""
    minibatch_size: int = 250
    """PPO minibatch size"""
    num_epochs: int = 4
    """PPO epochs over each batch"""
    lr: float = 3e-4
    """learning rate"""
    nb_rounds: int = 0
    """rounds per game, 0 for the game's own (fewer for quick tests)"""
    seed: int = 1
    """seed of RLlib"""
    token: str = ""
    """the servers' token (default: $JGYM_TOKEN)"""
    tls_ca: str = ""
    """PEM file of the servers' CA: TLS to the servers (default: $JGYM_TLS_CA)"""
    tls_cert: str = ""
    """this client's certificate, for servers that ask for one (mutual TLS)"""
    tls_key: str = ""
    """the private key of --tls-cert"""
    tls_server_name: str = ""
    """the name to check in the servers' certificates when not their host"""


def credentials(args: Args) -> dict[str, Any]:
    """The servers' token and TLS, for the env config: the files' text, not their paths."""
    out: dict[str, Any] = {}
    token = args.token or os.environ.get("JGYM_TOKEN", "")
    if token:
        out["token"] = token
    ca = args.tls_ca or os.environ.get("JGYM_TLS_CA", "")
    if ca or args.tls_cert:
        out["tls"] = jgym.TLS(
            root_ca=ca or None,
            client_cert=args.tls_cert or None,
            client_key=args.tls_key or None,
            server_name=args.tls_server_name or None,
        ).portable()
    return out


def short_config(game: str, nb_rounds: int, address: str | None, creds: dict[str, Any]) -> str:
    """The game's default configuration with another number of rounds ('' for the default)."""
    if nb_rounds <= 0:
        return ""
    with jgym.Client(address, **creds) as client:
        spec = next(g for g in client.list_games() if g.id == game)
    lines = []
    for line in spec.default_config.splitlines():
        words = line.split()
        lines.append(f"nb_rounds {nb_rounds}" if words[:1] == ["nb_rounds"] else line)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Trains and returns each iteration's summary."""
    args = parse(Args, argv)
    if os.environ.get("JGYM_QUICK"):
        # A smoke test of the command as written (the docs harness sets it).
        args.iterations = min(args.iterations, 2)
        args.train_batch_size = min(args.train_batch_size, 400)
        args.minibatch_size = min(args.minibatch_size, 200)
        args.num_epochs = 1
        args.nb_rounds = args.nb_rounds or 20
    import ray

    from jgym.rllib import ppo_config

    servers: list[jgym.LocalServer] = []
    if args.addresses:
        addresses = args.addresses.split(",")
    else:
        servers = [jgym.LocalServer() for _ in range(max(1, args.servers))]
        addresses = [s.address for s in servers]
    print(f"jgym servers: {', '.join(addresses)}")
    creds = credentials(args) if args.addresses else {}
    env_config: dict[str, Any] = {
        "config": short_config(args.game, args.nb_rounds, addresses[0], creds),
        **creds,
    }
    if args.ray_address:
        ray.init(address=args.ray_address)
    else:
        ray.init(num_cpus=max(2, args.num_env_runners), include_dashboard=False)
    summaries = []
    try:
        config = (
            ppo_config(
                args.game,
                num_env_runners=args.num_env_runners,
                num_envs_per_env_runner=args.num_envs_per_env_runner,
                addresses=addresses,
                env_config=env_config,
            )
            .training(
                train_batch_size_per_learner=args.train_batch_size,
                minibatch_size=args.minibatch_size,
                num_epochs=args.num_epochs,
                lr=args.lr,
            )
            .debugging(seed=args.seed)
        )
        algo = config.build_algo()
        start = time.monotonic()
        for it in range(1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            ret = runners.get("episode_return_mean", float("nan"))
            steps = runners.get("num_env_steps_sampled_lifetime", 0)
            legal = legal_fraction(algo, args.game, addresses[0], env_config)
            summary = {"iteration": it, "return": ret, "steps": steps, "legal": legal}
            summaries.append(summary)
            print(
                f"iteration {it}: {steps:.0f} env steps, mean return {ret:.1f}, legal moves "
                f"{summary['legal']:.0%}, {time.monotonic() - start:.0f} s",
                flush=True,
            )
        algo.stop()
    finally:
        ray.shutdown()
        for s in servers:
            s.close()
    return summaries


def legal_fraction(algo: Any, game: str, address: str, env_config: dict[str, Any]) -> float:
    """Plays a few rounds with the trained module; the fraction of its moves that were legal."""
    import torch
    from ray.rllib.core.columns import Columns

    module = algo.get_module()
    env = jgym.JgymEnv(game, address=address, **env_config)
    obs, _ = env.reset(seed=7)
    legal = total = 0
    for _ in range(5):
        batch = {Columns.OBS: {k: torch.as_tensor(v[None]) for k, v in obs.items()}}
        with torch.no_grad():
            logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        dist = module.get_exploration_action_dist_cls().from_logits(logits)
        action = dist.sample()[0].numpy()
        ok = obs["action_mask"][np.arange(len(action)), action].astype(bool)
        legal, total = legal + int(ok.sum()), total + len(action)
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()
    env.close()
    return legal / total


if __name__ == "__main__":
    main()
