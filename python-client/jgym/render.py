"""Pictures of a seat's observation: ``rgb_array`` board images and ``ansi`` text boards.

The environments' ``render()`` draws the board the learner observes, for
every game the server hosts, in the colours of jgym's web viewer
(``viewer/static/draw.js`` and ``viewer/static/games/*.js``): players are
red, blue, green and purple (seats 0..3, whatever seat the learner has),
the cells they own are pale tints of the same colours. Observations are
egocentric (owners are relative to the learner), so the renderer is given
the learner's seat to colour the players as the viewer does. Dominator's
board is the learner's rotated view (its box top-left), as the observation
is.

Images are ``uint8 [height, width, 3]``, a few pixels per cell, padded to
multiples of 16 (what video encoders want), with a bar on top whose four
segments are the players' shares of the total score. Everything is numpy
table look-ups; ``benchmarks/bench_render.py`` measures the frames per
second.

Example:
    >>> import numpy as np
    >>> r = renderer("moria-obs-1")
    >>> obs = {"board": np.zeros((7, 60, 60), np.uint8)}
    >>> r.rgb(obs, seat=0, scores=[0, 0, 0, 0]).shape
    (384, 368, 3)
    >>> print(r.ansi(obs, seat=0, scores=[1, 2, 3, 4], round_=5).splitlines()[0])
    Moria  round 5  me: seat 0  scores 1 2 3 4
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jgym.errors import UnsupportedError

__all__ = ["BoardRenderer", "renderer"]

Array = np.ndarray[Any, Any]

# viewer/static/draw.js
PLAYER = ("#e5383b", "#1c7ed6", "#2b9348", "#9d4edd")
OWNED = ("#f2a19d", "#a3c6ef", "#a3d8af", "#d4b3f0")
INK = "#111418"
BACKGROUND = "#111418"
BAR = 8  # height of the score bar, pixels


def _rgb(c: str) -> tuple[int, int, int]:
    return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)


def _colour(c: str) -> Array:
    return np.array(_rgb(c), np.uint8)


def _table(n: int, default: str, entries: dict[int, str]) -> Array:
    """A colour look-up table of n entries."""
    t = np.tile(np.array(_rgb(default), np.uint8), (n, 1))
    for k, c in entries.items():
        t[k] = _rgb(c)
    return t


SHAPES = ("none", "disc", "square", "diamond", "small")


def _pattern(shape: str, s: int) -> Array:
    """A boolean s x s pattern: ``disc``, ``small`` (a dot), ``square``, ``diamond``."""
    y, x = np.mgrid[0:s, 0:s] + 0.5 - s / 2
    if shape == "disc":
        return np.asarray(x * x + y * y <= (0.42 * s) ** 2)
    if shape == "small":
        return np.asarray(x * x + y * y <= (0.25 * s) ** 2)
    if shape == "diamond":
        return np.asarray(np.abs(x) + np.abs(y) <= 0.48 * s)
    if shape == "none":
        return np.zeros((s, s), bool)
    return np.asarray(np.maximum(np.abs(x), np.abs(y)) <= 0.36 * s)


def _layers(base: Array, layers: list[tuple[Array, Array, str]]) -> tuple[Array, Array, Array]:
    """Flattens unit layers into one: the colour and shape index of each cell.

    Later layers win where two mark the same cell.
    """
    fg = np.zeros_like(base)
    shape = np.zeros(base.shape[:2], np.uint8)
    for colour, present, name in layers:
        fg[present] = colour[present]
        shape[present] = SHAPES.index(name)
    return base, fg, shape


class BoardRenderer:
    """Draws one game's observations; :func:`renderer` picks it by layout version.

    Subclasses implement :meth:`layers` (the images are composed from
    them) and :meth:`chars`.

    Args:
        cell: Pixels per cell.
    """

    name = ""
    legend = ""

    def __init__(self, cell: int) -> None:
        self.cell = cell
        self._patterns = np.stack([_pattern(name, cell) for name in SHAPES])
        self._fixed = np.array([_rgb(BACKGROUND), *(_rgb(c) for c in PLAYER)], np.uint8)

    # --- to implement ---------------------------------------------------------

    def grid(self, board: Array, seat: int) -> tuple[Array, list[tuple[Array, Array, str]]]:
        """Returns the cell colours ``[H, W, 3]`` and unit layers.

        Each layer is ``(colour [H, W, 3], present [H, W] bool, shape)``.
        """
        raise NotImplementedError

    def chars(self, board: Array, seat: int) -> list[str]:
        """Returns the board as lines of one character per cell."""
        raise NotImplementedError

    # --- common ---------------------------------------------------------------

    def rgb(self, obs: dict[str, Array], seat: int, scores: Sequence[int] | None = None) -> Array:
        """The observation as an image, ``uint8 [height, width, 3]``."""
        board = np.asarray(obs["board"])
        base, fg, shape = _layers(*self.grid(board, seat))
        s = self.cell
        h, w = base.shape[:2]
        # A palette of the cells' colours, then one index per pixel and a
        # single np.take: numpy moves 3-byte pixels fastest that way.
        n = h * w
        palette = np.concatenate([base.reshape(n, 3), fg.reshape(n, 3), self._fixed])
        cells = np.arange(n, dtype=np.int32).reshape(h, w)
        where = self._patterns[shape].transpose(0, 2, 1, 3)  # [H, s, W, s]
        pixels = np.where(where, (cells + n)[:, None, :, None], cells[:, None, :, None])
        height = -(-(h * s + BAR + 2) // 16) * 16
        width = -(-(w * s) // 16) * 16
        index = np.full((height, width), 2 * n, np.int32)  # the background
        top, x0 = height - h * s, (width - w * s) // 2
        index[top:, x0 : x0 + w * s] = pixels.reshape(h * s, w * s)
        if scores is not None:
            sc = np.maximum(np.asarray(scores, dtype=np.float64)[:4], 0)
            total = sc.sum()
            share = sc / total if total > 0 else np.full(4, 0.25)
            edges = np.round(np.concatenate([[0], np.cumsum(share)]) * width).astype(int)
            for p in range(4):
                index[0:BAR, edges[p] : edges[p + 1]] = 2 * n + 1 + p
        out: Array = np.take(palette, index.reshape(-1), axis=0).reshape(height, width, 3)
        return out

    def ansi(
        self,
        obs: dict[str, Array],
        seat: int,
        scores: Sequence[int] | None = None,
        round_: int | None = None,
    ) -> str:
        """The observation as text: a header, the board, a legend."""
        head = [self.name]
        if round_ is not None:
            head.append(f"round {round_}")
        head.append(f"me: seat {seat}")
        if scores is not None:
            head.append("scores " + " ".join(str(int(x)) for x in scores))
        lines = ["  ".join(head), *self.chars(np.asarray(obs["board"]), seat)]
        if self.legend:
            lines.append(self.legend)
        return "\n".join(lines) + "\n"


def _abs_lut(n_rel: int, seat: int, colours: Sequence[str], none: str) -> Array:
    """Colours of codes 0 (none) and 1 + rel for rel 0..3, as absolute players."""
    return _table(n_rel + 1, none, {1 + r: colours[(r + seat) % 4] for r in range(n_rel)})


def _abs_chars(seat: int, chars: str) -> list[str]:
    """The character of rel 0..3 (the absolute player's)."""
    return [chars[(r + seat) % 4] for r in range(4)]


class Crematoria(BoardRenderer):
    """Crematoria (``crematoria-obs-1`` and ``-2``): the surface above, the underground below."""

    name = "Crematoria"
    legend = (
        "surface (top): ' ' night, '~' day, '*' gem, 'E' elevator; underground: '#' rock, "
        "'.' cave, a-d cave of player 0-3; units: 0-3 Pioneer, A-D Furyan of player 0-3, "
        "'H' hellhound, 'N' necromonger, 'n' descending"
    )
    GAP = 2  # cells between the levels

    def grid(self, board: Array, seat: int) -> tuple[Array, list[tuple[Array, Array, str]]]:
        """See :class:`BoardRenderer`."""
        l0, l1, flags = board[0], board[1], board[2]
        t0, t1 = l0 & 7, l1 & 7
        lut0 = _table(8, "#36302b", {1: "#dacdb3", 2: "#f59f00"})
        for r in range(4):
            lut0[3 + r] = _rgb(OWNED[(r + seat) % 4])
        under = lut0[t0]
        day = (flags & 1).astype(bool)
        surface: Array = np.where(day[..., None], _colour("#f6d675"), _colour("#1f2d45"))
        surface[t1 == 2] = _rgb("#f59f00")
        gap = np.zeros((self.GAP, board.shape[2], 3), np.uint8)
        gap[:] = _rgb(BACKGROUND)
        base = np.concatenate([surface, gap, under])
        units = np.concatenate([l1 >> 3, np.zeros(gap.shape[:2], np.uint8), l0 >> 3])
        lut = _table(16, "#9aa4b1", {9: "#17110f", 10: "#eef0f2"})
        for r in range(4):
            lut[1 + r] = lut[5 + r] = _rgb(PLAYER[(r + seat) % 4])
        colour = lut[units]
        gem = np.concatenate([t1 == 1, np.zeros(gap.shape[:2], bool), np.zeros_like(t0, bool)])
        desc = np.concatenate(
            [(flags & 8).astype(bool), np.zeros(gap.shape[:2], bool), np.zeros_like(t0, bool)]
        )
        gem_c = np.broadcast_to(_colour("#3de3f0"), colour.shape)
        desc_c = np.broadcast_to(_colour("#9aa4b1"), colour.shape)
        return base, [
            (gem_c, gem, "small"),
            (desc_c, desc & (units == 0), "small"),
            (colour, (units >= 1) & (units <= 4), "disc"),
            (colour, (units >= 5) & (units <= 8), "square"),
            (colour, units >= 9, "diamond"),
        ]

    def chars(self, board: Array, seat: int) -> list[str]:
        """See :class:`BoardRenderer`."""
        l0, l1, flags = board[0], board[1], board[2]
        owned = _abs_chars(seat, "abcd")
        pion, fury = _abs_chars(seat, "0123"), _abs_chars(seat, "ABCD")
        t0 = ["#", ".", "E", *owned, "?"]
        unit = ["", *pion, *fury, "H", "N", *"?????"]
        lines = []
        for level, codes in ((1, l1), (0, l0)):
            for i in range(codes.shape[0]):
                row = []
                for j in range(codes.shape[1]):
                    v = int(codes[i, j])
                    u = unit[v >> 3]
                    if u:
                        row.append(u)
                    elif level == 0:
                        row.append(t0[v & 7])
                    elif v & 7 == 1:
                        row.append("*")
                    elif v & 7 == 2:
                        row.append("E")
                    elif flags[i, j] & 8:
                        row.append("n")
                    else:
                        row.append("~" if flags[i, j] & 1 else " ")
                lines.append("".join(row))
            if level == 1:
                lines.append("-" * codes.shape[1])
        return lines


class Dominator(BoardRenderer):
    """Dominator (``dominator-obs-2``): the learner's rotated view."""

    name = "Dominator"
    legend = (
        "'#' wall, '.' free, a-d land of player 0-3, '+' haunted; units of player 0-3: "
        "0-3 farmer, A-D knight, W-Z witch"
    )

    def grid(self, board: Array, seat: int) -> tuple[Array, list[tuple[Array, Array, str]]]:
        """See :class:`BoardRenderer`."""
        terrain, owner, unit, haunted = board[0], board[1], board[2], board[4]
        base: Array = np.where((terrain == 0)[..., None], _colour("#36302b"), _colour("#d9d0bb"))
        land = _abs_lut(4, seat, OWNED, "#d9d0bb")[np.minimum(owner, 4)]
        base = np.where(((owner > 0) & (terrain != 0))[..., None], land, base)
        # haunted: rgba(36, 14, 60, 0.30) over the cell
        h = haunted.astype(bool)
        base[h] = (base[h] * 0.7 + np.array([36, 14, 60]) * 0.3).astype(np.uint8)
        rel = (np.maximum(unit, 1) - 1) // 3
        kind = (np.maximum(unit, 1) - 1) % 3
        colour = np.asarray([_rgb(PLAYER[(r + seat) % 4]) for r in range(4)], np.uint8)[rel % 4]
        has = unit > 0
        return base, [
            (colour, has & (kind == 0), "disc"),
            (colour, has & (kind == 1), "square"),
            (colour, has & (kind == 2), "diamond"),
        ]

    def chars(self, board: Array, seat: int) -> list[str]:
        """See :class:`BoardRenderer`."""
        terrain, owner, unit, haunted = board[0], board[1], board[2], board[4]
        land = ["", *_abs_chars(seat, "abcd")]
        kinds = [_abs_chars(seat, "0123"), _abs_chars(seat, "ABCD"), _abs_chars(seat, "WXYZ")]
        lines = []
        for i in range(terrain.shape[0]):
            row = []
            for j in range(terrain.shape[1]):
                u = int(unit[i, j])
                if u:
                    row.append(kinds[(u - 1) % 3][((u - 1) // 3) % 4])
                elif terrain[i, j] == 0:
                    row.append("#")
                elif haunted[i, j]:
                    row.append("+")
                else:
                    row.append(land[int(owner[i, j])] if 0 < owner[i, j] <= 4 else ".")
            lines.append("".join(row))
        return lines


class Pandemic(BoardRenderer):
    """Pandemic (``pandemic-obs-1`` and ``pandemic-obs-2``)."""

    name = "Pandemic"
    legend = (
        "'#' wall, ' ' grass, 'c' city, ':' path (a-d: owned by player 0-3), "
        "'m' mask; 0-3 unit of player 0-3"
    )

    def grid(self, board: Array, seat: int) -> tuple[Array, list[tuple[Array, Array, str]]]:
        """See :class:`BoardRenderer`."""
        terrain, virus, unit, conquest, flags = board[0], board[1], board[2], board[4], board[5]
        base = _table(4, "#36302b", {1: "#d9d3c3", 2: "#7d8796", 3: "#a89677"})[
            np.minimum(terrain, 3)
        ]
        owned = _abs_lut(4, seat, OWNED, "#7d8796")[np.minimum(conquest, 4)]
        base = np.where((conquest > 0)[..., None], owned, base)
        v = np.minimum(virus, 10).astype(np.float32)
        alpha = np.where(v > 0, 0.08 + 0.37 * v / 10, 0)[..., None]
        base = (base * (1 - alpha) + np.array([70, 90, 0]) * alpha).astype(np.uint8)
        colour = _abs_lut(4, seat, PLAYER, INK)[np.minimum(unit, 4)]
        mask_c = np.broadcast_to(_colour("#f8f9fa"), colour.shape)
        return base, [
            (mask_c, (flags & 1).astype(bool) & (unit == 0), "small"),
            (colour, unit > 0, "disc"),
        ]

    def chars(self, board: Array, seat: int) -> list[str]:
        """See :class:`BoardRenderer`."""
        terrain, unit, conquest, flags = board[0], board[2], board[4], board[5]
        owners = ["", *_abs_chars(seat, "abcd")]
        units = ["", *_abs_chars(seat, "0123")]
        lines = []
        for i in range(terrain.shape[0]):
            row = []
            for j in range(terrain.shape[1]):
                if unit[i, j]:
                    row.append(units[min(int(unit[i, j]), 4)])
                elif conquest[i, j]:
                    row.append(owners[min(int(conquest[i, j]), 4)])
                elif flags[i, j] & 1:
                    row.append("m")
                else:
                    row.append("# c:"[min(int(terrain[i, j]), 3)])
            lines.append("".join(row))
        return lines


class Moria(BoardRenderer):
    """Moria (``moria-obs-1`` and ``moria-obs-2``)."""

    name = "Moria"
    legend = (
        "' ' outside, '.' cave, a-d cave of player 0-3, 'O' abyss, '%' granite, '#' rock, "
        "'$' treasure; 0-3 dwarf, A-D wizard of player 0-3, 'o' orc, 'T' troll, 'B' Balrog"
    )

    def grid(self, board: Array, seat: int) -> tuple[Array, list[tuple[Array, Array, str]]]:
        """See :class:`BoardRenderer`."""
        kind, owner, treasure, unit = board[0], board[1], board[2], board[4]
        base = _table(5, "#1c2333", {1: "#dacdb3", 2: "#0a0a0f", 3: "#75787e", 4: "#36302b"})[
            np.minimum(kind, 4)
        ]
        owned = _abs_lut(4, seat, OWNED, "#dacdb3")[np.minimum(owner, 4)]
        base = np.where((owner > 0)[..., None], owned, base)
        lut = _table(12, "#9aa4b1", {9: "#eef0f2", 10: "#adb5bd", 11: "#17110f"})
        for r in range(4):
            lut[1 + r] = lut[5 + r] = _rgb(PLAYER[(r + seat) % 4])
        colour = lut[np.minimum(unit, 11)]
        gold = np.broadcast_to(_colour("#ffd43b"), colour.shape)
        return base, [
            (gold, treasure.astype(bool) & (unit == 0), "small"),
            (colour, (unit >= 1) & (unit <= 4), "disc"),
            (colour, (unit >= 5) & (unit <= 8), "square"),
            (colour, unit >= 9, "diamond"),
        ]

    def chars(self, board: Array, seat: int) -> list[str]:
        """See :class:`BoardRenderer`."""
        kind, owner, treasure, unit = board[0], board[1], board[2], board[4]
        owners = ["", *_abs_chars(seat, "abcd")]
        units = ["", *_abs_chars(seat, "0123"), *_abs_chars(seat, "ABCD"), "o", "T", "B"]
        lines = []
        for i in range(kind.shape[0]):
            row = []
            for j in range(kind.shape[1]):
                u = int(unit[i, j])
                if 0 < u < len(units):
                    row.append(units[u])
                elif treasure[i, j]:
                    row.append("$")
                elif owner[i, j] and 0 < owner[i, j] <= 4:
                    row.append(owners[int(owner[i, j])])
                else:
                    row.append(" .O%#"[min(int(kind[i, j]), 4)])
            lines.append("".join(row))
        return lines


_RENDERERS: dict[str, tuple[type[BoardRenderer], int]] = {
    "crematoria": (Crematoria, 6),
    "dominator": (Dominator, 8),
    "pandemic": (Pandemic, 5),
    "moria": (Moria, 6),
}


def renderer(observation_version: str, cell: int | None = None) -> BoardRenderer:
    """Returns the renderer of an observation layout (e.g. ``"moria-obs-1"``).

    Args:
        observation_version: The game spec's ``observation_version``.
        cell: Pixels per cell (default: the game's, 5 to 8).

    Raises:
        UnsupportedError: No renderer knows the layout.
    """
    game = observation_version.split("-obs-", maxsplit=1)[0]
    if game not in _RENDERERS:
        raise UnsupportedError(f"no renderer for observation layout {observation_version!r}")
    cls, default = _RENDERERS[game]
    return cls(cell or default)
