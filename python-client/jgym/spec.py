"""A game's spaces as the server describes them: what a network is built from.

The server's ``GameSpec`` (``ListGames``, ``CreateSession``) says, beside
each observation tensor's name, dtype and shape, how to read it: the kind of
each board plane (categorical codes, flag bits or a scaled quantity), the
name and scale of each column of the per-unit and global tensors, which
``units`` columns hold a unit's cell, whether the board's columns wrap,
which mask a policy samples from and which opt-in tensors a session may add
by name (``tensors=``). :func:`describe` turns that answer into plain
dataclasses, so that training code needs no table of its own per game.

Example:
    >>> from jgym.v1 import jgym_pb2 as pb
    >>> g = pb.GameSpec(id="X-v0", observation_version="x-obs-1", num_actions=5,
    ...     unit_row=1, unit_col=2, policy_mask="action_mask")
    >>> t = g.observation.add(name="board", dtype=pb.DTYPE_UINT8, shape=[2, 3, 4])
    >>> _ = t.planes.add(name="terrain", kind=pb.PLANE_KIND_CODE, count=4, scale=1)
    >>> _ = t.planes.add(name="health", kind=pb.PLANE_KIND_SCALAR, count=1, scale=0.01)
    >>> d = describe(g)
    >>> [str(p) for p in d.tensor("board").planes]
    ['terrain: codes 0..3', 'health: scalar x 0.01']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jgym.tensors import DTYPES
from jgym.v1 import jgym_pb2 as pb

__all__ = ["Column", "GameInfo", "Plane", "TensorInfo", "describe"]

_KINDS = {pb.PLANE_KIND_CODE: "code", pb.PLANE_KIND_BITS: "bits", pb.PLANE_KIND_SCALAR: "scalar"}


@dataclass(frozen=True)
class Plane:
    """How to read one board plane (one value per cell).

    Attributes:
        name: What it holds.
        kind: ``code`` (categorical codes ``0..count-1``), ``bits``
            (``count`` flag bits) or ``scalar`` (value times ``scale``).
        count: The number of codes or bits; 1 for a scalar.
        scale: The factor that brings a scalar near [0, 1].
    """

    name: str
    kind: str
    count: int = 1
    scale: float = 1.0

    def __str__(self) -> str:
        if self.kind == "code":
            return f"{self.name}: codes 0..{self.count - 1}"
        if self.kind == "bits":
            return f"{self.name}: {self.count} flag bits"
        return f"{self.name}: scalar x {self.scale:g}"


@dataclass(frozen=True)
class Column:
    """One column of a per-unit or vector tensor: its name and scale."""

    name: str
    scale: float = 1.0


@dataclass(frozen=True)
class TensorInfo:
    """One observation tensor of one seat."""

    name: str
    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    description: str = ""
    planes: tuple[Plane, ...] = ()
    columns: tuple[Column, ...] = ()

    def column(self, name: str) -> int:
        """The index of the column ``name``.

        Raises:
            KeyError: The tensor describes no such column.
        """
        for i, c in enumerate(self.columns):
            if c.name == name:
                return i
        raise KeyError(f"{self.name} has no column {name!r}")

    @property
    def scales(self) -> np.ndarray[Any, Any]:
        """The columns' scales as a float32 vector (ones where not described)."""
        if not self.columns:
            return np.ones(self.shape[-1], dtype=np.float32)
        return np.array([c.scale for c in self.columns], dtype=np.float32)


@dataclass(frozen=True)
class GameInfo:
    """A game's spaces and how to read them (``GameSpec``).

    Attributes:
        id: The environment id, e.g. ``"Crematoria-v0"``.
        version: The observation layout version.
        tensors: The observation tensors, in the spec's order.
        num_actions: Choices per unit slot.
        unit_row: The ``units`` column of a unit's board row.
        unit_col: The ``units`` column of its board column.
        wrap_columns: The board's columns wrap around.
        policy_mask: The ``[U, num_actions]`` tensor a policy samples from.
        opt_in: The game's opt-in tensors (``GameSpec.opt_in``, e.g.
            Pandemic's ``expert``): not in the observation unless a session
            names them in ``tensors=``. Empty in a session's spec, whose
            ``tensors`` hold the ones it named.
    """

    id: str
    version: str
    tensors: tuple[TensorInfo, ...]
    num_actions: int
    unit_row: int
    unit_col: int
    wrap_columns: bool
    policy_mask: str
    opt_in: tuple[TensorInfo, ...] = ()

    def tensor(self, name: str) -> TensorInfo:
        """The observation tensor ``name``."""
        for t in self.tensors:
            if t.name == name:
                return t
        raise KeyError(f"{self.id} has no observation tensor {name!r}")

    @property
    def board(self) -> TensorInfo:
        """The board tensor: the one whose planes are described."""
        for t in self.tensors:
            if t.planes:
                return t
        raise KeyError(f"{self.id} describes no board planes")

    @property
    def num_slots(self) -> int:
        """U, the number of unit slots."""
        return self.tensor("units").shape[0]

    def to_dict(self) -> dict[str, Any]:
        """A plain dict of built-in types (what a checkpoint stores); :meth:`from_dict` reads it."""
        return {
            "id": self.id,
            "version": self.version,
            "tensors": [_tensor_to_dict(t) for t in self.tensors],
            "num_actions": self.num_actions,
            "unit_row": self.unit_row,
            "unit_col": self.unit_col,
            "wrap_columns": self.wrap_columns,
            "policy_mask": self.policy_mask,
            "opt_in": [_tensor_to_dict(t) for t in self.opt_in],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameInfo:
        """The :class:`GameInfo` of :meth:`to_dict` (``opt_in`` may be absent)."""
        return cls(
            id=d["id"],
            version=d["version"],
            tensors=tuple(_tensor_from_dict(t) for t in d["tensors"]),
            num_actions=int(d["num_actions"]),
            unit_row=int(d["unit_row"]),
            unit_col=int(d["unit_col"]),
            wrap_columns=bool(d["wrap_columns"]),
            policy_mask=d["policy_mask"],
            opt_in=tuple(_tensor_from_dict(t) for t in d.get("opt_in", ())),
        )


def _tensor_to_dict(t: TensorInfo) -> dict[str, Any]:
    """A tensor of :meth:`GameInfo.to_dict`."""
    return {
        "name": t.name,
        "dtype": t.dtype.name,
        "shape": list(t.shape),
        "description": t.description,
        "planes": [[p.name, p.kind, p.count, p.scale] for p in t.planes],
        "columns": [[c.name, c.scale] for c in t.columns],
    }


def _tensor_from_dict(t: dict[str, Any]) -> TensorInfo:
    """The :class:`TensorInfo` of :func:`_tensor_to_dict`."""
    return TensorInfo(
        name=t["name"],
        dtype=np.dtype(t["dtype"]),
        shape=tuple(int(x) for x in t["shape"]),
        description=t.get("description", ""),
        planes=tuple(Plane(n, k, int(c), float(s)) for n, k, c, s in t["planes"]),
        columns=tuple(Column(n, float(s)) for n, s in t["columns"]),
    )


def _tensor_info(t: pb.TensorSpec) -> TensorInfo:
    """The :class:`TensorInfo` of a server's ``TensorSpec``."""
    return TensorInfo(
        name=t.name,
        dtype=DTYPES[t.dtype],
        shape=tuple(int(d) for d in t.shape),
        description=t.description,
        planes=tuple(Plane(p.name, _KINDS[p.kind], int(p.count), float(p.scale)) for p in t.planes),
        columns=tuple(Column(c.name, float(c.scale)) for c in t.columns),
    )


def describe(spec: pb.GameSpec) -> GameInfo:
    """The :class:`GameInfo` of a server's ``GameSpec``.

    Example:
        >>> from jgym.v1 import jgym_pb2 as pb
        >>> g = pb.GameSpec(id="X-v0", num_actions=5)
        >>> _ = g.observation.add(name="units", dtype=pb.DTYPE_UINT8, shape=[8, 3])
        >>> _ = g.opt_in.add(name="expert", dtype=pb.DTYPE_BOOL, shape=[8, 5])
        >>> d = describe(g)
        >>> [t.name for t in d.tensors], [(t.name, t.dtype.name, t.shape) for t in d.opt_in]
        (['units'], [('expert', 'bool', (8, 5))])
    """
    return GameInfo(
        id=spec.id,
        version=spec.observation_version,
        tensors=tuple(_tensor_info(t) for t in spec.observation),
        num_actions=int(spec.num_actions),
        unit_row=int(spec.unit_row),
        unit_col=int(spec.unit_col),
        wrap_columns=bool(spec.wrap_columns),
        policy_mask=spec.policy_mask or "action_mask",
        opt_in=tuple(_tensor_info(t) for t in spec.opt_in),
    )
