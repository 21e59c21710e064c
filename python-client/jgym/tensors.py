"""Tensors on the wire and the Gymnasium spaces they fill.

A :class:`~jgym.v1.jgym_pb2.Tensor` is a shape, a dtype and raw little-endian
bytes. :func:`to_numpy` views those bytes as an array with
:func:`numpy.frombuffer`: no element is copied, and the array is read-only
(it shares the message's buffer). Spaces are built from the server's
:class:`~jgym.v1.jgym_pb2.GameSpec`, so they follow the session's
configuration (the number of unit slots depends on it).

Example:
    >>> import numpy as np
    >>> t = from_numpy(np.arange(6, dtype=np.int16).reshape(2, 3))
    >>> a = to_numpy(t)
    >>> a.dtype, a.shape, a.flags.writeable
    (dtype('int16'), (2, 3), False)
    >>> int(a[1, 2])
    5
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from gymnasium import spaces

from jgym.errors import InvalidArgumentError
from jgym.v1 import jgym_pb2 as pb

__all__ = [
    "DTYPES",
    "MaskedMultiDiscrete",
    "action_space",
    "flat_space",
    "flatten",
    "from_numpy",
    "observation_space",
    "sample_masked",
    "to_numpy",
]

#: Wire dtype -> numpy dtype (all little-endian).
DTYPES: dict[pb.Dtype, np.dtype[Any]] = {
    pb.DTYPE_UINT8: np.dtype("u1"),
    pb.DTYPE_INT8: np.dtype("i1"),
    pb.DTYPE_INT16: np.dtype("<i2"),
    pb.DTYPE_INT32: np.dtype("<i4"),
    pb.DTYPE_FLOAT32: np.dtype("<f4"),
    pb.DTYPE_BOOL: np.dtype("?"),
    pb.DTYPE_INT64: np.dtype("<i8"),
}
_WIRE: dict[np.dtype[Any], pb.Dtype] = {v: k for k, v in DTYPES.items()}

#: Observation tensors of dtype bool are shown as int8 0/1 (a MultiBinary
#: space): the same bytes, and the form masks take in Gymnasium's
#: ``MultiDiscrete.sample(mask=...)`` and in PettingZoo.
MASK_DTYPE = np.dtype("i1")


def to_numpy(t: pb.Tensor, dtype: np.dtype[Any] | None = None) -> np.ndarray[Any, Any]:
    """Views a wire tensor as a read-only numpy array, without copying.

    Args:
        t: The tensor.
        dtype: Read the bytes as this dtype instead (same element size),
            e.g. int8 for a bool mask.

    Returns:
        An array of ``t.shape`` sharing ``t.data``'s buffer.

    Raises:
        InvalidArgumentError: The tensor's size does not match its shape.
    """
    dt = dtype if dtype is not None else DTYPES.get(t.dtype)
    if dt is None:
        raise InvalidArgumentError(f"tensor has unknown dtype {t.dtype}")
    data = t.data
    shape = tuple(t.shape)
    n = math.prod(shape)
    if n * dt.itemsize != len(data):
        raise InvalidArgumentError(
            f"tensor of shape {list(shape)} and dtype {dt} has {len(data)} bytes, "
            f"want {n * dt.itemsize}"
        )
    return np.frombuffer(data, dtype=dt).reshape(shape)


def from_numpy(a: np.ndarray[Any, Any], dtype: np.dtype[Any] | type | None = None) -> pb.Tensor:
    """Packs an array into a wire tensor (one copy, into the message).

    Args:
        a: The array.
        dtype: Convert to this dtype first (e.g. ``np.int8`` for actions).

    Returns:
        The tensor.

    Raises:
        InvalidArgumentError: The dtype has no wire equivalent.
    """
    arr = np.ascontiguousarray(a, dtype=dtype)
    dt = arr.dtype.newbyteorder("<") if arr.dtype.byteorder == ">" else arr.dtype
    wire = _WIRE.get(np.dtype(dt))
    if wire is None:
        raise InvalidArgumentError(f"dtype {arr.dtype} cannot be sent")
    return pb.Tensor(dtype=wire, shape=arr.shape, data=arr.astype(dt, copy=False).tobytes())


def tensor_space(spec: pb.TensorSpec) -> spaces.Space[Any]:
    """Returns the Gymnasium space of one observation tensor.

    Bool tensors become :class:`~gymnasium.spaces.MultiBinary` (int8 0/1);
    the others :class:`~gymnasium.spaces.Box` of the wire dtype, bounded by
    the spec's low and high.

    Args:
        spec: The tensor's spec.

    Returns:
        The space.

    Example:
        >>> spec = pb.TensorSpec(name="board", dtype=pb.DTYPE_UINT8, shape=[3, 40, 80], high=127)
        >>> tensor_space(spec)
        Box(0, 127, (3, 40, 80), uint8)
    """
    shape = tuple(int(d) for d in spec.shape)
    if spec.dtype == pb.DTYPE_BOOL:
        return spaces.MultiBinary(list(shape))
    dt: Any = DTYPES[spec.dtype]
    return spaces.Box(low=spec.low, high=spec.high, shape=shape, dtype=dt)


def observation_space(game: pb.GameSpec) -> spaces.Dict:
    """Returns the observation space of one seat: a Dict of the game's tensors.

    Args:
        game: The game spec of a session.

    Returns:
        A :class:`~gymnasium.spaces.Dict` with one entry per tensor, in the
        spec's order (``board``, ``units``, ``globals``, ``action_mask`` for
        Crematoria).
    """
    return spaces.Dict({t.name: tensor_space(t) for t in game.observation})


def sample_masked(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """Draws one legal choice per row of a mask, uniformly, for a whole batch at once.

    Args:
        mask: ``[..., n]`` 0/1 (or bool): which of the n choices are legal.
        rng: The generator.

    Returns:
        ``mask.shape[:-1]`` int64 indices; rows with nothing legal get 0.

    Example:
        >>> mask = np.array([[0, 0, 1], [1, 0, 1]], dtype=np.int8)
        >>> a = sample_masked(mask, np.random.default_rng(0))
        >>> int(a[0]), int(a[1]) in (0, 2)
        (2, True)
    """
    keys = rng.random(mask.shape)
    keys[np.asarray(mask) == 0] = -1.0
    out: np.ndarray[Any, Any] = np.argmax(keys, axis=-1).astype(np.int64)
    return out


class MaskedMultiDiscrete(spaces.MultiDiscrete):
    """A MultiDiscrete whose ``sample`` also takes the observation's 2-D mask.

    Gymnasium's :meth:`~gymnasium.spaces.MultiDiscrete.sample` wants a tuple
    of per-slot masks; jgym's ``action_mask`` is one ``[U, n]`` array, which
    is what PettingZoo's checkers pass. Both forms are accepted.

    Example:
        >>> space = MaskedMultiDiscrete(np.full(3, 11), seed=0)
        >>> mask = np.zeros((3, 11), dtype=np.int8); mask[:, 10] = 1
        >>> space.sample(mask=mask).tolist()
        [10, 10, 10]
    """

    def sample(
        self,
        mask: Any = None,
        probability: Any = None,
    ) -> np.ndarray[Any, Any]:
        """Samples an action; ``mask`` may be a ``[U, n]`` array (see class doc)."""
        if (
            isinstance(mask, np.ndarray)
            and probability is None
            and self.nvec.ndim == 1
            and mask.shape == (len(self.nvec), int(self.nvec.max()))
            and bool(np.all(self.nvec == self.nvec[0]))
        ):
            out: np.ndarray[Any, Any] = sample_masked(mask, self.np_random) + self.start
            return out.astype(self.dtype)
        drawn: np.ndarray[Any, Any] = super().sample(mask=mask, probability=probability)
        return drawn


def action_space(game: pb.GameSpec, with_order: bool = False) -> spaces.Space[Any]:
    """Returns the action space of one seat.

    Args:
        game: The game spec of a session.
        with_order: Also take the order in which the commands are issued.

    Returns:
        ``MultiDiscrete([num_actions] * U)`` (a :class:`MaskedMultiDiscrete`).
        With ``with_order``, a Dict of that under ``"action"`` and a
        priority per slot under ``"order"``, ``MultiDiscrete([U] * U)``
        (ranks 0..U-1 express any order; commands are issued in increasing
        priority, ties by slot).
    """
    (u,) = (int(d) for d in game.action.shape)
    act = MaskedMultiDiscrete(np.full(u, game.num_actions, dtype=np.int64), dtype=np.int64)
    if not with_order:
        return act
    order = spaces.MultiDiscrete(np.full(u, u, dtype=np.int64), dtype=np.int64)
    return spaces.Dict({"action": act, "order": order})


def observation_dtypes(game: pb.GameSpec) -> dict[str, np.dtype[Any]]:
    """Returns the numpy dtype each observation tensor is read as."""
    return {
        t.name: MASK_DTYPE if t.dtype == pb.DTYPE_BOOL else DTYPES[t.dtype]
        for t in game.observation
    }


def flat_space(space: spaces.Dict) -> spaces.Box:
    """Returns the float32 Box of a Dict observation flattened by :func:`flatten`.

    The tensors follow one another in the Dict's (sorted) key order, each
    row-major: ``action_mask`` first, then ``board``, ``globals``, ...
    (Gymnasium's :func:`~gymnasium.spaces.utils.flatten_space` order).

    Example:
        >>> d = spaces.Dict(
        ...     {"b": spaces.Box(0, 9, (2,), np.uint8), "a": spaces.MultiBinary([1, 2])}
        ... )
        >>> flat_space(d)
        Box(0.0, [1. 1. 9. 9.], (4,), float32)
    """
    lows, highs = [], []
    for s in space.values():
        if isinstance(s, spaces.MultiBinary):
            n = math.prod(s.shape)
            lows.append(np.zeros(n))
            highs.append(np.ones(n))
        else:
            assert isinstance(s, spaces.Box)
            lows.append(np.asarray(s.low, np.float64).reshape(-1))
            highs.append(np.minimum(np.asarray(s.high, np.float64).reshape(-1), 3.0e38))
    low = np.concatenate(lows).astype(np.float32)
    high = np.concatenate(highs).astype(np.float32)
    return spaces.Box(low=low, high=high, dtype=np.float32)


def flatten(
    space: spaces.Dict, obs: dict[str, np.ndarray[Any, Any]], batch: int | None = None
) -> np.ndarray[Any, Any]:
    """Flattens one observation (or a batch of ``batch``) into float32 (:func:`flat_space`).

    Example:
        >>> d = spaces.Dict(
        ...     {"b": spaces.Box(0, 9, (2,), np.uint8), "a": spaces.MultiBinary([1, 2])}
        ... )
        >>> obs = {"a": np.array([[1, 0]], np.int8), "b": np.array([7, 8], np.uint8)}
        >>> flatten(d, obs).tolist()
        [1.0, 0.0, 7.0, 8.0]
    """
    if batch is None:
        return np.concatenate([np.asarray(obs[k], np.float32).reshape(-1) for k in space])
    parts = [np.asarray(obs[k], np.float32).reshape(batch, -1) for k in space]
    return np.concatenate(parts, axis=1)
