"""A network for jgym's observations, shared by the SB3 and RLlib integrations.

:class:`SlotNet` turns one batch of a jgym game's observations (any game:
it reads the spaces, and the ``units`` columns of a unit's row and column
from the server's description, :func:`unit_position_columns`) into
features per unit slot and global features. ``jgym.sb3`` and ``jgym.rllib``
put an action head shared by the slots and a value head on top.

Needs PyTorch (the ``[train]`` or ``[rllib]`` extra).
"""

from __future__ import annotations

import math

import numpy as np
import torch as th
from gymnasium import spaces
from torch import nn

from jgym.errors import InvalidArgumentError
from jgym.v1 import jgym_pb2 as pb

__all__ = ["SlotNet", "unit_position_columns"]


def unit_position_columns(game: pb.GameSpec) -> tuple[int, int]:
    """Returns the ``units`` columns of a unit's row and column.

    Read from the ``units`` tensor's description in the server's spec
    (``"units per unit slot: mine, rel owner, type, health, row, col, ..."``),
    so that any game works.

    Raises:
        InvalidArgumentError: The description names no ``row`` and ``col``.

    Example:
        >>> spec = pb.GameSpec(observation=[pb.TensorSpec(
        ...     name="units", description="units per unit slot: mine, health, row, col")])
        >>> unit_position_columns(spec)
        (2, 3)
    """
    for t in game.observation:
        if t.name == "units":
            names = [n.strip() for n in t.description.partition(":")[2].split(",")]
            if "row" in names and "col" in names:
                return names.index("row"), names.index("col")
    raise InvalidArgumentError(f"{game.id}: the units tensor names no row and col columns")


class SlotNet(nn.Module):
    """A network for jgym observations: features per unit slot, and global features.

    Sized for CPUs, for any game:

    - each unit slot the learner can move (its mask allows more than one
      action) reads the ``patch x patch`` cells around its cell
      (``position_columns`` of ``units``): every value of every board plane
      there gets a learned embedding (256 per plane), summed over the
      planes, so codes, bit flags and quantities are all read alike; with
      its own ``units`` row (scaled by the space's bound);
    - the whole board is read at a quarter of its resolution by two
      convolutions over the planes' values; pooled, with ``globals``, it
      makes the global features, and each slot also reads it at its cell;
    - a small MLP shared by the slots makes ``slot_features`` per slot
      (zero for slots the learner cannot move).

    :meth:`forward` returns the slot features ``[B, U, slot_features]`` and
    the global features ``[B, global_features]``.

    Args:
        observation_space: A jgym observation space (``board``, ``units``,
            ``globals``, ``action_mask``).
        position_columns: The ``units`` columns of the row and the column
            (:func:`unit_position_columns`).
        embed: Embedding width per cell.
        patch: Side of the square of cells each unit reads (odd).
        channels: Channels of the quarter-resolution convolutions.
        slot_features: Features per unit slot.
        global_features: Global features.
    """

    def __init__(
        self,
        observation_space: spaces.Dict,
        *,
        position_columns: tuple[int, int] = (4, 5),
        embed: int = 8,
        patch: int = 5,
        channels: int = 32,
        slot_features: int = 32,
        global_features: int = 64,
    ) -> None:
        board, units, glob = (observation_space[k] for k in ("board", "units", "globals"))
        assert isinstance(units, spaces.Box) and isinstance(board, spaces.Box)
        assert board.shape and units.shape and glob.shape
        planes, self.rows, self.cols = (int(d) for d in board.shape)
        self.num_slots: int = int(units.shape[0])
        unit_width = int(units.shape[1])
        super().__init__()
        self.global_features: int = global_features
        self.slot_features: int = slot_features
        self.row_col = tuple(position_columns)
        self.outside = planes * 256  # the embedding of a cell off the board
        self.embed = nn.Embedding(planes * 256 + 1, embed)
        self.plane_offset: th.Tensor
        self.register_buffer("plane_offset", th.arange(planes).view(1, planes, 1, 1) * 256)
        self.board_scale = 1.0 / max(float(np.max(board.high)), 1.0)
        high = np.minimum(np.asarray(units.high, dtype=np.float64).max(axis=0), 1e6)
        self.unit_scale: th.Tensor
        self.register_buffer("unit_scale", th.tensor(1.0 / np.maximum(high, 1.0), dtype=th.float32))
        d = th.arange(-(patch // 2), patch // 2 + 1)
        self.patch_dr: th.Tensor
        self.patch_dc: th.Tensor
        self.register_buffer("patch_dr", d.repeat_interleave(patch))
        self.register_buffer("patch_dc", d.repeat(patch))
        self.far = nn.Sequential(
            nn.Conv2d(planes, channels, 4, stride=4), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
        )  # fmt: skip
        n_glob = math.prod(glob.shape)
        self.glob = nn.Sequential(nn.Linear(2 * channels + n_glob, global_features), nn.ReLU())
        self.slot = nn.Sequential(
            nn.Linear(patch * patch * embed + channels + unit_width + global_features, 64),
            nn.ReLU(),
            nn.Linear(64, slot_features),
            nn.ReLU(),
        )

    def forward(self, obs: dict[str, th.Tensor]) -> tuple[th.Tensor, th.Tensor]:
        """Returns the slot features ``[B, U, F]`` and the global features ``[B, G]``."""
        board = obs["board"]  # uint8, or floats of the values (SB3)
        b, u = board.shape[0], self.num_slots
        far = self.far(board.float() * self.board_scale)  # [B, C, H/4, W/4]
        pooled = th.cat([far.mean(dim=(2, 3)), far.amax(dim=(2, 3))], dim=1)
        glob = self.glob(th.cat([pooled, obs["globals"].flatten(1).float()], dim=1))
        # the slots the learner can move
        active = obs["action_mask"].view(b, u, -1).sum(dim=2) > 1
        bi, ui = active.nonzero(as_tuple=True)
        units = obs["units"].float()[bi, ui]  # [N, F]
        r = units[:, self.row_col[0]].long().clamp(0, self.rows - 1)
        c = units[:, self.row_col[1]].long().clamp(0, self.cols - 1)
        pr = r.unsqueeze(1) + self.patch_dr  # [N, P]: the cells around each unit
        pc = c.unsqueeze(1) + self.patch_dc
        inside = (pr >= 0) & (pr < self.rows) & (pc >= 0) & (pc < self.cols)
        cells = board[bi.unsqueeze(1), :, pr.clamp(0, self.rows - 1), pc.clamp(0, self.cols - 1)]
        codes = cells.long() + self.plane_offset.view(1, 1, -1)  # [N, P, planes]
        codes = th.where(inside.unsqueeze(2), codes, self.outside)
        near = self.embed(codes).sum(dim=2).flatten(1)  # [N, P * E]
        fr, fc = far.shape[2], far.shape[3]
        at_far = far[bi, :, (r // 4).clamp(max=fr - 1), (c // 4).clamp(max=fc - 1)]  # [N, C]
        slot_in = th.cat([near, at_far, units * self.unit_scale, glob[bi]], dim=1)
        slots = th.zeros(b, u, self.slot_features, dtype=glob.dtype, device=glob.device)
        slots = slots.index_put((bi, ui), self.slot(slot_in))
        return slots, glob
