"""Decoding a StepResult into numpy arrays (shared by the environments)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jgym.errors import InvalidActionError, InvalidArgumentError, ServerError
from jgym.tensors import observation_dtypes, to_numpy
from jgym.v1 import jgym_pb2 as pb

Array = np.ndarray[Any, Any]

DEFAULT_OPPONENTS = ("Demo", "Demo", "Demo")

#: Game seeds are the course's 0..2^31-1 (the kit's ``-s``).
MAX_SEED = 2**31 - 1

_INT16 = np.iinfo(np.int16)

#: The bytes 0..k-1, for each k: the legal directions of k actions.
_LEGAL_BYTES = [bytes(range(k)) for k in range(129)]


def _integers(a: Any, shape: tuple[int, ...], what: str) -> Array:
    """``a`` as an integer array of ``shape``, or an :class:`InvalidActionError`."""
    if isinstance(a, dict):
        raise InvalidActionError(f"{what}: got a dict, want an array of shape {shape}")
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError) as e:  # ragged lists
        raise InvalidActionError(f"{what}: not an array of shape {shape}: {e}") from None
    if arr.shape != shape:
        raise InvalidActionError(f"{what}: got shape {arr.shape}, want {shape}")
    if arr.dtype.kind not in "iu":
        raise InvalidActionError(
            f"{what}: got dtype {arr.dtype}, want integers (bools, floats and NaN are refused)"
        )
    return arr


def _first_bad(arr: Array, bad: Array, what: str, want: str) -> InvalidActionError:
    idx = tuple(int(i) for i in np.argwhere(bad)[0])
    where = idx[0] if len(idx) == 1 else idx
    n = int(bad.sum())
    more = f" ({n - 1} more)" if n > 1 else ""
    return InvalidActionError(f"{what}: value {arr[idx]} at index {where}{more}, want {want}")


def check_actions(a: Any, shape: tuple[int, ...], num_actions: int, what: str = "action") -> Array:
    """Checks actions and returns them as int8, the wire's dtype.

    The range is checked on the values given, before any conversion (an
    int64 258 is refused, not played as 2).

    Args:
        a: The actions (array-like of integers).
        shape: The shape they must have.
        num_actions: Directions are ``0..num_actions-1``.
        what: Names the actions in the error.

    Returns:
        An int8 array of ``shape``.

    Raises:
        InvalidActionError: Wrong shape, not integers, or out of range.

    Example:
        >>> check_actions([1, 10], (2,), 11).dtype
        dtype('int8')
        >>> check_actions([1, 258], (2,), 11)
        Traceback (most recent call last):
        ...
        jgym.errors.InvalidActionError: action: value 258 at index 1, want 0..10
    """
    arr = _integers(a, shape, what)
    # Bytes: deleting the legal values 0..num_actions-1 leaves nothing (a
    # negative int8 is a byte of 128 or more), at C speed; numpy's
    # reductions cost microseconds on small arrays.
    if (
        arr.dtype.itemsize == 1
        and 0 < num_actions <= 128
        and not arr.tobytes().translate(None, _LEGAL_BYTES[num_actions])
    ):
        return arr.view(np.int8)
    bad = (arr < 0) | (arr >= num_actions)
    if bad.any():
        raise _first_bad(arr, bad, what, f"0..{num_actions - 1}")
    return arr.astype(np.int8, copy=False)


def check_order(a: Any, shape: tuple[int, ...], what: str = "order") -> Array:
    """Checks command priorities and returns them as int16, the wire's dtype.

    Raises:
        InvalidActionError: Wrong shape, not integers, or outside int16.

    Example:
        >>> check_order([0, 70000], (2,))
        Traceback (most recent call last):
        ...
        jgym.errors.InvalidActionError: order: value 70000 at index 1, want -32768..32767
    """
    arr = _integers(a, shape, what)
    bad = (arr < _INT16.min) | (arr > _INT16.max)
    if bad.any():
        raise _first_bad(arr, bad, what, f"{_INT16.min}..{_INT16.max}")
    return arr.astype(np.int16, copy=False)


def split_action(
    action: Any, shape: tuple[int, ...], num_actions: int, with_order: bool, what: str
) -> tuple[Array, Array | None]:
    """Checks an action (a dict of ``action`` and ``order`` with ``with_order``).

    The one check of the single, vector and PettingZoo environments.

    Returns:
        The directions as int8 and the priorities as int16 (or ``None``).

    Raises:
        InvalidActionError: See :func:`check_actions` and :func:`check_order`.
    """
    if not with_order:
        return check_actions(action, shape, num_actions, what), None
    if not isinstance(action, dict) or "action" not in action or "order" not in action:
        raise InvalidActionError(
            f"{what}: want a dict of 'action' and 'order' (action_order=True), "
            f"got {type(action).__name__}"
        )
    return (
        check_actions(action["action"], shape, num_actions, f"{what}['action']"),
        check_order(action["order"], shape, f"{what}['order']"),
    )


def check_seed(seed: Any, what: str = "seed") -> int | None:
    """Checks a game seed: ``None`` or an integer 0..2^31-1.

    Raises:
        InvalidArgumentError: Not an integer, or out of range.

    Example:
        >>> check_seed(7), check_seed(None)
        (7, None)
        >>> check_seed(2**63)
        Traceback (most recent call last):
        ...
        jgym.errors.InvalidArgumentError: seed 9223372036854775808: want 0..2147483647
    """
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise InvalidArgumentError(f"{what} {seed!r}: want an int 0..{MAX_SEED} or None")
    if not 0 <= int(seed) <= MAX_SEED:
        raise InvalidArgumentError(f"{what} {int(seed)}: want 0..{MAX_SEED}")
    return int(seed)


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
    unit_rewards: Array | None = None  # float32 [B, L, U], with unit_rewards


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
            unit_rewards=to_numpy(r.unit_rewards) if r.HasField("unit_rewards") else None,
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
