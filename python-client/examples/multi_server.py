"""Spread one vector of Crematoria games over several jgym servers.

Each server hosts a share of the games (game ``g`` keeps seed ``seed + g``
wherever it runs); a step sends every server its actions before waiting
for any answer, so the servers work at the same time.

    scripts/replicas.sh up 3      # or: docker compose -f deploy/compose.yaml up -d
    eval "$(scripts/replicas.sh env)"   # the token and the CA: $JGYM_TOKEN, $JGYM_TLS_CA
    python examples/multi_server.py --addresses 127.0.0.1:50051,127.0.0.1:50052,127.0.0.1:50053
    scripts/replicas.sh down

The servers' token and TLS CA come from ``--token`` and ``--tls-ca``, else
from ``$JGYM_TOKEN`` and ``$JGYM_TLS_CA``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import jgym


def main(argv: list[str] | None = None) -> None:
    """Plays random legal moves on games spread over the given servers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addresses", required=True, help="comma-separated host:port list")
    parser.add_argument("--num-envs", type=int, default=96, help="games in all")
    parser.add_argument("--steps", type=int, default=50, help="vector steps to play")
    parser.add_argument("--seed", type=int, default=1, help="game g uses seed + g")
    parser.add_argument("--token", default=None, help="the servers' token (default: $JGYM_TOKEN)")
    parser.add_argument(
        "--tls-ca", default=None, help="PEM file of the servers' CA (default: $JGYM_TLS_CA)"
    )
    args = parser.parse_args(argv)
    addresses = [a.strip() for a in args.addresses.split(",") if a.strip()]
    envs = jgym.make_vec(
        "Crematoria-v0",
        num_envs=args.num_envs,
        addresses=addresses,
        token=args.token,
        tls=args.tls_ca,
    )
    rng = np.random.default_rng(args.seed)
    try:
        obs, _ = envs.reset(seed=args.seed)
        start = time.perf_counter()
        total = np.zeros(envs.num_envs)
        for _ in range(args.steps):
            obs, reward, _, _, _ = envs.step(jgym.sample_masked(obs["action_mask"], rng))
            total += reward
        elapsed = time.perf_counter() - start
        shares = envs.games_per_server
    finally:
        envs.close()
    for addr, n in shares:
        print(f"{addr}: {n} games")
    print(
        f"{args.steps * args.num_envs / elapsed:,.0f} env-steps/s over {len(addresses)} servers; "
        f"mean return after {args.steps} rounds: {total.mean():.1f}"
    )


if __name__ == "__main__":
    main()
