"""Training data from traces: the shards ``jgym dataset`` writes, as batches.

``jgym dataset -o DIR TRACE...`` turns ``.res`` traces (of jgym, the course
kit or the judge) into one sample per seat and round: the seat's
observation exactly as the env encodes it, the action label of each unit
slot (the direction of the move its unit made in the round, else the
game's "none" action) and the seat's reward. ``DIR`` holds
``manifest.json`` and shards ``shard-00000.npz``, ... (numpy's zip of
``.npy`` arrays), read here with numpy alone, never the whole dataset at
once. docs/learning-from-traces.md defines the labels and what a trace
cannot tell.

Example:
    >>> import jgym.dataset
    >>> ds = jgym.dataset.open_dataset("runs/data")  # doctest: +SKIP
    >>> ds.game, len(ds), ds.observation_names  # doctest: +SKIP
    ('Crematoria', 960, ('board', 'units', 'globals', 'action_mask'))
    >>> train, held_out = ds.split(0.2, seed=0)  # by trace  # doctest: +SKIP
    >>> for batch in train.batches(256, seed=0):  # doctest: +SKIP
    ...     obs = {k: batch[k] for k in ds.observation_names}
    ...     labels = batch["action"]  # int8 [256, U]
    >>> ds.observation_space["board"].shape  # doctest: +SKIP
    (3, 40, 80)
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

__all__ = ["FORMAT", "TraceDataset", "open_dataset"]

FORMAT = "jgym-dataset-1"
"""The layout of a dataset directory this module reads."""

_DTYPES = {
    "uint8": np.uint8,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "float32": np.float32,
    "bool": np.bool_,
}


def _space(t: dict[str, Any]) -> spaces.Space[Any]:
    shape = tuple(int(d) for d in t["shape"])
    dtype = _DTYPES[t["dtype"]]
    if dtype is np.bool_:
        return spaces.MultiBinary(list(shape))
    if dtype is np.float32:
        return spaces.Box(-np.inf, np.inf, shape, np.float32)
    info = np.iinfo(dtype)
    return spaces.Box(info.min, info.max, shape, dtype)


class TraceDataset:
    """A dataset directory written by ``jgym dataset``.

    Args:
        path: The directory (holding ``manifest.json``).
        traces: Indices of the source traces to keep (default: all); see
            :meth:`split`.

    Attributes:
        manifest: The parsed ``manifest.json``.
        game: The game's name (``"Crematoria"``).
        observation_names: The observation tensors, in the env's order.
        observation_space: A ``gymnasium.spaces.Dict`` of one sample's
            observation, as the env's (masks as ``MultiBinary``).
        action_space: ``MultiDiscrete`` of one sample's labels, one choice
            per unit slot.
        none_action: The label of a slot whose unit did not move.
        opponent_order: How the observations label the opponents, as the
            env's option ``opponent_order``: ``"seat"`` (also a dataset
            written before the manifest said) or an order the game offers
            (``"score"``: ``jgym dataset --opponent-order score``). A
            policy cloned from the dataset must play with that order.
    """

    def __init__(self, path: str | os.PathLike[str], traces: Sequence[int] | None = None) -> None:
        self.path = Path(path)
        with open(self.path / "manifest.json") as f:
            self.manifest: dict[str, Any] = json.load(f)
        if self.manifest.get("format") != FORMAT:
            raise ValueError(f"{self.path}: format {self.manifest.get('format')!r}, not {FORMAT!r}")
        m = self.manifest
        self.game: str = m["game"]
        self.env_id: str = m["env_id"]
        self.observation_version: str = m["observation_version"]
        self.num_actions: int = int(m["num_actions"])
        self.none_action: int = int(m["none_action"])
        self.opponent_order: str = str(m.get("opponent_order") or "seat")
        self.observation_names = tuple(t["name"] for t in m["observation"])
        self.observation_space = spaces.Dict({t["name"]: _space(t) for t in m["observation"]})
        self.action_space = spaces.MultiDiscrete(
            np.full(tuple(m["action"]["shape"]), self.num_actions, dtype=np.int64)
        )
        self.traces = tuple(range(len(m["traces"]))) if traces is None else tuple(sorted(traces))
        self._all = traces is None

    def __len__(self) -> int:
        """The number of samples (of the kept traces)."""
        if self._all:
            return int(self.manifest["samples"])
        return sum(int(self.manifest["traces"][i]["samples"]) for i in self.traces)

    def __repr__(self) -> str:
        return (
            f"TraceDataset({str(self.path)!r}, game={self.game}, "
            f"opponent_order={self.opponent_order}, samples={len(self)}, "
            f"traces={len(self.traces)}, shards={len(self.manifest['shards'])})"
        )

    def split(self, fraction: float, seed: int = 0) -> tuple[TraceDataset, TraceDataset]:
        """Splits by trace: (the rest, a held-out ``fraction`` of the traces, at least one)."""
        rng = np.random.default_rng(seed)
        order = [self.traces[i] for i in rng.permutation(len(self.traces))]
        k = max(1, round(fraction * len(order))) if len(order) > 1 else 0
        return TraceDataset(self.path, order[k:]), TraceDataset(self.path, order[:k])

    def shard(self, i: int) -> dict[str, np.ndarray]:
        """All arrays of shard ``i`` (observation tensors, ``action``, extras), kept traces only."""
        info = self.manifest["shards"][i]
        with np.load(self.path / info["file"]) as z:
            arrays = {k: z[k] for k in z.files}
        if self._all:
            return arrays
        keep = np.isin(arrays["trace"], np.asarray(self.traces, dtype=np.int32))
        return {k: v[keep] for k, v in arrays.items()}

    def batches(
        self,
        batch_size: int,
        *,
        shuffle: bool = True,
        seed: int | None = None,
        buffer_shards: int = 2,
        drop_last: bool = False,
    ) -> Iterator[dict[str, np.ndarray]]:
        """Yields batches: dicts of arrays with ``batch_size`` samples in front.

        Shuffled, the shards come in a random order and samples are mixed
        across ``buffer_shards`` shards at a time, so memory holds at most
        that many shards (plus one batch); unshuffled, samples come in file
        order. The last, smaller batch is dropped with ``drop_last``.

        Args:
            batch_size: Samples per batch.
            shuffle: Shuffle the shards and the samples.
            seed: Seed of the shuffling.
            buffer_shards: Shards mixed together when shuffling.
            drop_last: Drop the last batch if it is smaller.
        """
        rng = np.random.default_rng(seed)
        n = len(self.manifest["shards"])
        order = rng.permutation(n) if shuffle else np.arange(n)
        group = max(1, buffer_shards) if shuffle else 1
        rest: dict[str, np.ndarray] | None = None
        for g in range(0, n, group):
            parts = [self.shard(int(i)) for i in order[g : g + group]]
            if rest is not None:
                parts.insert(0, rest)
            pool = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
            size = len(pool["action"])
            idx = rng.permutation(size) if shuffle else np.arange(size)
            full = size - size % batch_size
            for s in range(0, full, batch_size):
                sel = idx[s : s + batch_size]
                yield {k: v[sel] for k, v in pool.items()}
            rest = {k: v[idx[full:]] for k, v in pool.items()}
        if rest is not None and len(rest["action"]) and not drop_last:
            yield rest

    def arrays(self) -> dict[str, np.ndarray]:
        """Every sample at once, in file order (small datasets and tests only)."""
        parts = [self.shard(i) for i in range(len(self.manifest["shards"]))]
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]} if parts else {}


def open_dataset(path: str | os.PathLike[str], traces: Sequence[int] | None = None) -> TraceDataset:
    """Opens a dataset directory written by ``jgym dataset`` (see :class:`TraceDataset`)."""
    return TraceDataset(path, traces)
