"""Decoding a StepResult into numpy arrays (shared by the environments)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jgym.errors import InvalidArgumentError, ServerError
from jgym.tensors import observation_dtypes, to_numpy
from jgym.v1 import jgym_pb2 as pb

Array = np.ndarray[Any, Any]

DEFAULT_OPPONENTS = ("Demo", "Demo", "Demo")


@dataclass
class Batch:
    """One StepResult as arrays, batch-first ``[B, L, ...]`` (views of the wire bytes)."""

    env_ids: Array  # int32 [B]
    obs: dict[str, Array]  # each [B, L, ...]
    reward: Array  # float32 [B, L]
    terminated: Array  # bool [B]
    truncated: Array  # bool [B]
    scores: Array  # int32 [B, 4]
    rank: Array  # int32 [B, L]
    round: Array  # int32 [B]
    seat: Array  # int32 [B, L]
    episode: Array  # int32 [B]
    final_index: Array  # int32 [F]: batch positions of the final observations
    final_obs: dict[str, Array]  # each [F, L, ...]
    final_scores: Array  # int32 [F, 4]


class Decoder:
    """Turns StepResults of one session into :class:`Batch` es."""

    def __init__(self, game: pb.GameSpec, num_learners: int) -> None:
        self.dtypes = observation_dtypes(game)
        self.num_learners = num_learners

    def _obs(self, tensors: Mapping[str, pb.Tensor], what: str) -> dict[str, Array]:
        try:
            return {name: to_numpy(tensors[name], dt) for name, dt in self.dtypes.items()}
        except KeyError as e:
            raise ServerError(f"{what}: the server sent no {e} tensor") from None

    def decode(self, r: pb.StepResult) -> Batch:
        """Decodes one result."""
        b = len(r.env_ids)
        info = r.info
        has_final = len(r.final_env_index) > 0
        return Batch(
            env_ids=np.asarray(r.env_ids, dtype=np.int32),
            obs=self._obs(r.observation, "observation"),
            reward=_or(r, "reward", r.reward, np.zeros((b, self.num_learners), np.float32)),
            terminated=_or(r, "terminated", r.terminated, np.zeros(b, np.bool_)),
            truncated=_or(r, "truncated", r.truncated, np.zeros(b, np.bool_)),
            scores=_or(info, "scores", info.scores, np.zeros((b, 4), np.int32)),
            rank=_or(info, "rank", info.rank, np.zeros((b, self.num_learners), np.int32)),
            round=_or(info, "round", info.round, np.zeros(b, np.int32)),
            seat=_or(
                info,
                "learner_seats",
                info.learner_seats,
                np.zeros((b, self.num_learners), np.int32),
            ),
            episode=_or(info, "episode", info.episode, np.zeros(b, np.int32)),
            final_index=np.asarray(r.final_env_index, dtype=np.int32),
            final_obs=self._obs(r.final_observation, "final observation") if has_final else {},
            final_scores=_or(r, "final_scores", r.final_scores, np.zeros((0, 4), np.int32)),
        )


def _or(msg: Any, field: str, t: pb.Tensor, default: Array) -> Array:
    """Returns the tensor's array, or ``default`` when the server left it out."""
    if not msg.HasField(field):
        return default
    return to_numpy(t)


def make_seats(
    seats: Sequence[str | None] | None,
    opponents: Sequence[str] | None,
    learners: int | None = None,
) -> list[str]:
    """Returns the four seats: explicit ``seats``, else learners then opponents.

    Args:
        seats: Four entries, ``None``/``""`` for learners; wins over the
            other two.
        opponents: Bots for the last seats; the first ``4 - len(opponents)``
            seats are learners.
        learners: Number of learner seats; the others are ``Demo`` bots
            unless ``opponents`` names them. Default: 1 (or ``4 -
            len(opponents)``).

    Returns:
        Four strings, ``""`` for learner seats.

    Raises:
        InvalidArgumentError: ``learners`` and ``opponents`` disagree.

    Example:
        >>> make_seats(None, ("Demo", "Null"))
        ['', '', 'Demo', 'Null']
        >>> make_seats(None, None, learners=2)
        ['', '', 'Demo', 'Demo']
        >>> make_seats([None, "Demo", None, "Demo"], None)
        ['', 'Demo', '', 'Demo']
    """
    if seats is not None:
        return [s or "" for s in seats]
    if opponents is None:
        n = 1 if learners is None else learners
        if not 1 <= n <= 4:
            raise InvalidArgumentError(f"learners {n}: want 1..4")
        opps = [DEFAULT_OPPONENTS[0]] * (4 - n)
    else:
        opps = [opponents] if isinstance(opponents, str) else list(opponents)
        if learners is not None and learners + len(opps) != 4:
            raise InvalidArgumentError(
                f"learners {learners} and {len(opps)} opponents: want 4 seats in all"
            )
    return [""] * (4 - len(opps)) + opps
