"""The actor-critic networks, built from the server's description of a game.

Every network here reads the raw observation tensors of one seat, batch
first, in the spec's order, and gives one logit per action of each unit
slot (a product of per-slot categoricals) and a value (per slot, or one
per seat with ``team_value``). Nothing in this module knows a game: the
shapes, how each board plane is read (:class:`jgym.spec.Plane`: codes,
flag bits or a scaled quantity), the scale of each ``units`` column, which
columns hold a unit's cell, whether the board's columns wrap and which mask
a policy samples from all come from :class:`jgym.spec.GameInfo`, the
server's answer (:func:`jgym.spec.describe`).

- :class:`BoardNet`: what both networks share, the roles of the tensors and
  the cell embedding (each code plane's embedding plus a linear map of the
  other planes);
- :class:`Agent` (``net="conv"``): a thin full-resolution map and a
  half-resolution map of dilated residual convolutions; each slot gathers
  both maps' features at its unit's cell;
- :class:`jgym.torch.local.LocalAgent` (``net="local"``, the default): no
  convolution; each slot reads the cells and pooled blocks around its unit.

The module and buffer names are those of the checkpoints written since
2026-11 (``emb0``, ``flag``, ``unit_scale``, ``cell_index``...), so old
checkpoints load (:mod:`jgym.torch.checkpoint`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from jgym.spec import GameInfo, Plane

__all__ = ["Agent", "BoardNet", "NetConfig", "layer_init", "plane_table"]

#: The orders a network is trained with by default (the env's own).
SLOT, SEAT = "slot", "seat"


@dataclass(frozen=True)
class NetConfig:
    """The shape of a network (what its weights depend on, beside the game).

    Written ``"local"``, ``"conv"`` or with sizes, ``"local:hidden=128,crop=7"``
    (:meth:`parse`, the trainer's ``--net``).

    Attributes:
        net: ``local`` (:class:`~jgym.torch.local.LocalAgent`) or ``conv``
            (:class:`Agent`).
        channels: Features per cell (the full-resolution map).
        hidden: Width of the per-slot MLP.
        coarse: conv: channels of the half-resolution map.
        dilations: conv: dilations of its convolutions.
        crop: local: side of the square of cells each slot reads (odd).
        block: local: side of the pooled blocks.
        blocks: local: side of the square of blocks each slot reads (odd).
    """

    net: str = "local"
    channels: int = 8
    hidden: int = 64
    coarse: int = 24
    dilations: tuple[int, ...] = (1, 2, 4)
    crop: int = 5
    block: int = 8
    blocks: int = 3

    @classmethod
    def parse(cls, text: str) -> NetConfig:
        """``"local"``, ``"conv:coarse=16"``, ``"local:hidden=128,crop=7"``...

        Raises:
            ValueError: An unknown network or size.
        """
        net, _, rest = text.partition(":")
        kw: dict[str, Any] = {"net": net.strip() or "local"}
        for item in filter(None, (x.strip() for x in rest.split(","))):
            key, _, value = item.partition("=")
            if key not in cls.__dataclass_fields__ or key == "net" or not value:
                raise ValueError(f"network {text!r}: {item!r} is not SIZE=VALUE of {cls.fields()}")
            kw[key] = tuple(int(d) for d in value.split("/")) if key == "dilations" else int(value)
        if kw["net"] not in ("local", "conv"):
            raise ValueError(f"network {text!r}: want local or conv")
        return cls(**kw)

    @classmethod
    def fields(cls) -> str:
        """The sizes :meth:`parse` takes."""
        return ", ".join(f for f in cls.__dataclass_fields__ if f != "net")

    @classmethod
    def from_args(cls, args: dict[str, Any]) -> NetConfig:
        """From a checkpoint's arguments (train_ppo.py's flags, or ``{"net": "local:..."}``).

        Checkpoints written before ``--net`` existed hold the convolutional network.
        """
        net = args.get("net", "conv")
        if ":" in net or "channels" not in args:
            return cls.parse(net)
        kw: dict[str, Any] = {"net": net}
        for f in ("channels", "hidden", "coarse", "crop", "block", "blocks"):
            if f in args:
                kw[f] = int(args[f])
        if "dilations" in args:
            kw["dilations"] = tuple(int(d) for d in str(args["dilations"]).split(","))
        return cls(**kw)

    def __str__(self) -> str:
        default = NetConfig(self.net)
        sizes = [
            f"{f}={'/'.join(map(str, v)) if isinstance(v, tuple) else v}"
            for f in self.__dataclass_fields__
            if f != "net" and (v := getattr(self, f)) != getattr(default, f)
        ]
        return self.net + (":" + ",".join(sizes) if sizes else "")


def plane_table(p: Plane) -> torch.Tensor | None:
    """The constant table a ``bits`` or ``scalar`` plane's value indexes (None for codes).

    ``bits``: row v holds the ``count`` low bits of v; ``scalar``: row v is
    ``v * scale``.
    """
    if p.kind == "bits":
        return torch.tensor(
            [[(v >> b) & 1 for b in range(p.count)] for v in range(1 << p.count)],
            dtype=torch.float32,
        )
    if p.kind == "scalar":
        return (torch.arange(256, dtype=torch.float32) * p.scale)[:, None]
    return None


def plane_size(p: Plane) -> int:
    """How many values of a plane the network reads (codes, bit patterns, or 256)."""
    if p.kind == "code":
        return p.count
    return 1 << p.count if p.kind == "bits" else 256


def wrap_columns(x: torch.Tensor, p: int) -> torch.Tensor:
    """Pads the last axis (columns) circularly by p on each side."""
    return torch.cat([x[..., -p:], x, x[..., :p]], dim=-1)


def no_pad(x: torch.Tensor, p: int) -> torch.Tensor:
    """Maps whose columns do not wrap: the convolutions pad with zeros themselves."""
    return x


def layer_init(layer: nn.Linear, std: float = math.sqrt(2), bias: float = 0.0) -> nn.Linear:
    """Orthogonal initialization, as CleanRL's."""
    nn.init.orthogonal_(layer.weight, std)
    if layer.bias is not None:
        nn.init.constant_(layer.bias, bias)
    return layer


class BoardNet(nn.Module):
    """What both networks share: the observation tensors' roles and the cell embedding.

    ``cells(board)`` turns each board cell into ``channels`` features: the
    sum of a learned embedding of each code plane and a linear map of the
    other planes (flag bytes unpacked into their bits, scalars scaled).

    Args:
        info: The game's description (the server's).
        config: The network's shape.
        team_value: One value per seat instead of one per unit slot.
        command_order: The order of its commands it is trained and plays
            with (the env's ``command_order``; ONNX ``action_order``).
        opponent_order: How it sees the opponents (the env's
            ``opponent_order``; ONNX ``opponent_order``).

    Raises:
        ValueError: The description does not fit (no planes, a tensor the
            network has no use for).
    """

    net = ""
    unit_scale: torch.Tensor
    masked: torch.Tensor

    def __init__(
        self,
        info: GameInfo,
        config: NetConfig,
        *,
        team_value: bool,
        command_order: str = SLOT,
        opponent_order: str = SEAT,
    ) -> None:
        super().__init__()
        c = config.channels
        self.info, self.config = info, config
        self.channels, self.num_slots = c, info.num_slots
        self.team_value = team_value
        self.command_order, self.opponent_order = command_order, opponent_order
        # Training only (LocalAgent.packed's per-slot MLP in bfloat16).
        self.bf16 = False
        names = [t.name for t in info.tensors]
        board, units = info.tensor("board"), info.tensor("units")
        self.planes: tuple[Plane, ...] = board.planes
        planes, rows, cols = board.shape
        self.nfeat = nfeat = units.shape[1]
        if len(self.planes) != planes:
            raise ValueError(
                f"{info.id}: the server describes {len(self.planes)} of {planes} board planes "
                "(a game trains once it describes its observation)"
            )
        if units.columns and len(units.columns) != nfeat:
            raise ValueError(f"{info.id}: {len(units.columns)} units columns described of {nfeat}")
        self.rows, self.cols = rows, cols
        self.row, self.col, self.wrap = info.unit_row, info.unit_col, info.wrap_columns
        self.mine = units.column("mine") if units.columns else 0
        self.i_board, self.i_units = names.index("board"), names.index("units")
        self.i_globals, self.i_mask = names.index("globals"), names.index(info.policy_mask)
        # The game's other per-slot bool tensors ([U, K]: Dominator's
        # action_mask beside its move_mask, Crematoria's paths) are features
        # of their slot.
        self.i_extra = [
            i
            for i in range(len(names))
            if i not in (self.i_board, self.i_units, self.i_globals, self.i_mask)
        ]
        for i in self.i_extra:
            t = info.tensors[i]
            if t.dtype != bool or len(t.shape) != 2 or t.shape[0] != self.num_slots:
                raise ValueError(f"{info.id}: no use for observation tensor {t.name!r}")
        self.extra = sum(info.tensors[i].shape[1] for i in self.i_extra)

        # Cell features: an embedding per code plane, plus a linear map of
        # the other planes read through constant tables.
        self.codes = [i for i, p in enumerate(self.planes) if p.kind == "code"]
        for i in self.codes:
            self.add_module(f"emb{i}", nn.Embedding(self.planes[i].count, c))
        self.tables = [i for i, p in enumerate(self.planes) if p.kind != "code"]
        width = 0
        for i in self.tables:
            table = plane_table(self.planes[i])
            assert table is not None
            self.register_buffer(self.table_name(i), table)
            width += table.shape[1]
        self.flag = nn.Linear(width, c, bias=False) if width else None
        self.register_buffer("unit_scale", torch.from_numpy(units.scales.copy()))
        self.register_buffer("masked", torch.tensor(-1e9))

    @property
    def input_names(self) -> list[str]:
        """The observation tensors it reads, in order."""
        return [t.name for t in self.info.tensors]

    def table_name(self, i: int) -> str:
        """The buffer of plane i's table: ``flag_bits`` for a game's one bits plane."""
        if self.planes[i].kind == "scalar":
            return f"scalar{i}"
        return "flag_bits" if sum(p.kind == "bits" for p in self.planes) == 1 else f"bits{i}"

    def cells(self, board: torch.Tensor) -> torch.Tensor:
        """Board planes [B,P,H,W] -> cell features [B,H,W,c] (before the ReLU)."""
        b = board.long()
        h: torch.Tensor | None = None
        for i in self.codes:
            e = getattr(self, f"emb{i}")(b[:, i])
            h = e if h is None else h + e
        if self.flag is not None:
            parts = [getattr(self, self.table_name(i))[b[:, i]] for i in self.tables]
            f = self.flag(parts[0] if len(parts) == 1 else torch.cat(parts, -1))
            h = f if h is None else h + f
        assert h is not None
        return h

    def forward(self, *obs: torch.Tensor) -> torch.Tensor:
        """The exported graph: masked logits only."""
        return self.heads(*obs)[0]

    def heads(
        self, *obs: torch.Tensor, pre: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Returns the masked logits [B, U, A] and the values ([B, U] per slot, [B] team).

        ``pre``: :meth:`block_inputs` of the board, if already computed.
        """
        raise NotImplementedError

    def block_inputs(self, board: torch.Tensor) -> torch.Tensor | None:
        """What the network computes from the board alone and can keep for the update.

        None: nothing (the conv network).
        """
        return None

    def read_cells(
        self, board: torch.Tensor, units: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor] | None:
        """What the network reads of the cells of these boards, kept for the update.

        None: nothing (the conv network).
        """
        return None

    def packed(
        self,
        *obs: torch.Tensor,
        pre: torch.Tensor | None = None,
        cells: tuple[torch.Tensor, torch.Tensor] | None = None,
        columns: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """:meth:`heads` of the slots that are mine only: what PPO trains.

        Returns the masked logits [N, A], the values ([N] per slot, [B]
        team) and the slots' batch and slot indices [N] each (row-major).
        ``cells``: :meth:`read_cells` of these observations (the local
        network), if already computed; ``columns``: the columns of
        :meth:`block_inputs` that ``pre`` holds (default: all).
        """
        logits, values = self.heads(*obs, pre=pre)
        bi, ui = (obs[self.i_units][..., self.mine] == 1).nonzero(as_tuple=True)
        return logits[bi, ui], (values if self.team_value else values[bi, ui]), bi, ui

    def describe(self) -> dict[str, Any]:
        """The network's shape and how it reads the game (ONNX metadata ``network``)."""
        return {
            "net": self.net,
            "config": str(self.config),
            "planes": [{"kind": p.kind, "n": p.count, "scale": p.scale} for p in self.planes],
            "unit_scale": [float(x) for x in self.unit_scale],
            "row": self.row,
            "col": self.col,
            "wrap": self.wrap,
        }


class Agent(BoardNet):
    """Actor-critic with convolutions over the board (``net="conv"``).

    Two resolutions keep it cheap on a CPU: a thin full-resolution map (one
    residual 3x3 convolution) for what is next to each unit, and a stride-2
    convolution to a wider half-resolution map with residual dilated 3x3
    convolutions for what is farther away. Each slot gathers the features
    at its cell in both maps, adds its own features (scaled), the game's
    other per-slot masks and a projection of the pooled map and the globals;
    a small MLP shared by the slots gives its logits and value. The
    shipped models before 2026-11-25 use it.

    Args: as :class:`BoardNet`'s.
    """

    net = "conv"
    cell_index: torch.Tensor
    half_sel: torch.Tensor
    half_index: torch.Tensor

    def __init__(self, info: GameInfo, config: NetConfig, **kw: Any) -> None:
        super().__init__(info, config, **kw)
        c, k, hidden = config.channels, config.coarse, config.hidden
        self.coarse = k
        self.dilations = tuple(config.dilations)
        rows, cols, nfeat, extra = self.rows, self.cols, self.nfeat, self.extra
        self.half_shape = ((rows - 1) // 2 + 1, (cols - 1) // 2 + 1)  # the stride-2 map
        self.pad = wrap_columns if self.wrap else no_pad
        wrap = self.wrap

        def pads(d: int) -> tuple[int, int]:
            return (d, 0) if wrap else (d, d)

        self.local = nn.Conv2d(c, c, 3, padding=pads(1))
        self.down = nn.Conv2d(c, k, 3, stride=2, padding=pads(1))
        self.convs = nn.ModuleList(
            nn.Conv2d(k, k, 3, padding=pads(d), dilation=d) for d in self.dilations
        )
        # units @ cell_index = row * cols + col in every channel (exact in float32)
        cell = torch.zeros(nfeat, c)
        cell[self.row], cell[self.col] = cols, 1
        self.register_buffer("cell_index", cell)
        # trunc(units @ half_sel) @ half_index = (row // 2) * half_cols + col // 2
        half = torch.zeros(nfeat, 2)
        half[self.row, 0], half[self.col, 1] = 0.5, 0.5
        self.register_buffer("half_sel", half)
        half_cols = float(self.half_shape[1])
        self.register_buffer("half_index", torch.tensor([[half_cols] * k, [1.0] * k]))
        g = self.info.tensor("globals").shape[0]
        self.unit_in = layer_init(nn.Linear(c + k + nfeat + extra, hidden))
        self.glob_in = layer_init(nn.Linear(k + g, hidden))
        self.unit_out = layer_init(nn.Linear(hidden, self.info.num_actions), std=0.01)
        # The value of each slot, or (team) of the seat from the pooled map,
        # the globals and the mean of its units' hidden layers.
        self.critic = nn.Sequential(
            layer_init(nn.Linear(2 * hidden if self.team_value else hidden, hidden)),
            nn.ReLU(),
            layer_init(nn.Linear(hidden, 1), std=1.0),
        )

    def features(self, board: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Board planes -> full-resolution [B,c,H,W] and half-resolution [B,k,H/2,W/2] maps."""
        h = self.cells(board)
        x = F.relu(h).permute(0, 3, 1, 2)
        x = x + F.relu(self.local(self.pad(x, 1)))
        y = F.relu(self.down(self.pad(x, 1)))
        for d, conv in zip(self.dilations, self.convs, strict=True):
            y = y + F.relu(conv(self.pad(y, d)))
        return x, y

    def heads(
        self, *obs: torch.Tensor, pre: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Returns the masked logits [B, U, A] and the values ([B, U] per slot, [B] team)."""
        board, units = obs[self.i_board], obs[self.i_units]
        globals_, mask = obs[self.i_globals], obs[self.i_mask]
        x, y = self.features(board)
        fine = x.permute(0, 2, 3, 1).reshape(-1, self.rows * self.cols, self.channels)
        cells = self.half_shape[0] * self.half_shape[1]
        coarse = y.permute(0, 2, 3, 1).reshape(-1, cells, self.coarse)
        u = units.float()
        at_cell = torch.gather(fine, 1, (u @ self.cell_index).long())  # [B, U, c]
        half = (u @ self.half_sel).long().float() @ self.half_index
        near = torch.gather(coarse, 1, half.long())  # [B, U, k]
        ctx = torch.cat([y.mean(dim=(2, 3)), globals_], -1)
        slot = [at_cell, near, u * self.unit_scale] + [obs[i].float() for i in self.i_extra]
        z = self.unit_in(torch.cat(slot, -1))
        g = self.glob_in(ctx)
        h = F.relu(z + g.unsqueeze(1))
        logits = torch.where(mask, self.unit_out(h), self.masked)
        if not self.team_value:
            return logits, self.critic(h).squeeze(-1)
        mine = u[..., self.mine : self.mine + 1]
        pooled = (h * mine).sum(1) / mine.sum(1).clamp(min=1.0)
        return logits, self.critic(torch.cat([F.relu(g), pooled], -1)).squeeze(-1)

    def describe(self) -> dict[str, Any]:
        """:meth:`BoardNet.describe` with the convolutions' sizes."""
        return {**super().describe(), "coarse": self.coarse, "dilations": list(self.dilations)}
