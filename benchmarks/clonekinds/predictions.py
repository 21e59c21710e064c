"""The loop the clonekinds scripts share: clones' argmax moves over a dataset split as bc.py's.

``predictions`` opens a ``jgym dataset`` directory, takes the part bc.py
holds out (20% of the traces, seed 1) or the part it trains on, loads each
bc.py checkpoint and yields, for each of the first N batches of 256
seat-rounds, the batch and each clone's argmax per unit slot. Each clone
reads the tensors it was trained on (a clone of an older observation
version, a prefix of the game's tensors, reads that prefix). ``Tally``
counts the right predictions per kind of decision.
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Iterator, Sequence

import numpy as np
import torch

import jgym.torch as jt
from jgym.dataset import TraceDataset, open_dataset
from jgym.spec import GameInfo, describe

BATCH = 256


def game_info(ds: TraceDataset) -> GameInfo:
    """The server's description of the dataset's game, cut to the dataset's tensors as bc.py does.

    A dataset of an older observation version holds a prefix of the game's
    tensors; a checkpoint without a description of its own is read with
    that prefix.
    """
    info = describe(jt.game_spec(ds.env_id))
    names = list(ds.observation_names)
    if len(names) < len(info.tensors):
        info = dataclasses.replace(
            info, version=ds.observation_version, tensors=tuple(info.tensors[: len(names)])
        )
    return info


def predictions(
    data: str, ckpts: Sequence[str], batches: int, part: str = "held"
) -> Iterator[tuple[dict[str, np.ndarray], list[np.ndarray]]]:
    """Yields (batch, one argmax array [B, slots] per checkpoint) for the first batches.

    Args:
        data: the ``jgym dataset`` directory.
        ckpts: bc.py checkpoints.
        batches: how many batches of 256 seat-rounds to read at most.
        part: "held" (bc.py's held-out traces) or anything else for the training ones.
    """
    torch.set_num_threads(1)
    ds = open_dataset(data)
    train, held = ds.split(0.2, seed=1)
    rows = held if part == "held" else train
    info = game_info(ds)
    agents = [jt.load_agent(c, info=info).eval() for c in ckpts]
    names = list(ds.observation_names)
    for bi, b in enumerate(rows.batches(BATCH, shuffle=False)):
        if bi >= batches:
            break
        obs = {n: torch.from_numpy(np.ascontiguousarray(b[n])) for n in names}
        preds = []
        with torch.no_grad():
            for a in agents:  # each clone reads the tensors it was trained on
                logits, _ = a.heads(*(obs[t.name] for t in a.info.tensors))
                preds.append(logits.argmax(-1).numpy())
        yield b, preds


class Tally:
    """Right predictions and counts per kind of decision."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])

    def add(self, ok: int, *kinds: str) -> None:
        """Counts one decision, right when ``ok`` is 1, in each of ``kinds``."""
        for k in kinds:
            self.counts[k][0] += ok
            self.counts[k][1] += 1

    def summary(self) -> dict[str, dict[str, float]]:
        """Per kind (sorted): the count ``n`` and the accuracy ``acc`` (4 decimals)."""
        return {k: {"n": n, "acc": round(c / n, 4)} for k, (c, n) in sorted(self.counts.items())}
