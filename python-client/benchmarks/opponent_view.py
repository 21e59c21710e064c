"""Does it matter where the strong opponent sits? Crematoria, by its relative seat.

The observation labels the opponents by seat relative to the learner (1 =
the next seat, 2 = the one across, 3), and a network's weights are not
symmetric in those labels. This script exports the same weights (a
examples/ppo.py checkpoint) twice, with the opponents by seat and by score
(``opponent_order``, docs/observation.md), plays each with ``jgym eval``'s
engine against the same games, and prints the wins overall and by the
relative seat of the strong opponent (the first of ``--opponents``).
benchmarks/RESULTS.md has the figures.

    python benchmarks/opponent_view.py ../runs/recipe_crematoria/ppo/checkpoint.pt --games 8
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

import jgym
import jgym.torch as jt


def main() -> None:
    """Exports the checkpoint with each view and prints both views' wins by relative seat."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoint", help="an examples/ppo.py checkpoint.pt (Crematoria)")
    p.add_argument("--games", type=int, default=400, help="games per view, a multiple of 4")
    p.add_argument("--seed0", type=int, default=5001, help="seed of the first game")
    p.add_argument("--opponents", default="Riddick,Demo,Demo", help="the first is the strong one")
    p.add_argument("--views", default="seat,score", help="opponent orders to play, comma-separated")
    a = p.parse_args()
    opponents = tuple(a.opponents.split(","))
    print(f"{a.checkpoint} vs {', '.join(opponents)}: {a.games} games from seed {a.seed0}")
    print(f"{'view':6} {'wins':>5} {'win rate':>9}   wins by the relative seat of {opponents[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        for view in a.views.split(","):
            agent = jt.load_agent(a.checkpoint)
            agent.opponent_order = view
            path = Path(tmp) / f"{view}.onnx"
            jt.export_onnx(agent, path)
            r = jgym.evaluate(
                f"policy:{path}", opponents=opponents, n_games=a.games, seed0=a.seed0,
                verbose=False,
            )  # fmt: skip
            idx = np.arange(r.n_games)
            own = r.scores[idx, r.seats]
            rival = r.scores.copy()
            rival[idx, r.seats] = np.iinfo(rival.dtype).min
            win = own > rival.max(1)
            # the opponents fill the other seats in order: the strong one
            # sits at seat 0, or at 1 when the policy has seat 0
            strong = np.where(r.seats == 0, 1, 0)
            rel = (strong - r.seats) % 4
            by = "  ".join(f"rel {k}: {win[rel == k].sum()}/{(rel == k).sum()}" for k in (1, 2, 3))
            print(f"{view:6} {win.sum():5d} {win.mean():9.1%}   {by}")


if __name__ == "__main__":
    main()
