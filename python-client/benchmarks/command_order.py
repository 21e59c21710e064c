"""Does the order of a policy's commands matter? Crematoria, against Riddick.

In Crematoria command ``k`` of every player runs before command ``k + 1``
of any player (SPEC §8.3), and a unit killed earlier in the round loses
its own command. Riddick gives its Furyans' attacks first. This script
plays the same greedy policy (an examples/ppo.py or bc.py checkpoint)
against Riddick, Demo, Demo with two orders of the same moves, the env's
``command_order``:

- ``slot``: increasing unit id;
- ``attacks_first``: first the moves of my Furyans onto a cell that holds
  another player's Pioneer or Furyan at the start of the round, then the
  others, each group in slot order (the Go engine's order, which the
  policy bot and the C++ player of a model exported so follow).

It prints the wins and the mean score of each order over the same games
(``--games`` seeds from 1, every seat). benchmarks/RESULTS.md has the
figures.

    python benchmarks/command_order.py ../runs/recipe_crematoria/dagger1.pt --games 10
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import torch

import jgym
import jgym.torch as jt


def play(agent: jt.BoardNet, order: str, games: int) -> tuple[int, list[int]]:
    """Wins and scores of the policy over seeds 1..games from every seat."""
    wins, scores = 0, []
    for seat in range(4):
        seats: list[str | None] = ["Riddick", "Demo", "Demo"]
        seats.insert(seat, None)
        envs = jgym.make_vec(
            num_envs=games,
            seats=tuple(seats),
            autoreset_mode="Disabled",
            command_order=order,
            opponent_order=agent.opponent_order,
        )
        policy = jt.greedy(agent)
        try:
            obs, _ = envs.reset(seed=1)
            while True:
                obs, _, term, trunc, info = envs.step(policy(obs))
                if (term | trunc).all():
                    break
        finally:
            envs.close()
        sc = np.asarray(info["scores"])
        me, others = sc[:, seat], np.delete(sc, seat, axis=1)
        wins += int((me > others.max(1)).sum())
        scores += [int(x) for x in me]
    return wins, scores


def main(argv: list[str] | None = None) -> None:
    """Prints one line per order."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("checkpoint", help="a Crematoria checkpoint of examples/ppo.py or bc.py")
    p.add_argument("--games", type=int, default=10, help="seeds per seat (default: 10)")
    p.add_argument(
        "--orders", default="slot,attacks_first", help="orders to compare (default: both)"
    )
    args = p.parse_args(argv)
    if os.environ.get("JGYM_QUICK"):
        args.games = 1
    torch.set_num_threads(1)
    agent = jt.load_agent(args.checkpoint)
    for order in args.orders.split(","):
        wins, scores = play(agent, order, args.games)
        print(
            f"order {order:<8} {len(scores)} games against Riddick, Demo, Demo: "
            f"{wins} wins, mean score {np.mean(scores):.1f}"
        )


if __name__ == "__main__":
    main()
