"""A training run's record: its games, evaluations, updates and ratings, and its plot.

:class:`History` is what ``history.json`` holds in a run's directory; a
resumed run reads it back and goes on. :meth:`History.plot` draws the
learning curve (``learning_curve.png``): the final scores of the training
games against environment steps, the evaluations' win rates and, with a
league, the TrueSkill ratings.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jgym.torch.rollout import Final

__all__ = ["History"]


@dataclass
class History:
    """A training run's record (``history.json``).

    Attributes:
        games: One dict per finished training game: step, set, score,
            best_opponent, win.
        evals: One dict per evaluation: step, time and
            :meth:`jgym.EvalResult.summary`.
        updates: One dict per update: step, time, losses, learning rate...
        ratings: One dict per league rating: step, ratings.
        summary: The run's summary, at its end.
    """

    games: list[dict[str, Any]] = field(default_factory=list)
    evals: list[dict[str, Any]] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)

    def add_games(self, step: int, finals: list[Final]) -> None:
        """Records the training games that ended at ``step``."""
        for f in finals:
            self.games.append(
                {"step": step, "set": f.set, "score": f.score,
                 "best_opponent": f.best_opponent, "win": f.win}
            )  # fmt: skip

    def recent(self, n: int = 64) -> tuple[float, float]:
        """The mean score and win rate of the last ``n`` training games (NaN: none)."""
        last = self.games[-n:]
        if not last:
            return float("nan"), float("nan")
        return (
            float(np.mean([g["score"] for g in last])),
            float(np.mean([g["win"] for g in last])),
        )

    def save(self, path: str | Path) -> None:
        """Writes it as JSON."""
        Path(path).write_text(json.dumps(asdict(self), indent=1, default=float))

    @classmethod
    def load(cls, path: str | Path) -> History:
        """Reads :meth:`save`'s file (an empty history where there is none); drops the summary."""
        p = Path(path)
        if not p.is_file():
            return cls()
        d = json.loads(p.read_text())
        return cls(**{k: d.get(k, []) for k in ("games", "evals", "updates", "ratings")})

    def plot(self, path: str | Path) -> None:
        """Draws the learning curve into a PNG file."""
        import matplotlib  # noqa: PLC0415 (the train extra)

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415

        rated = self.ratings
        fig, axes = plt.subplots(1, 3 if rated else 2, figsize=(16 if rated else 11, 4))
        ax1, ax2 = axes[0], axes[1]
        if self.games:
            steps = np.array([x["step"] for x in self.games])
            own = np.array([x["score"] for x in self.games], dtype=float)
            opp = np.array([x["best_opponent"] for x in self.games], dtype=float)
            # The games of all envs end together (fixed-length games): average
            # the games that ended at the same step, then smooth over steps.
            at, idx = np.unique(steps, return_inverse=True)
            count = np.bincount(idx)
            k = max(1, len(at) // 25)
            ones = np.ones(k) / k
            ax1.plot(steps, own, ".", alpha=0.2, label="learner (per game)")
            for ys, label in ((own, "learner (mean)"), (opp, "best opponent (mean)")):
                mean = np.bincount(idx, ys) / count
                ax1.plot(at[k - 1 :], np.convolve(mean, ones, mode="valid"), label=label)
        ax1.set(xlabel="environment steps", ylabel="final score", title="training games")
        ax1.legend()
        if self.evals:
            e = self.evals
            err = np.array(
                [[x["win_rate"] - x["win_ci95"][0] for x in e],
                 [x["win_ci95"][1] - x["win_rate"] for x in e]]
            )  # fmt: skip
            ax2.errorbar([x["step"] for x in e], [x["win_rate"] for x in e], yerr=err,
                         marker="o", capsize=3)  # fmt: skip
        ax2.set(ylim=(0, 1.02), xlabel="environment steps", ylabel="win rate (greedy, 95% CI)",
                title="evaluation")  # fmt: skip
        if rated:
            ax3 = axes[2]
            names = sorted(
                {k for r in rated for k in r["ratings"]}, key=lambda k: (k != "learner", k)
            )
            for name in names:
                pts = [(r["step"], r["ratings"][name]) for r in rated if name in r["ratings"]]
                kw: dict[str, Any] = {"linewidth": 2.5} if name == "learner" else {"alpha": 0.6}
                ax3.errorbar([p for p, _ in pts], [x["mu"] for _, x in pts],
                             yerr=[2 * x["sigma"] for _, x in pts], marker="o", capsize=2,
                             label=name, **kw)  # fmt: skip
            ax3.set(xlabel="environment steps", ylabel="TrueSkill mu (+- 2 sigma)",
                    title="league ratings (jgym tournament)")  # fmt: skip
            ax3.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
