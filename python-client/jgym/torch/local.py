"""The egocentric network (``net="local"``): each unit slot reads the board around its own cell.

No convolution runs over the board; see :class:`LocalAgent`. Training
computes only the slots the learner owns (:meth:`LocalAgent.packed`), with
two hand-written backward passes (:class:`CountsTimes`, :class:`LookupSum`)
that are several times faster on a CPU than PyTorch's own; the exported
graph (:meth:`LocalAgent.heads_dense`) computes every slot with the same
operators as :class:`~jgym.torch.nets.Agent`'s. Tests check that both
paths agree, values and gradients.
"""

from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from jgym.spec import GameInfo
from jgym.torch.nets import BoardNet, NetConfig, layer_init, plane_table

__all__ = ["BF16_ROWS", "JOINT_VALUES", "CountsTimes", "LocalAgent", "LookupSum", "crop_tables"]


def crop_tables(size: int, crop: int, stride: int, wrap: bool) -> tuple[torch.Tensor, ...]:
    """Index tables of an egocentric crop along one axis of ``size`` cells.

    For every uint8 coordinate ``x`` (0..255) and every offset ``d`` of the
    crop (``-crop//2..crop//2``): the cell ``x + d`` (``wrap``: modulo
    ``size``), times ``stride``, and whether it is on the board. Coordinates
    beyond the board give cells off the board (index 0, outside), so a
    network that gathers through these tables never reads out of range.
    """
    half = crop // 2
    index = torch.zeros(256, crop)
    inside = torch.zeros(256, crop)
    for x in range(256):
        for j, d in enumerate(range(-half, half + 1)):
            y = x + d
            if x < size and wrap:
                y %= size
            if x < size and 0 <= y < size:
                index[x, j], inside[x, j] = y * stride, 1.0
    return index, inside


class CountsTimes(torch.autograd.Function):
    """``counts @ weight`` for constant counts [N, n] and a learned table [n, c].

    The same product as ``@``, whose backward pass PyTorch computes as
    ``counts.T @ grad`` on a transposed view, three times slower on a CPU
    than ``(grad.T @ counts).T`` (benchmarks/RESULTS.md, the trainer).
    """

    @staticmethod
    def forward(ctx: Any, counts: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        """``counts @ weight``."""
        ctx.save_for_backward(counts)
        return counts @ weight

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[None, torch.Tensor]:
        """The weight's gradient (the counts are constants)."""
        (counts,) = ctx.saved_tensors
        return None, (grad.t() @ counts).t()


class LookupSum(torch.autograd.Function):
    """``weight[index].sum(0)``: the sum of P embedding lookups per item, index [P, M].

    Adds the P lookups in place, without the [P, M, c] intermediate, and its
    backward pass adds each lookup's gradient to its row with ``index_add_``:
    on a CPU several times faster than ``nn.Embedding``'s and deterministic.
    That runs on one thread: with two, ``index_add_`` into a small table was
    several times slower than with one in the profiler (the threads contend
    for the same rows).
    """

    @staticmethod
    def forward(ctx: Any, weight: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        """The [M, c] sums."""
        ctx.save_for_backward(index)
        ctx.rows = weight.shape[0]
        h = weight.index_select(0, index[0])
        for p in range(1, index.shape[0]):
            h += weight.index_select(0, index[p])
        return h

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor, None]:
        """The table's gradient: each lookup's gradient added to its row."""
        (index,) = ctx.saved_tensors
        out = torch.zeros(ctx.rows, grad.shape[1], dtype=grad.dtype, device=grad.device)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            for p in range(index.shape[0]):
                out.index_add_(0, index[p], grad)
            return out, None
        finally:
            torch.set_num_threads(threads)


# LocalAgent.cell_features: when a cell's code and bits planes have at most
# this many combinations of values (Dominator 4,160, Pandemic 3,200, Moria
# 38,400; not Crematoria's 2,097,152), the features of every combination
# are tabulated and each cell looks up one row of the table; otherwise it
# looks up one row per plane (LookupSum).
JOINT_VALUES = 1 << 16

# LocalAgent.packed with --bf16: the slots' rows are padded to a multiple of this.
BF16_ROWS = 512


class LocalAgent(BoardNet):
    """An egocentric actor-critic: each unit slot reads the board around its own cell.

    No convolution runs over the board: the cells are embedded as in
    :class:`Agent` (``cells``), then

    - each slot reads the ``crop x crop`` cells centred on its unit, each
      cell's features after a ReLU (off the board: zeros; Crematoria's
      columns wrap around);
    - the cells' features are averaged over ``block x block`` blocks (two
      matrix products with constant pooling matrices), then a ReLU, and
      each slot reads the ``blocks x blocks`` blocks centred on its unit's;
    - with its own features (scaled), the game's other per-slot masks and a
      projection of the globals and the mean of the blocks, an MLP shared
      by the slots (two layers of ``hidden``) gives one logit per action
      (illegal ones masked) and the slot's value (or, team credit, the
      seat's from the mean of its units').

    Two ways to compute the same function: the exported graph
    (:meth:`heads_dense`, every slot, the same ONNX operators as
    :class:`Agent`'s) and, in PyTorch, :meth:`heads` for the slots the
    learner owns only, embedding only the cells they read and pooling the
    blocks from per-block counts of each code (the mean of a code plane's
    embedding is its histogram times the table). A test checks they agree.

    Args: as :class:`~jgym.torch.nets.BoardNet`'s (``config``: its
    ``channels``, ``hidden``, ``crop``, ``block`` and ``blocks``).
    """

    net = "local"
    sel_row: torch.Tensor
    sel_col: torch.Tensor
    ones: torch.Tensor
    fine_row: torch.Tensor
    fine_row_in: torch.Tensor
    fine_col: torch.Tensor
    fine_col_in: torch.Tensor
    pool_row: torch.Tensor
    pool_col: torch.Tensor
    block_row: torch.Tensor
    block_row_in: torch.Tensor
    block_col: torch.Tensor
    block_col_in: torch.Tensor
    cell_block: torch.Tensor
    plane_index: torch.Tensor
    hist_offset: torch.Tensor
    joint_stride: torch.Tensor
    key_stride: torch.Tensor
    hist_base: torch.Tensor
    block_size: torch.Tensor

    def __init__(self, info: GameInfo, config: NetConfig, **kw: Any) -> None:
        super().__init__(info, config, **kw)
        c, crop, block, blocks = config.channels, config.crop, config.block, config.blocks
        if crop % 2 == 0 or blocks % 2 == 0 or block < 1:
            raise ValueError(f"crop {crop} and blocks {blocks} must be odd, block positive")
        self.crop, self.block, self.blocks = crop, block, blocks
        rows, cols, nfeat = self.rows, self.cols, self.nfeat
        hb, wb = -(-rows // block), -(-cols // block)
        self.grid = (hb, wb)
        sel = torch.zeros(nfeat, 2)
        sel[self.row, 0], sel[self.col, 1] = 1.0, 1.0
        self.register_buffer("sel_row", sel[:, :1].clone())
        self.register_buffer("sel_col", sel[:, 1:].clone())
        self.register_buffer("ones", torch.ones(1, c))
        # The fine crop: cell index row * cols + col, per offset.
        for name, (size, stride) in (("row", (rows, cols)), ("col", (cols, 1))):
            index, inside = crop_tables(size, crop, stride, wrap=self.wrap and name == "col")
            self.register_buffer(f"fine_{name}", index)
            self.register_buffer(f"fine_{name}_in", inside)
        # The blocks: pooling matrices (each block's mean) and the crop of
        # blocks around the unit's block, indexed by the unit's cell.
        for name, size, nb in (("row", rows, hb), ("col", cols, wb)):
            pool = torch.zeros(size, nb)
            for x in range(size):
                pool[x, x // block] = 1.0
            self.register_buffer(f"pool_{name}", pool / pool.sum(0).clamp(min=1.0))
            index, inside = crop_tables(nb, blocks, wb if name == "row" else 1,
                                        wrap=self.wrap and name == "col")  # fmt: skip
            of_cell = torch.tensor([min(x // block, 255) for x in range(256)])
            index, inside = index[of_cell], inside[of_cell]
            index[size:], inside[size:] = 0.0, 0.0
            self.register_buffer(f"block_{name}", index)
            self.register_buffer(f"block_{name}_in", inside)
        # For heads: each cell's block, and each block's number of cells.
        cell_block = torch.tensor(
            [(r // block) * wb + cl // block for r in range(rows) for cl in range(cols)]
        )
        self.register_buffer("cell_block", cell_block, persistent=False)
        self.register_buffer("plane_index", torch.arange(len(self.planes)), persistent=False)
        # block_means: the planes counted by value (codes, bits), where each
        # one's values start in the counts, the scalar planes; and where each
        # table plane's columns start in flag's input.
        self.hist_planes = [i for i, p in enumerate(self.planes) if p.kind != "scalar"]
        self.scalar_planes = [i for i, p in enumerate(self.planes) if p.kind == "scalar"]
        offset = self.offsets(self.hist_planes)
        self.register_buffer("hist_offset", offset, persistent=False)
        # cell_features: a cell's values of those planes as one number (mixed
        # radix, the last plane's digit lowest) when there are few combinations
        sizes = [self.num_values(i) for i in self.hist_planes]
        self.joint = math.prod(sizes) <= JOINT_VALUES
        joint = torch.tensor([math.prod(sizes[j + 1 :]) for j in range(len(sizes))])
        self.register_buffer("joint_stride", joint, persistent=False)
        # near_features: a cell's uint8 values of every plane as one int64 key
        # (base 256), for up to 7 planes (every game has 3 to 7).
        nplanes = len(self.planes)
        self.keyed = nplanes <= 7
        key_stride = [256 ** (nplanes - 1 - j) for j in range(nplanes)] if self.keyed else [0]
        self.register_buffer("key_stride", torch.tensor(key_stride), persistent=False)
        base = cell_block * offset[-1] + offset[:-1].view(-1, 1)  # [P', H*W]
        self.register_buffer("hist_base", base, persistent=False)
        self.flag_columns: dict[int, int] = {}
        start = 0
        for i in self.tables:
            self.flag_columns[i] = start
            start += plane_table(self.planes[i]).shape[1]  # type: ignore[union-attr]
        self.register_buffer(
            "block_size",
            torch.bincount(cell_block, minlength=hb * wb).float().unsqueeze(1),
            persistent=False,
        )
        g, hidden = info.tensor("globals").shape[0], config.hidden
        self.near_in = layer_init(nn.Linear(crop * crop * c, hidden))
        self.far_in = layer_init(nn.Linear(blocks * blocks * c, hidden, bias=False))
        self.unit_in = layer_init(nn.Linear(nfeat + self.extra, hidden, bias=False))
        self.glob_in = layer_init(nn.Linear(c + g, hidden, bias=False))
        self.mid = layer_init(nn.Linear(hidden, hidden))
        self.unit_out = layer_init(nn.Linear(hidden, info.num_actions), std=0.01)
        self.critic = nn.Sequential(
            layer_init(nn.Linear(2 * hidden if self.team_value else hidden, hidden)),
            nn.ReLU(),
            layer_init(nn.Linear(hidden, 1), std=1.0),
        )

    # -- the exported graph: every slot ------------------------------------------------

    def gather_crop(
        self, maps: torch.Tensor, rr: torch.Tensor, cc: torch.Tensor, kind: str
    ) -> torch.Tensor:
        """Features [B, U, k*k*c] of the crop around each slot from maps [B, N, c].

        ``rr``, ``cc``: [B, U, 1] int64 row and column of each slot's unit.
        """
        u, c = self.num_slots, self.channels
        k = self.crop if kind == "fine" else self.blocks
        rows = getattr(self, f"{kind}_row")[rr].reshape(-1, u, k, 1)
        cols = getattr(self, f"{kind}_col")[cc]  # [B, U, 1, k]
        inside = (
            getattr(self, f"{kind}_row_in")[rr].reshape(-1, u, k, 1)
            * getattr(self, f"{kind}_col_in")[cc]
        )
        index = ((rows + cols).reshape(-1, u * k * k, 1) @ self.ones).long()  # [B, U*k*k, c]
        got = torch.gather(maps, 1, index).reshape(-1, u, k * k, c)
        out: torch.Tensor = (got * inside.reshape(-1, u, k * k, 1)).reshape(-1, u, k * k * c)
        return out

    def heads_dense(self, *obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """:meth:`heads` computed for every slot: the exported graph."""
        board, units = obs[self.i_board], obs[self.i_units]
        globals_, mask = obs[self.i_globals], obs[self.i_mask]
        c = self.channels
        h = self.cells(board)  # [B, H, W, c]
        fine = F.relu(h).reshape(-1, self.rows * self.cols, c)
        # block means: [B, c, H, W] @ [W, wb] -> [B, c, wb, H] @ [H, hb] -> [B, hb*wb, c]
        y = h.permute(0, 3, 1, 2) @ self.pool_col
        y = y.transpose(2, 3) @ self.pool_row  # [B, c, wb, hb]
        blocks = F.relu(y.permute(0, 3, 2, 1).reshape(-1, self.grid[0] * self.grid[1], c))
        u = units.float()
        rr, cc = (u @ self.sel_row).long(), (u @ self.sel_col).long()  # [B, U, 1]
        feats = [u * self.unit_scale] + [obs[i].float() for i in self.i_extra]
        g = self.glob_in(torch.cat([blocks.mean(1), globals_], -1))
        # The slots that are not mine get a zero hidden layer, as in heads;
        # their inputs are zeroed first, which an interpreter that skips
        # zeros in its products (jgym's Go one) does not compute.
        mine = u[..., :1]
        z = (
            self.near_in(self.gather_crop(fine, rr, cc, "fine") * mine)
            + self.far_in(self.gather_crop(blocks, rr, cc, "block") * mine)
            + self.unit_in(torch.cat(feats, -1))
        )
        hid = F.relu(self.mid(F.relu(z + g.unsqueeze(1)) * mine)) * mine
        logits = torch.where(mask, self.unit_out(hid), self.masked)
        return logits, self.values(hid, g, u[..., self.mine])

    def values(self, hid: torch.Tensor, g: torch.Tensor, mine: torch.Tensor) -> torch.Tensor:
        """Per slot [B, U], or (team) the seat's [B] from its units' mean hidden layer."""
        if not self.team_value:
            v: torch.Tensor = self.critic(hid).squeeze(-1)
            return v
        m = mine.unsqueeze(-1)
        pooled = (hid * m).sum(1) / m.sum(1).clamp(min=1.0)
        team: torch.Tensor = self.critic(torch.cat([F.relu(g), pooled], -1)).squeeze(-1)
        return team

    # -- training: the slots the learner owns only ---------------------------------------

    def heads(
        self, *obs: torch.Tensor, pre: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Returns the masked logits [B, U, A] and the values ([B, U] per slot, [B] team).

        Computed for the slots whose unit is mine (``units`` column 0,
        :meth:`packed`); the others get the logits and value of a zero
        hidden layer, as in :meth:`heads_dense` (their moves are not the
        learner's, and the losses skip them).
        """
        if torch.onnx.is_in_onnx_export():
            return self.heads_dense(*obs)
        logits_mine, values, bi, ui = self.packed(*obs, pre=pre)
        mask = obs[self.i_mask]
        b, u = mask.shape[:2]
        logits = torch.where(mask, self.unit_out.bias, self.masked).index_put((bi, ui), logits_mine)
        if not self.team_value:
            zero = self.critic(mask.new_zeros(1, self.unit_out.in_features, dtype=torch.float32))
            zero = zero.reshape(1, 1)
            values = zero.expand(b, u).index_put((bi, ui), values)
        return logits, values

    def packed(
        self,
        *obs: torch.Tensor,
        pre: torch.Tensor | None = None,
        cells: tuple[torch.Tensor, torch.Tensor] | None = None,
        columns: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """:meth:`BoardNet.packed`, embedding only the distinct cells the slots that are mine read.

        The blocks come from per-block counts (:meth:`block_inputs`, or
        ``pre``: only its ``columns`` when given, :meth:`block_means`), the
        cells from :meth:`read_cells` (or ``cells``).
        """
        board, units = obs[self.i_board], obs[self.i_units]
        globals_, mask = obs[self.i_globals], obs[self.i_mask]
        b = board.shape[0]
        if pre is None:
            pre = self.block_inputs(board)
        blocks = F.relu(self.block_means(pre, columns))  # [B, nb, c]
        g = self.glob_in(torch.cat([blocks.mean(1), globals_], -1))
        # The slots that are mine, and what each reads.
        bi, ui = (units[..., self.mine] == 1).nonzero(as_tuple=True)
        uf = units[bi, ui].float()  # [N, F]
        rr = uf[:, self.row].long()
        cc = uf[:, self.col].long()
        kb = self.blocks
        near = self.near_features(board, bi, ui, rr, cc, cells=cells)  # [N, crop*crop, c]
        blk = (self.block_row[rr].unsqueeze(2) + self.block_col[cc].unsqueeze(1)).long()
        blk_in = self.block_row_in[rr].unsqueeze(2) * self.block_col_in[cc].unsqueeze(1)
        far = blocks[bi.unsqueeze(1), blk.view(-1, kb * kb)] * blk_in.view(-1, kb * kb, 1)
        feats = [uf * self.unit_scale] + [obs[i][bi, ui].float() for i in self.i_extra]
        # The per-slot MLP, where the time goes: in bfloat16 with --bf16
        # (the products' inputs rounded, their sums and everything else
        # float32). oneDNN compiles a kernel for each new number of rows, so
        # the rows are padded with zeros to a multiple of BF16_ROWS.
        n = len(bi)
        pad = -n % BF16_ROWS if self.bf16 else 0
        x = [near.flatten(1), far.flatten(1), torch.cat(feats, -1), g[bi]]
        if pad:
            x = [F.pad(t, (0, 0, 0, pad)) for t in x]
        with torch.autocast(board.device.type, dtype=torch.bfloat16, enabled=self.bf16):
            z = self.near_in(x[0]) + self.far_in(x[1]) + self.unit_in(x[2])
            hid = F.relu(self.mid(F.relu(z + x[3])))  # [N + pad, hidden]
            out = self.unit_out(hid)[:n]
            value = None if self.team_value else self.critic(hid)[:n]
            hid = hid[:n]
        logits = torch.where(mask[bi, ui], out.float(), self.masked)
        if value is not None:
            return logits, value.float().squeeze(-1), bi, ui
        hid = hid.float()
        # the seat's value from the mean of its units' hidden layers (none: zeros)
        count = torch.bincount(bi, minlength=b).clamp(min=1).unsqueeze(1).float()
        pooled = hid.new_zeros(b, hid.shape[1]).index_add(0, bi, hid) / count
        return logits, self.critic(torch.cat([F.relu(g), pooled], -1)).squeeze(-1), bi, ui

    def near_features(
        self,
        board: torch.Tensor,
        bi: torch.Tensor,
        ui: torch.Tensor,
        rr: torch.Tensor,
        cc: torch.Tensor,
        *,
        cells: tuple[torch.Tensor, torch.Tensor] | None = None,
    ) -> torch.Tensor:
        """The features after the ReLU of the crop's cells, [N, k*k, c] (off the board: 0).

        ``bi``, ``ui``: each slot's board and slot, ``rr``, ``cc``: its
        unit's row and column. The features are computed once per distinct
        cell (the values of every plane: one int64 key; a batch holds a few
        thousand distinct cells for hundreds of thousands read), then each
        cell read takes its row (:class:`LookupSum`, one lookup): the same values as
        computing every cell read, which is done only when the keys would
        not fit in an int64 (``keyed`` false: more than 7 planes).
        ``cells``: :meth:`read_cells` of these boards, if already computed
        (the update computes it once for all its epochs).
        """
        kk = self.crop * self.crop
        if cells is not None:
            distinct, index = cells
            inverse = index[bi, ui].long()
        elif not self.keyed:
            codes, inside = self.crop_codes(board, bi, rr, cc)
            return F.relu(self.cell_features(codes)) * inside.unsqueeze(2)
        else:
            distinct, inverse = torch.unique(self.read_keys(board, bi, rr, cc), return_inverse=True)
        codes = (distinct.clamp(min=0).unsqueeze(1) // self.key_stride) % 256
        table = F.relu(self.cell_features(codes)) * (distinct >= 0).unsqueeze(1)
        near: torch.Tensor = LookupSum.apply(table, inverse.view(1, -1))
        return near.view(-1, kk, self.channels)

    def crop_codes(
        self, board: torch.Tensor, bi: torch.Tensor, rr: torch.Tensor, cc: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """The values of each slot's crop, [N, k*k, P], and which of its cells are on the board.

        Every plane's value (int64, read from the flat board) of each cell;
        ``inside`` is [N, k*k].
        """
        kk = self.crop * self.crop
        cell = (self.fine_row[rr].unsqueeze(2) + self.fine_col[cc].unsqueeze(1)).long()
        inside = self.fine_row_in[rr].unsqueeze(2) * self.fine_col_in[cc].unsqueeze(1)
        at = (bi.view(-1, 1, 1) * board.shape[1] + self.plane_index) * self.rows * self.cols
        return board.reshape(-1)[at + cell.view(-1, kk, 1)].long(), inside.view(-1, kk)

    def read_keys(
        self, board: torch.Tensor, bi: torch.Tensor, rr: torch.Tensor, cc: torch.Tensor
    ) -> torch.Tensor:
        """The key (every plane's value, base 256) of each cell of each slot's crop, [N, k*k].

        Off the board: -1.
        """
        codes, inside = self.crop_codes(board, bi, rr, cc)
        return (codes * self.key_stride).sum(-1).masked_fill(inside == 0, -1)

    def read_cells(
        self, board: torch.Tensor, units: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor] | None:
        """The distinct cells [C] (keys) the slots that are mine read, and their rows [B, U, k*k].

        What :meth:`near_features` reads of the boards, computed once for
        the update's epochs and minibatches (int32 rows; other slots: 0).
        None when the keys do not fit (``keyed``).
        """
        if not self.keyed:
            return None
        bi, ui = (units[..., self.mine] == 1).nonzero(as_tuple=True)
        uf = units[bi, ui].long()
        read = self.read_keys(board, bi, uf[:, self.row], uf[:, self.col])
        distinct, inverse = torch.unique(read, return_inverse=True)
        index = read.new_zeros(*units.shape[:2], read.shape[1], dtype=torch.int32)
        index[bi, ui] = inverse.int()
        return distinct, index

    def block_inputs(self, board: torch.Tensor) -> torch.Tensor:
        """What :meth:`block_means` reads of a board: [B, nb, K + S], constants of the board.

        For each block, the number of its cells that hold each value of the
        code and bits planes (K values in all, one scatter for all planes),
        then the sum of each of the S scalar planes (two products with the
        pooling matrices): :meth:`block_means` divides its product by the
        block's size, not these. The trainer computes them once per
        observation, in the rollout, rather than in every epoch of the
        update.
        """
        b, nb = board.shape[0], self.grid[0] * self.grid[1]
        flat = board.flatten(2)  # [B, P, H*W]
        k = int(self.hist_offset[-1])
        # (block, value) of each cell of those planes: [B, P' * H*W]
        idx = flat[:, self.hist_planes].long()
        idx += self.hist_base  # in place: a batch of boards in int64 is large
        idx = idx.view(b, -1)
        ones = board.new_ones(1, dtype=torch.float32).expand(idx.shape)
        parts = [ones.new_zeros(b, nb * k).scatter_add_(1, idx, ones).view(b, nb, k)]
        for i in self.scalar_planes:
            x = flat[:, i].float().view(b, 1, self.rows, self.cols)
            y = (x @ self.pool_col).transpose(2, 3) @ self.pool_row  # [B, 1, wb, hb]: means
            parts.append(y.permute(0, 3, 2, 1).reshape(b, nb, 1) * self.block_size)
        return parts[0] if len(parts) == 1 else torch.cat(parts, -1)

    def block_means(self, pre: torch.Tensor, columns: torch.Tensor | None = None) -> torch.Tensor:
        """The mean of :meth:`cells` over each block, [B, nb, c] (before the ReLU).

        From :meth:`block_inputs`: the counts of each value times its
        features (:meth:`value_features`), plus each scalar plane's sum
        times its, over the block's size. No features of every cell are
        built. ``columns``: the
        columns of :meth:`block_inputs` that ``pre`` holds, the others
        being zero in every block (the update keeps the rollout's nonzero
        ones: a few dozen of Crematoria's 384 values occur).
        """
        b, nb, k = pre.shape
        weight = torch.cat([self.value_features(i) for i in self.hist_planes + self.scalar_planes])
        if columns is not None:
            weight = weight[columns]
        sums: torch.Tensor = CountsTimes.apply(pre.reshape(b * nb, k), weight)
        return sums.view(b, nb, -1) / self.block_size

    def value_features(self, i: int) -> torch.Tensor:
        """The features of each value of plane i, [n, c] (a scalar plane: of value 1)."""
        plane = self.planes[i]
        if plane.kind == "code":
            emb: nn.Embedding = getattr(self, f"emb{i}")
            return emb.weight
        assert self.flag is not None
        start = self.flag_columns[i]
        table = getattr(self, self.table_name(i))
        w = self.flag.weight[:, start : start + table.shape[1]]  # [c, width]
        if plane.kind == "scalar":
            return (w * plane.scale).t()  # the table is value x scale
        bits: torch.Tensor = table @ w.t()
        return bits

    def num_values(self, i: int) -> int:
        """The number of values of code or bits plane i."""
        plane = self.planes[i]
        return 1 << plane.count if plane.kind == "bits" else plane.count

    def offsets(self, planes: list[int]) -> torch.Tensor:
        """Where each plane's values start when those planes' values are numbered in a row.

        [len(planes) + 1] int64, the last is the number of values in all.
        """
        return torch.tensor([0] + [self.num_values(i) for i in planes]).cumsum(0)

    def cell_features(self, codes: torch.Tensor) -> torch.Tensor:
        """:meth:`cells` of cells given as [..., P] plane values.

        The features of each plane's value (:meth:`value_features`), summed:
        for the code and bits planes one row of the table of every
        combination of their values (``JOINT_VALUES``) or one lookup per
        plane (LookupSum), plus the scalar planes' as a product.
        """
        shape = codes.shape[:-1]
        codes = codes.reshape(-1, codes.shape[-1])
        if self.joint:
            # the features of every combination of values, [J, c], then one row per cell
            table = self.ones.new_zeros(1, self.channels)
            for i in self.hist_planes:
                w = self.value_features(i)
                table = (table.unsqueeze(1) + w.unsqueeze(0)).reshape(-1, self.channels)
            idx = (codes[:, self.hist_planes] * self.joint_stride).sum(-1, keepdim=True)
            h = LookupSum.apply(table, idx.t())
        else:
            idx = (codes[:, self.hist_planes] + self.hist_offset[:-1]).t().contiguous()
            weight = torch.cat([self.value_features(i) for i in self.hist_planes])
            h = LookupSum.apply(weight, idx)
        if self.scalar_planes:
            weight = torch.cat([self.value_features(i) for i in self.scalar_planes])
            h = h + codes[:, self.scalar_planes].float() @ weight
        out: torch.Tensor = h.view(*shape, -1)
        return out
