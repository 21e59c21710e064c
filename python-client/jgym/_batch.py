"""Decoding a StepResult into numpy arrays (shared by the environments)."""

from __future__ import annotations

import math
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
    """Turns StepResults of one session into :class:`Batch` es.

    With a session that has ``observation_delta``, observations arrive as
    ``TENSOR_ENCODING_WORD_DELTA``: per env, a bitmap of the 8-byte words
    that changed since that env's last observation on the stream, then the
    changed words. The decoder keeps each env's last observation (its
    reference, zero when a new stream starts) and rebuilds the arrays.
    """

    def __init__(self, game: pb.GameSpec, num_learners: int, session: Any = None) -> None:
        self.dtypes = observation_dtypes(game)
        self.num_learners = num_learners
        self._session = session
        self._epoch = -1
        self._refs: dict[str, Array] = {}
        if session is not None and session.observation_delta:
            for t in game.observation:
                per = num_learners * math.prod(t.shape) * self.dtypes[t.name].itemsize
                if per % 8 == 0:
                    self._refs[t.name] = np.zeros((session.num_envs, per // 8), np.uint64)

    def _obs(
        self, tensors: Mapping[str, pb.Tensor], what: str, env_ids: Array | None = None
    ) -> dict[str, Array]:
        out = {}
        for name, dt in self.dtypes.items():
            if name not in tensors:
                raise ServerError(f"{what}: the server sent no {name!r} tensor")
            t = tensors[name]
            if t.encoding == pb.TENSOR_ENCODING_WORD_DELTA and env_ids is not None:
                out[name] = self._apply_delta(name, t, dt, env_ids)
            elif t.encoding != pb.TENSOR_ENCODING_UNSPECIFIED:
                raise ServerError(f"{what}: {name!r} has encoding {t.encoding}, not expected here")
            else:
                out[name] = to_numpy(t, dt)
        return out

    def _apply_delta(self, name: str, t: pb.Tensor, dt: np.dtype[Any], env_ids: Array) -> Array:
        """Rebuilds a delta-encoded observation tensor and updates the references."""
        if self._session is not None and self._session.stream_epoch != self._epoch:
            for r in self._refs.values():
                r.fill(0)  # a new stream starts from zeros, as the server does
            self._epoch = self._session.stream_epoch
        ref = self._refs.get(name)
        if ref is None:
            raise ServerError(f"{name!r} is delta-encoded but the session did not ask for it")
        b, w = len(env_ids), ref.shape[1]
        nb = (w + 7) // 8
        data = t.data
        if len(data) < b * nb:
            raise ServerError(f"{name!r}: {len(data)} bytes, less than {b} bitmaps of {nb}")
        bitmaps = np.frombuffer(data, np.uint8, count=b * nb).reshape(b, nb)
        changed = np.unpackbits(bitmaps, axis=1, count=w, bitorder="little").view(np.bool_)
        extra = len(data) - b * nb
        if extra % 8 == 0:
            words = np.frombuffer(data, np.uint64, offset=b * nb)
        if extra % 8 or len(words) != int(changed.sum()):
            raise ServerError(f"{name!r}: the bitmaps and the {extra} word bytes disagree")
        rows = ref[env_ids]  # a copy: the returned array is the caller's
        rows[changed] = words
        ref[env_ids] = rows
        return rows.view(dt).reshape(tuple(t.shape))

    def decode(self, r: pb.StepResult) -> Batch:
        """Decodes one result."""
        b = len(r.env_ids)
        info = r.info
        has_final = len(r.final_env_index) > 0
        return Batch(
            env_ids=np.asarray(r.env_ids, dtype=np.int32),
            obs=self._obs(r.observation, "observation", np.asarray(r.env_ids, dtype=np.intp)),
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
