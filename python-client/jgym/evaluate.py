"""Measuring a policy or a bot: win rate, score and rank with confidence intervals.

:func:`evaluate` plays ``n_games`` games against fixed opponents, each map
(seed) from all four seats: seeds ``seed0 .. seed0 + n_games/4 - 1``, and
for each seed one game with the measured player in seat 0, 1, 2 and 3 (the
opponents fill the other seats in the order given). The same seeds and
seats are used whatever is measured, so two players can be compared game by
game.

What it measures is either

- a **policy**: a callable that maps a batch of observations (the dict of
  :class:`~jgym.vector.JgymVectorEnv`, ``[N, ...]`` arrays) to actions
  ``[N, U]``; it plays through the vector environment, one learner seat per
  game; or
- a **bot**, by name: a registered bot (``"Demo"``, ``"Riddick"``), a
  ``"policy:PATH"`` or ``"cpp:PATH"`` seat, or simply the path of an
  ``.onnx`` file (read as ``policy:PATH``). It plays in the Go engine: one
  ``jgym match`` per game, several at a time, no Python in the loop.

A game is **won** when the measured player's score is strictly above every
opponent's; ties for the top are counted apart. The rank is 1 + the number
of opponents with a strictly higher score (as the environment's ``rank``
info). Intervals are 95%: Wilson's for the win rate, the normal
approximation for the means.

Example:
    >>> r = evaluate("Demo", n_games=8, verbose=False)  # doctest: +SKIP
    >>> 0.0 <= r.win_rate <= 1.0  # doctest: +SKIP
    True
"""

from __future__ import annotations

import math
import os
import re
import subprocess
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from jgym.errors import InvalidArgumentError, JgymError
from jgym.server import find_binary

__all__ = ["EvalResult", "evaluate", "schedule"]

Policy = Callable[[dict[str, np.ndarray]], Any]

_SCORE_RE = re.compile(r"^info: player (\S+) got score (\d+)$")


def schedule(n_games: int, seed0: int = 0) -> list[tuple[int, int]]:
    """Returns the ``(seed, seat)`` of each game of an evaluation.

    Args:
        n_games: Number of games, a multiple of 4.
        seed0: First seed.

    Returns:
        Seat-major pairs: every seed of ``seed0 .. seed0 + n_games/4 - 1``
        with seat 0, then every seed with seat 1, and so on.

    Example:
        >>> schedule(8, seed0=10)
        [(10, 0), (11, 0), (10, 1), (11, 1), (10, 2), (11, 2), (10, 3), (11, 3)]
    """
    if n_games < 4 or n_games % 4:
        raise InvalidArgumentError(f"n_games {n_games}: want a positive multiple of 4")
    m = n_games // 4
    return [(seed0 + j, seat) for seat in range(4) for j in range(m)]


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def _half_width(x: np.ndarray, z: float = 1.96) -> float:
    if len(x) < 2:
        return float("nan")
    return float(z * x.std(ddof=1) / math.sqrt(len(x)))


@dataclass
class EvalResult:
    """The outcome of :func:`evaluate`.

    Attributes:
        player: What was measured (a bot name, or ``"policy"``).
        opponents: The three opponents.
        seeds: Seed of each game.
        seats: Seat of the measured player in each game.
        scores: Final scores ``[n_games, 4]`` in seat order.
    """

    player: str
    opponents: tuple[str, ...]
    seeds: np.ndarray
    seats: np.ndarray
    scores: np.ndarray
    elapsed: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def n_games(self) -> int:
        """Number of games played."""
        return len(self.seeds)

    @property
    def own(self) -> np.ndarray:
        """The measured player's score in each game."""
        return self.scores[np.arange(self.n_games), self.seats]

    @property
    def best_opponent(self) -> np.ndarray:
        """The best opponent score in each game."""
        s = self.scores.astype(np.int64).copy()
        s[np.arange(self.n_games), self.seats] = -1
        return s.max(axis=1)

    @property
    def wins(self) -> int:
        """Games with a score strictly above every opponent's."""
        return int((self.own > self.best_opponent).sum())

    @property
    def ties(self) -> int:
        """Games tied for the top score."""
        return int((self.own == self.best_opponent).sum())

    @property
    def win_rate(self) -> float:
        """Fraction of games won."""
        return self.wins / self.n_games

    @property
    def win_ci(self) -> tuple[float, float]:
        """Wilson 95% interval of the win rate."""
        return _wilson(self.wins, self.n_games)

    @property
    def ranks(self) -> np.ndarray:
        """Rank of each game: 1 + opponents with a strictly higher score."""
        return 1 + (self.scores > self.own[:, None]).sum(axis=1)

    @property
    def mean_score(self) -> float:
        """Mean score of the measured player."""
        return float(self.own.mean())

    @property
    def mean_rank(self) -> float:
        """Mean rank (1 best .. 4)."""
        return float(self.ranks.mean())

    def summary(self) -> dict[str, Any]:
        """The figures as a plain dict (for logs and JSON)."""
        lo, hi = self.win_ci
        others = np.delete(self.scores, self.seats + 4 * np.arange(self.n_games)).astype(float)
        return {
            "player": self.player,
            "opponents": list(self.opponents),
            "games": self.n_games,
            "wins": self.wins,
            "ties": self.ties,
            "win_rate": self.win_rate,
            "win_ci95": [lo, hi],
            "mean_score": self.mean_score,
            "score_ci95": _half_width(self.own.astype(float)),
            "mean_rank": self.mean_rank,
            "rank_ci95": _half_width(self.ranks.astype(float)),
            "mean_opponent_score": float(others.mean()),
            "seconds": self.elapsed,
        }

    def __str__(self) -> str:
        s = self.summary()
        lo, hi = s["win_ci95"]
        return (
            f"{self.player} vs {'/'.join(self.opponents)}: {s['games']} games, "
            f"win rate {100 * s['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
            f"({s['wins']} wins, {s['ties']} ties), "
            f"mean score {s['mean_score']:.1f} ± {s['score_ci95']:.1f}, "
            f"mean rank {s['mean_rank']:.2f} ± {s['rank_ci95']:.2f} "
            f"(opponents' mean score {s['mean_opponent_score']:.1f})"
        )


def evaluate(
    policy_or_bot: Policy | str | os.PathLike[str],
    opponents: Sequence[str] = ("Demo", "Demo", "Demo"),
    n_games: int = 200,
    seed0: int = 0,
    *,
    game: str = "Crematoria-v0",
    config: str = "",
    address: str | None = None,
    workers: int | None = None,
    verbose: bool = True,
) -> EvalResult:
    """Plays ``n_games`` games and measures win rate, score and rank.

    Args:
        policy_or_bot: A policy (callable, observations -> actions
            ``[N, U]``; a callable whose ``action_order`` attribute is true
            returns ``{"action", "order"}`` for envs made with
            ``action_order=True``; its ``env_options`` attribute, a dict,
            gives more options of its envs, e.g. the ``command_order`` and
            ``opponent_order`` it was trained with), or a bot: a registered name,
            ``"policy:PATH"``, ``"cpp:PATH"``, or the path of an ``.onnx``
            policy.
        opponents: The three opponents (bot names or ``prefix:PATH``).
        game: The game's environment id (``jgym.GAMES``); bots play it with
            ``jgym match --game`` and its name without the version.
        n_games: Number of games, a multiple of 4 (each seed from the four
            seats, see :func:`schedule`).
        seed0: First seed. Training examples use seeds from 1,000,000 on,
            so small seeds are games a policy has not trained on.
        config: Configuration text (policies only; bots use the default).
        address: Server for a policy (default: a local one).
        workers: Games played at once for a bot (default: the CPU count).
        verbose: Print the summary line.

    Returns:
        The :class:`EvalResult`.

    Raises:
        InvalidArgumentError: Bad arguments.
        JgymError: A game could not be played (the engine's message).
    """
    import time  # noqa: PLC0415

    opponents = tuple(opponents)
    if len(opponents) != 3:
        raise InvalidArgumentError(f"opponents {opponents}: want 3")
    games = schedule(n_games, seed0)
    t0 = time.perf_counter()
    if callable(policy_or_bot):
        name = getattr(policy_or_bot, "__name__", "policy")
        scores = _play_policy(policy_or_bot, opponents, games, config, address, game=game)
    else:
        name = str(policy_or_bot)
        if ":" not in name and name.endswith(".onnx"):
            name = "policy:" + name
        if config:
            raise InvalidArgumentError("config: only for policies (bots play the default)")
        scores = _play_bots(name, opponents, games, workers, game=game)
    r = EvalResult(
        player=name,
        opponents=opponents,
        seeds=np.array([s for s, _ in games]),
        seats=np.array([p for _, p in games]),
        scores=scores,
        elapsed=time.perf_counter() - t0,
    )
    if verbose:
        print(r)
    return r


def _seats(player: str | None, opponents: tuple[str, ...], seat: int) -> list[str | None]:
    seats: list[str | None] = list(opponents)
    seats.insert(seat, player)
    return seats


def _play_policy(
    policy: Policy,
    opponents: tuple[str, ...],
    games: list[tuple[int, int]],
    config: str,
    address: str | None,
    *,
    game: str,
) -> np.ndarray:
    from jgym.vector import make_vec  # noqa: PLC0415 (avoids an import cycle)

    scores = np.zeros((len(games), 4), dtype=np.int64)
    m = len(games) // 4
    seed0 = games[0][0]
    ordered = bool(getattr(policy, "action_order", False))
    options = dict(getattr(policy, "env_options", None) or {})
    for seat in range(4):
        envs = make_vec(
            game,
            num_envs=m,
            seats=_seats(None, opponents, seat),
            config=config,
            address=address,
            autoreset_mode="Disabled",
            action_order=ordered,
            **options,
        )
        try:
            obs, _ = envs.reset(seed=seed0)
            while True:
                act = policy(obs)
                obs, _, terminated, _, info = envs.step(act if ordered else np.asarray(act))
                if terminated.all():
                    break
                if terminated.any():
                    raise JgymError("games of one evaluation ended at different rounds")
            scores[seat * m : (seat + 1) * m] = info["scores"]
        finally:
            envs.close()
    return scores


def _play_bots(
    player: str,
    opponents: tuple[str, ...],
    games: list[tuple[int, int]],
    workers: int | None,
    *,
    game: str,
) -> np.ndarray:
    binary = find_binary()
    for name in (player, *opponents):
        if name.startswith("policy:") and not Path(name[len("policy:") :]).is_file():
            raise InvalidArgumentError(f"{name}: no such file")

    game_name = game.split("-v", maxsplit=1)[0]

    def play(one: tuple[int, int]) -> list[int]:
        seed, seat = one
        seats = [str(s) for s in _seats(player, opponents, seat)]
        cmd = [str(binary), "match", "--game", game_name, *seats]
        cmd += ["-s", str(seed), "-o", os.devnull]
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
        found = [int(m.group(2)) for m in map(_SCORE_RE.match, p.stderr.splitlines()) if m]
        if p.returncode != 0 or len(found) != 4:
            raise JgymError(
                f"jgym match {' '.join(seats)} -s {seed} failed ({p.returncode}): "
                f"{p.stderr.strip()[-500:]}"
            )
        return found

    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as ex:
        return np.array(list(ex.map(play, games)), dtype=np.int64)
