"""Does the order of a policy's commands matter? Crematoria, against Riddick.

In Crematoria command ``k`` of every player runs before command ``k + 1``
of any player (SPEC §8.3), and a unit killed earlier in the round loses
its own command. Riddick gives its Furyans' attacks first; a policy
exported from ``train_ppo.py`` gives its commands in slot order. This
script plays the same greedy policy (a ``train_ppo.py`` or ``bc.py``
checkpoint) against Riddick, Demo, Demo with two orders of the same
moves, through the vector env's ``action_order``:

- ``slot``: increasing unit id (what the exported bot does);
- ``attacks``: first the moves of my Furyans onto a cell that holds
  another player's Pioneer or Furyan at the start of the round, then the
  others, each group in slot order.

It prints the wins and the mean score of each order over the same games
(``--games`` seeds from 1, every seat). benchmarks/RESULTS.md has the
figures.

    python benchmarks/command_order.py ../runs/recipe_crematoria/dagger1.pt --games 10
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np
import torch

import jgym

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from bc import load_ppo  # examples/ is not a package


def play(tp, agent, order: str, games: int) -> tuple[int, list[int]]:
    """Wins and scores of the policy over seeds 1..games from every seat."""
    wins, scores = 0, []
    for seat in range(4):
        seats: list[str | None] = ["Riddick", "Demo", "Demo"]
        seats.insert(seat, None)
        envs = jgym.make_vec(
            num_envs=games, seats=tuple(seats), action_order=True, autoreset_mode="Disabled"
        )
        try:
            obs, _ = envs.reset(seed=1)
            while True:
                with torch.inference_mode():
                    act = agent(*tp.to_torch(obs)).argmax(-1).numpy().astype(np.int8)
                units = np.asarray(obs["units"])
                mode = "attacks_first" if order == "attacks" else "slot"
                prio = tp.command_priorities("Crematoria-v0", mode, units, act)
                obs, _, term, trunc, info = envs.step({"action": act, "order": prio})
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
    p.add_argument("checkpoint", help="a Crematoria checkpoint of train_ppo.py or bc.py")
    p.add_argument("--games", type=int, default=10, help="seeds per seat (default: 10)")
    p.add_argument("--orders", default="slot,attacks", help="orders to compare (default: both)")
    args = p.parse_args(argv)
    if os.environ.get("JGYM_QUICK"):
        args.games = 1
    torch.set_num_threads(1)
    tp = load_ppo()
    agent = tp.load_agent(args.checkpoint, num_slots=80)
    for order in args.orders.split(","):
        wins, scores = play(tp, agent, order, args.games)
        print(
            f"order {order:<8} {len(scores)} games against Riddick, Demo, Demo: "
            f"{wins} wins, mean score {np.mean(scores):.1f}"
        )


if __name__ == "__main__":
    main()
